// nginx_main_worker_cpu_affinity (nginx's worker_cpu_affinity, as Kong injects it), in real
// processes: every thread of each worker is bound to its CPUs (read back from /proc), a worker
// replaced after a crash takes the CPUs of the one it replaces, the primary is left alone, and a
// setting that leaves a worker no CPU of this machine stops start naming the CPUs it may use.
import assert from 'node:assert/strict';
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { startProcess, testLoaderArgs } from '@signet/kit/testing';
import { request } from 'undici';
import { spawnGateway } from '../health/gateway-process.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** "0-2,5" → [0, 1, 2, 5] (the kernel's list format). */
function cpuList(text: string): number[] {
  return text.trim().split(',').flatMap((part) => {
    const [from = 0, to = from] = part.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

async function allowedOf(statusFile: string): Promise<number[] | undefined> {
  const status = await readFile(statusFile, 'utf8').catch(() => undefined);
  const line = status?.split('\n').find((l) => l.startsWith('Cpus_allowed_list:'));
  return line === undefined ? undefined : cpuList(line.slice('Cpus_allowed_list:'.length));
}

/** Every thread's CPUs, as distinct lists ("0" when all threads are bound to CPU 0). */
async function threadCpus(pid: number): Promise<string[]> {
  const lists = new Set<string>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const cpus = await allowedOf(`/proc/${pid}/task/${tid}/status`);
    if (cpus !== undefined) lists.add(cpus.join(','));
  }
  return [...lists];
}

async function writeConfig(t: TestContext, upstreamPort: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-affinity-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'kong.yml');
  await writeFile(file, `_format_version: "3.0"\nservices:\n  - name: echo\n    url: http://127.0.0.1:${upstreamPort}\n    routes:\n      - name: api\n        paths: ["/api"]\n`);
  return file;
}

type Pids = { master: number; workers: number[] };

async function pidsOf(admin: string): Promise<Pids> {
  const res = await request(`${admin}/`);
  return ((await res.body.json()) as { pids: Pids }).pids;
}

test('--worker-cpu-affinity auto: worker N on the Nth CPU, every thread of it; a replacement takes the CPUs of the worker it replaces; the primary is not bound', async (t) => {
  const allowed = (await allowedOf('/proc/self/status'))!;
  const upstream = await startUpstream(t);
  const file = await writeConfig(t, upstream.port);
  const g = await spawnGateway(t, ['--config', file, '--proxy-listen', '127.0.0.1:0', '--admin-listen', '127.0.0.1:0', '--workers', '2', '--worker-cpu-affinity', 'auto']);
  const root = (await (await request(`${g.admin}/`)).body.json()) as { pids: Pids; configuration: Record<string, unknown> };
  assert.equal(root.configuration.nginx_main_worker_cpu_affinity, 'auto', 'the admin API shows the setting, as Kong lists its configuration');
  const { master, workers } = root.pids;
  const bound = new Map<number, string[]>();
  for (const pid of workers) bound.set(pid, await threadCpus(pid));
  // One list per worker (all its threads alike), the first and second CPU this test may use.
  const expected = [String(allowed[0]), String(allowed[1 % allowed.length])];
  assert.deepEqual([...bound.values()].map((lists) => lists.join(' | ')).sort(), [...expected].sort());
  assert.deepEqual(await threadCpus(master), [allowed.join(',')], 'the primary runs on any CPU, as nginx\'s master');
  assert.equal((await request(`${g.proxy}/api/x`)).statusCode, 200);

  // A worker that dies is replaced on the same CPUs.
  const victim = workers[1]!;
  const victimCpus = bound.get(victim)!;
  process.kill(victim, 'SIGKILL');
  const replacement = await pollUntil(async () => {
    const now = await pidsOf(g.admin).catch(() => undefined);
    const fresh = now?.workers.find((pid) => !workers.includes(pid));
    return now?.workers.length === 2 && fresh !== undefined ? fresh : undefined;
  }, { timeoutMs: 20_000, what: 'a replacement worker' });
  // It binds itself as it starts (the primary lists it from its fork on).
  await pollUntil(async () => (await threadCpus(replacement)).join(' | ') === victimCpus.join(' | '), { timeoutMs: 20_000, what: `the replacement bound to CPU ${victimCpus.join(' | ')}` });
  await g.proc.stop();
});

test('--worker-cpu-affinity: a mask naming no CPU this gateway may use stops start, naming the setting and the CPUs; bad syntax names what nginx takes', async (t) => {
  const allowed = (await allowedOf('/proc/self/status'))!;
  const absent = Math.max(...allowed) + 1;
  const mask = `1${'0'.repeat(absent)}`;
  for (const [value, message] of [
    [mask, new RegExp(`nginx_main_worker_cpu_affinity: '${mask}' gives worker 1 none of the CPUs this gateway may run on \\(${allowed.join(',')}\\)`)],
    ['sometimes', /nginx_main_worker_cpu_affinity: expected "auto", "auto <mask>" or a binary CPU mask per worker \(nginx's worker_cpu_affinity\), got 'sometimes'/],
  ] as const) {
    const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', '--proxy-listen', '127.0.0.1:0', '--admin-listen', 'off', '--workers', '1'], {
      env: { ...process.env, KONG_NGINX_MAIN_WORKER_CPU_AFFINITY: value }, cwd: ROOT,
    });
    t.after(() => proc.stop());
    assert.equal(await proc.exited, 1);
    assert.match(proc.output(), message);
  }
});
