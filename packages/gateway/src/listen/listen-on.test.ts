import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { listenOn } from './listen-on.ts';
import { buildReusePortAddon } from './reuse-port-addon.ts';

const execFileAsync = promisify(execFile);

/** A server that answers each connection with its name and closes it; closed in teardown. */
function named(t: TestContext, name: string): Server {
  const server = createServer((socket) => socket.end(name));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

/** What one fresh connection to the port reads. */
function ask(port: number, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (got += d));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

/** The listening sockets on a port, from `ss` (iproute2): their accept queue limits (Send-Q). */
async function listenQueues(port: number): Promise<number[]> {
  const { stdout } = await execFileAsync('ss', ['-Hltn', `sport = :${port}`]);
  return stdout.trim().split('\n').filter((l) => l !== '').map((l) => Number(l.trim().split(/\s+/)[2]));
}

test('listenOn reuseport: two servers share one port and the kernel spreads connections over both', async (t) => {
  const a = named(t, 'a');
  await listenOn(a, { host: '127.0.0.1', port: 0, ssl: false, reuseport: true });
  const port = (a.address() as AddressInfo).port;
  const b = named(t, 'b');
  await listenOn(b, { host: '127.0.0.1', port, ssl: false, reuseport: true, backlog: 77 });
  assert.deepEqual((await listenQueues(port)).sort((x, y) => x - y), [77, 511], 'two sockets: node\'s default backlog and the flag\'s');
  const seen = { a: 0, b: 0 } as Record<string, number>;
  // 40 connections all on one of two sockets: 2^-39 by chance.
  for (let i = 0; i < 40; i++) seen[await ask(port)]! += 1;
  assert.ok(seen.a! > 0 && seen.b! > 0 && seen.a! + seen.b! === 40, JSON.stringify(seen));
});

test('listenOn: without reuseport a second socket on the port is refused, and reuseport cannot join it', async (t) => {
  const a = named(t, 'a');
  await listenOn(a, { host: '127.0.0.1', port: 0, ssl: false, backlog: 64 });
  const port = (a.address() as AddressInfo).port;
  assert.deepEqual(await listenQueues(port), [64]);
  await assert.rejects(listenOn(named(t, 'b'), { host: '127.0.0.1', port, ssl: false }), { code: 'EADDRINUSE' });
  await assert.rejects(listenOn(named(t, 'c'), { host: '127.0.0.1', port, ssl: false, reuseport: true }), (e: Error & { code?: string }) =>
    e.code === 'EADDRINUSE' && e.message === `listen EADDRINUSE: 127.0.0.1:${port} (reuseport)`);
  assert.equal(await ask(port), 'a', 'the first listener still serves');
});

test('listenOn reuseport: a host name is resolved first', async (t) => {
  const a = named(t, 'a');
  await listenOn(a, { host: 'localhost', port: 0, ssl: false, reuseport: true });
  const { address, port } = a.address() as AddressInfo;
  assert.ok(address === '127.0.0.1' || address === '::1', address);
  assert.equal(await ask(port, address), 'a');
});

test('buildReusePortAddon: no C compiler is an error naming the flag and the compiler', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'signet-addon-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  assert.throws(() => buildReusePortAddon(dir, '/nonexistent/cc'), /^Error: the reuseport flag needs a C compiler to build its socket helper \(\/nonexistent\/cc: .*ENOENT/);
  const built = buildReusePortAddon(dir, 'cc');
  assert.ok(built.startsWith(dir) && built.endsWith('.node'), built);
  assert.equal(buildReusePortAddon(dir, '/nonexistent/cc'), built, 'built once: the compiler is not needed again');
  // A build directory under a regular file can never be created: the error says where.
  const blocked = join(built, 'sub');
  assert.throws(() => buildReusePortAddon(blocked, 'cc'), (e: Error) => e.message.startsWith(`the reuseport flag builds its socket helper in ${blocked}, which cannot be created or written (`));
});
