import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pollUntil } from '@signet/kit';
import { descendantsOf, startProcess, type StartedProcess } from '@signet/kit/testing';
import { freePorts } from './free-ports.ts';
import { killLeft } from './processes.ts';

const run = promisify(execFile);
/** The repository root (the cwd of `npm start`). */
export const repoRoot = join(import.meta.dirname, '../../../..');

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

/** Runs `npm start`'s entry point and waits for its banner; stopped (SIGTERM) and cleaned in teardown. */
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
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts'], { cwd: repoRoot, env });
  // The parts lead their own process groups and stop by themselves when the supervisor is gone;
  // teardown still removes whatever it saw running, should a stop hang.
  let started: number[] = [];
  t.after(async () => {
    // The supervisor stops the parts one after another, each with its own grace time.
    await proc.stop(40_000);
    killLeft(started);
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

/** `signet-esign <args>` beside the running system (same DATA_DIR / DATABASE_URL); its JSON answer. */
export async function esignCli<T>(env: NodeJS.ProcessEnv, args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'packages/esign/src/cli.ts', ...args], { cwd: repoRoot, env, timeout: 60_000 });
  return JSON.parse(stdout) as T;
}
