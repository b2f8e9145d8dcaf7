import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pollUntil } from '@signet/kit';
import { descendantsOf, startProcess, testLoaderArgs, type StartedProcess } from '@signet/kit/testing';
import { freePorts } from './free-ports.ts';
import { alive, killLeft } from './processes.ts';

const run = promisify(execFile);
/** The repository root (the cwd of `npm start`). */
export const repoRoot = join(import.meta.dirname, '../../../..');
// The real npm (the one running this suite when there is one): it forwards SIGTERM only to its
// direct child, so the start script must exec the supervisor rather than leave a shell in between.
const npm = process.env.npm_execpath;
export const npmStart: [string, string[]] = npm?.endsWith('.js') ? [process.execPath, [npm, 'start']] : ['npm', ['start']];

/** The pid of the running supervisor (`npm start` writes it to DATA_DIR/signet.pid), for SIGHUP. */
export function supervisorPid(system: RunningSystem): number {
  return Number(readFileSync(join(system.dataDir, 'signet.pid'), 'utf8').trim());
}

/** The whole system started by its `npm start` entry point, on free ports and a temp DATA_DIR. */
export type RunningSystem = {
  proc: StartedProcess;
  dataDir: string;
  /** The dev CA the system generated (for NODE_EXTRA_CA_CERTS). */
  caPath: string;
  caPem: string;
  /** https://localhost:PORT, the public URL. */
  origin: string;
  ports: { http: number; https: number; admin: number; esign: number[] };
  /** The env the system runs with (DATA_DIR, PUBLIC_URL...), for the esign CLI beside it. */
  env: NodeJS.ProcessEnv;
};

/** Runs `npm start` and waits for its banner; stopped (SIGTERM) in teardown, which checks that every process it ran is gone. */
export async function startSystem(t: TestContext, extraEnv: Record<string, string> = {}): Promise<RunningSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-system-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const [http, https, admin, e1, e2] = (await freePorts(5)) as [number, number, number, number, number];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PUBLIC_URL: `https://localhost:${https}`,
    GATEWAY_HTTP_PORT: String(http),
    GATEWAY_HTTPS_PORT: String(https),
    GATEWAY_ADMIN_PORT: String(admin),
    ESIGN_PORTS: `${e1},${e2}`,
    ...extraEnv,
  };
  // The real `npm start`, in its own process group as a terminal runs a foreground job.
  const proc = startProcess(npmStart[0], npmStart[1], { cwd: repoRoot, env, detached: true });
  // Every process it ran must be gone after the stop, including parts the supervisor restarted
  // during the test (so the tree is read again at teardown); stragglers are killed and reported.
  let started: number[] = [];
  t.after(async () => {
    const seen = [...new Set([...started, ...descendantsOf(proc.child.pid!)])];
    await proc.stop(40_000);
    try {
      await pollUntil(() => seen.every((pid) => !alive(pid)), { timeoutMs: 30_000, what: 'every process npm start ran to exit' });
    } finally {
      killLeft(seen);
    }
  });
  try {
    await pollUntil(() => proc.output().includes('Ctrl-C stops everything') || proc.child.exitCode !== null, { timeoutMs: 90_000, what: 'the system to start' });
  } finally {
    if (proc.child.exitCode !== null || !proc.output().includes('Ctrl-C stops everything')) t.diagnostic(proc.output());
  }
  if (proc.child.exitCode !== null) throw new Error(`the system did not start:\n${proc.output()}`);
  started = descendantsOf(proc.child.pid!);
  const caPath = join(dataDir, 'tls', 'ca.pem');
  return { proc, dataDir, caPath, caPem: readFileSync(caPath, 'utf8'), origin: `https://localhost:${https}`, ports: { http, https, admin, esign: [e1, e2] }, env };
}

/** `signet-esign <args>` beside the running system (same DATA_DIR / DATABASE_URL); its JSON answer. Set-up, not under test: npm test's loader. */
export async function esignCli<T>(env: NodeJS.ProcessEnv, args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [...testLoaderArgs, 'packages/esign/src/cli.ts', ...args], { cwd: repoRoot, env, timeout: 60_000 });
  return JSON.parse(stdout) as T;
}
