import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { closeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type ListenOptions, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { listenOn } from './listen-on.ts';
import { bindReusePort, buildReusePortAddon } from './reuse-port-addon.ts';
import { descriptorOf, readSocketOptions } from './socket-options-addon.ts';

const execFileAsync = promisify(execFile);

/** A server that answers each connection with its name and closes it (reading what the client sent); closed in teardown. */
function named(t: TestContext, name: string): Server {
  const server = createServer((socket) => socket.resume().end(name));
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

/** The options of the socket the server accepts for one connection: [SO_KEEPALIVE, KEEPIDLE, KEEPINTVL, KEEPCNT, ...]. */
async function acceptedOptions(t: TestContext, server: Server): Promise<number[]> {
  const accepted = new Promise<number[]>((resolve) => server.once('connection', (socket) => resolve(readSocketOptions(descriptorOf(socket)!))));
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client.on('error', () => undefined);
  client.resume();
  t.after(() => client.destroy());
  return accepted;
}

test('listenOn so_keepalive: accepted connections probe as the flag says, before any listener sees them', async (t) => {
  const plain = named(t, 'plain');
  await listenOn(plain, { host: '127.0.0.1', port: 0, ssl: false });
  const system = await acceptedOptions(t, plain);
  assert.equal(system[0], 0, 'no keep-alive without the flag');
  const on = named(t, 'on');
  await listenOn(on, { host: '127.0.0.1', port: 0, ssl: false, keepalive: {} });
  assert.deepEqual((await acceptedOptions(t, on)).slice(0, 4), [1, ...system.slice(1, 4)], 'so_keepalive=on: the system\'s times');
  const tuned = named(t, 'tuned');
  await listenOn(tuned, { host: '127.0.0.1', port: 0, ssl: false, reuseport: true, keepalive: { idleS: 1800, count: 10 } });
  assert.deepEqual((await acceptedOptions(t, tuned)).slice(0, 4), [1, 1800, system[2], 10], 'so_keepalive=30m::10');
  assert.equal(await ask((tuned.address() as AddressInfo).port), 'tuned', 'and it serves');
});

test('listenOn deferred: TCP_DEFER_ACCEPT on the listening socket, which still serves', async (t) => {
  const plain = named(t, 'plain');
  await listenOn(plain, { host: '127.0.0.1', port: 0, ssl: false });
  assert.equal(readSocketOptions(descriptorOf(plain)!)[4], 0);
  for (const reuseport of [false, true]) {
    const deferred = named(t, 'deferred');
    await listenOn(deferred, { host: '127.0.0.1', port: 0, ssl: false, reuseport, deferred: true });
    assert.ok(readSocketOptions(descriptorOf(deferred)!)[4]! > 0, 'TCP_DEFER_ACCEPT set');
    // A client that sends is handed over at once (this one sends a byte, then reads the name).
    const port = (deferred.address() as AddressInfo).port;
    const got = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('x'));
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.equal(got, 'deferred');
  }
});

test('listenOn ipv6only: IPV6_V6ONLY as the flag says, on both listening paths', async (t) => {
  // Only a wildcard address shows the option (Linux sets it on any other IPv6 address), and tests
  // listen on loopback only: the reuseport path's socket is bound to [::] and read, never listened
  // on; node's own path is checked for what it is asked (node and libuv set the option from it).
  for (const v6only of [true, false, undefined]) {
    const fd = bindReusePort('::', 0, v6only);
    try {
      const expected = v6only === undefined ? Number((await readFile('/proc/sys/net/ipv6/bindv6only', 'utf8')).trim()) : v6only ? 1 : 0;
      assert.equal(readSocketOptions(fd)[5], expected, `reuseport, ipv6only ${v6only}`);
    } finally {
      closeSync(fd);
    }
  }
  for (const ipv6only of [true, false, undefined]) {
    const server = named(t, 'v6');
    const asked: unknown[] = [];
    const listen = server.listen.bind(server);
    server.listen = ((options: ListenOptions) => {
      asked.push(options.ipv6Only);
      return listen(options);
    }) as typeof server.listen;
    await listenOn(server, { host: '::1', port: 0, ssl: false, ...(ipv6only !== undefined ? { ipv6only } : {}) });
    assert.deepEqual(asked, [ipv6only]);
    assert.equal(await ask((server.address() as AddressInfo).port, '::1'), 'v6');
  }
});
