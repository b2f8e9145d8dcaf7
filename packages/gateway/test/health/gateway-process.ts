// `signet-gateway start` as a real process for health tests: a kong.yml written to a temp dir,
// ports chosen by the OS, URLs read from the log, stopped in teardown.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { startProcess, testLoaderArgs, type StartedProcess } from '@signet/kit/testing';
import { request } from 'undici';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
// Run from the repository root, as the gateway's relative paths expect.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export type GatewayProcess = { readonly proc: StartedProcess; readonly proxy: string; readonly admin: string };

/** Writes `yml` to a temp kong.yml and starts a gateway on it (loopback, OS-chosen ports). */
export async function startGatewayProcess(
  t: TestContext,
  yml: string,
  options: { workers?: number; env?: Record<string, string>; detached?: boolean } = {},
): Promise<GatewayProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-health-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'kong.yml');
  await writeFile(file, yml);
  const args = ['--config', file, '--proxy-listen', '127.0.0.1:0', '--admin-listen', '127.0.0.1:0', '--workers', String(options.workers ?? 1)];
  return spawnGateway(t, args, options.env, options.detached === true);
}

/**
 * `signet-gateway start <args>` as a real process, stopped in teardown; resolves with the proxy
 * and admin URLs it logs once started, and rejects with its output if it exits first.
 */
export async function spawnGateway(t: TestContext, args: readonly string[], env: Record<string, string> = {}, detached = false): Promise<GatewayProcess> {
  // `detached`: its own process group (pid = pgid), for a signal to the whole group.
  const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', ...args], { env: { ...process.env, ...env }, cwd: ROOT, detached });
  t.after(() => proc.stop());
  const exitedEarly = proc.exited.then((code) => {
    throw new Error(`gateway exited early (${code}):\n${proc.output()}`);
  });
  const started = pollUntil(() => {
    const out = proc.output();
    if (!out.includes('"gateway started"')) return undefined;
    const proxy = /proxy listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
    const admin = /admin listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
    return proxy && admin ? { proxy, admin } : undefined;
  }, { timeoutMs: 60_000, intervalMs: 50, what: 'the gateway to start' });
  const urls = await Promise.race([started, exitedEarly]);
  exitedEarly.catch(() => undefined);
  return { proc, ...urls };
}

/**
 * One HTTP exchange: status and body text. `fresh` closes the connection afterwards, so with
 * `--workers` consecutive requests land on different workers (node:cluster hands out
 * connections round-robin).
 */
export async function send(url: string, method = 'GET', fresh = false): Promise<{ status: number; body: string }> {
  const res = await request(url, { method, ...(fresh ? { headers: { connection: 'close' } } : {}) });
  return { status: res.statusCode, body: await res.body.text() };
}

/** `n` sequential GETs; the statuses in order. */
export async function sendMany(url: string, n: number, fresh = false): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send(url, 'GET', fresh)).status);
  return statuses;
}

/** The `health` of each target from GET /upstreams/{u}/health, by target string. */
export async function targetHealth(admin: string, upstream: string): Promise<Record<string, string>> {
  const res = await send(`${admin}/upstreams/${upstream}/health`);
  const body = JSON.parse(res.body) as { data: Array<{ target: string; health: string }> };
  return Object.fromEntries(body.data.map((t) => [t.target, t.health]));
}
