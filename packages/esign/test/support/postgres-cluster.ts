import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenOnLoopback } from '@signet/kit/testing';

const BIN = '/usr/lib/postgresql/15/bin';
const PREFIX = 'signet-pg-';
const OWNER_FILE = 'owner.pid';

function pgCommand(asRoot: boolean, cmd: string, args: string[]): void {
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args], { stdio: 'pipe' });
  else execFileSync(join(BIN, cmd), args, { stdio: 'pipe' });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Stops and removes the clusters of test processes that died without their teardown (killed
 * by a timeout, say). Only clusters whose recorded owner process is gone are touched, so the
 * clusters of test files running in parallel are left alone.
 */
function sweepOrphans(asRoot: boolean): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const ownerFile = join(dir, OWNER_FILE);
    if (!existsSync(ownerFile)) continue;
    const owner = Number(readFileSync(ownerFile, 'utf8'));
    if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
    try {
      if (existsSync(join(dir, 'data', 'postmaster.pid'))) pgCommand(asRoot, 'pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PostgreSQL cluster of the test's own, in a temp dir, on 127.0.0.1 and a free port. */
export type PostgresCluster = { port: number; url: (database?: string) => string; stop: () => void };

function postgresIds(): { uid: number; gid: number } {
  const [uid, gid] = execFileSync('id', ['-u', 'postgres']).toString().trim().split('\n').concat(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * initdb + pg_ctl start (~0.7 s with fsync off). PostgreSQL refuses to
 * run as root, so as root the cluster belongs to the `postgres` user (runuser); otherwise it
 * runs as the current user. The caller stops it (which also removes the directory).
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const asRoot = process.getuid?.() === 0;
  sweepOrphans(asRoot);
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  // Who owns this cluster: a later sweep stops it if this process dies without teardown.
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => pgCommand(asRoot, cmd, args);
  const data = join(dir, 'data');
  let started = false;
  const stop = () => {
    try {
      if (started) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      started = false;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  // The port is free an instant before postgres takes it; postgres fails loudly (not silently)
  // if another process grabbed it in between, so retry a few times with a new port.
    let port = 0;
    for (let attempt = 0; attempt < 5 && !started; attempt++) {
      const probe = createServer();
      port = await listenOnLoopback(probe);
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      try {
        run('pg_ctl', ['-D', data, '-w', '-t', '60', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`, 'start']);
        started = true;
      } catch (err) {
        if (attempt === 4) throw err;
      }
    }
    return { port, url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`, stop };
  } catch (err) {
    stop();
    throw err;
  }
}
