// One balancer, three transports: an HTTP request, a gRPC call and a stream connection each give
// the balancer what it hashes (hash_on) and the addresses their retries already failed on, so
// consistent-hashing and least-connections behave alike whatever the listener (docs/gateway-observability.md,
// "One balancing path for HTTP, gRPC and stream"). Real listeners throughout; client sources on 127.0.0.2-… stand for many clients.
import assert from 'node:assert/strict';
import { connect as netConnect } from 'node:net';
import { test, type TestContext } from 'node:test';
import { Agent, request } from 'undici';
import { parseDeclarativeConfig } from '../../src/declarative/index.ts';
import type { Upstream } from '../../src/declarative/types.ts';
import { echoClient, say, startBackend, startGrpcGateway } from '../grpc/grpc.fixture.ts';
import { refusedPort, startGateway, startUpstream } from '../proxy/proxy.fixture.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { startEcho, startStreamGateway } from '../stream/stream.fixture.ts';

const SOURCES = Array.from({ length: 12 }, (_, i) => `127.0.0.${i + 2}`);

function hashed(fields: Partial<Upstream>): Upstream {
  return upstream({ name: 'hashed.test', algorithm: 'consistent-hashing', slots: 10, ...fields });
}

/** Each source's picks: every source sticks to one target, and the sources do not all share one. */
function assertStickyAndSpread(picks: ReadonlyMap<string, readonly string[]>): void {
  for (const [source, targets] of picks) assert.equal(new Set(targets).size, 1, `${source} stays on one target: ${targets.join(', ')}`);
  const chosen = new Set([...picks.values()].map((targets) => targets[0]));
  assert.ok(chosen.size > 1, `different inputs reach different targets, got only ${[...chosen].join(', ')}`);
}

test('HTTP: hash_on ip hashes the client address', async (t) => {
  const servers = await Promise.all([startUpstream(t), startUpstream(t), startUpstream(t)]);
  const up = hashed({ hash_on: 'ip' });
  const svc = service({ host: up.name });
  const g = await startGateway(t, snapshot({
    services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })],
    upstreams: [up], targets: servers.map((s) => target(up, `127.0.0.1:${s.port}`, 10)),
  }));
  const picks = new Map<string, string[]>();
  for (const source of SOURCES) {
    const agent = new Agent({ localAddress: source });
    t.after(() => agent.close());
    for (let i = 0; i < 3; i++) {
      const res = await request(g.url + '/', { dispatcher: agent });
      assert.equal(res.statusCode, 200);
      const { port } = (await res.body.json()) as { port: number };
      picks.set(source, [...(picks.get(source) ?? []), String(port)]);
    }
  }
  assertStickyAndSpread(picks);
});

test('gRPC: hash_on header hashes the call metadata', async (t) => {
  const backends = await Promise.all(['A', 'B', 'C'].map((name) => startBackend(t, name)));
  const up = hashed({ hash_on: 'header', hash_on_header: 'hashme' });
  const svc = service({ host: up.name, protocol: 'grpc' });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } })],
    upstreams: [up], targets: backends.map((b) => target(up, `127.0.0.1:${b.port}`, 10)),
  }));
  const client = echoClient(t, gw.port);
  const picks = new Map<string, string[]>();
  for (let v = 0; v < 12; v++) {
    for (let i = 0; i < 3; i++) {
      const r = await say(client, 'hi', { hashme: `client-${v}` });
      assert.equal(r.error, undefined);
      picks.set(`client-${v}`, [...(picks.get(`client-${v}`) ?? []), r.reply!.server]);
    }
  }
  assertStickyAndSpread(picks);
});

/** A consistent-hashing upstream on `hash_on: consumer` behind key-auth, with twelve consumers. */
function consumerHashing(protocol: 'http' | 'grpc', ports: readonly number[]): ReturnType<typeof parseDeclarativeConfig> {
  const consumers = Array.from({ length: 12 }, (_, i) => `  - username: user${i}\n    keyauth_credentials: [{ key: key-${i} }]`).join('\n');
  const routeLine = protocol === 'grpc' ? '{ name: r, protocols: [grpc], paths: [/signet.test.Echo/], strip_path: false, plugins: [{ name: key-auth }] }' : '{ name: r, paths: [/], plugins: [{ name: key-auth }] }';
  return parseDeclarativeConfig(`_format_version: "3.0"
consumers:
${consumers}
upstreams:
  - name: hashed.test
    algorithm: consistent-hashing
    slots: 10
    hash_on: consumer
    targets:
${ports.map((p) => `      - target: 127.0.0.1:${p}\n        weight: 10`).join('\n')}
services:
  - name: svc
    host: hashed.test
    protocol: ${protocol}
    routes: [${routeLine}]
`);
}

test('HTTP and gRPC: hash_on consumer hashes the consumer key-auth identified', async (t) => {
  const servers = await Promise.all([startUpstream(t), startUpstream(t), startUpstream(t)]);
  const g = await startGateway(t, consumerHashing('http', servers.map((s) => s.port)));
  const httpPicks = new Map<string, string[]>();
  for (let c = 0; c < 12; c++) {
    for (let i = 0; i < 2; i++) {
      const res = await request(g.url + '/', { dispatcher: g.client, headers: { apikey: `key-${c}` } });
      assert.equal(res.statusCode, 200);
      const { port } = (await res.body.json()) as { port: number };
      httpPicks.set(`user${c}`, [...(httpPicks.get(`user${c}`) ?? []), String(port)]);
    }
  }
  assertStickyAndSpread(httpPicks);

  const backends = await Promise.all(['A', 'B', 'C'].map((name) => startBackend(t, name)));
  const gw = await startGrpcGateway(t, consumerHashing('grpc', backends.map((b) => b.port)));
  const client = echoClient(t, gw.port);
  const grpcPicks = new Map<string, string[]>();
  for (let c = 0; c < 12; c++) {
    for (let i = 0; i < 2; i++) {
      const r = await say(client, 'hi', { apikey: `key-${c}` });
      assert.equal(r.error, undefined, r.error?.message);
      grpcPicks.set(`user${c}`, [...(grpcPicks.get(`user${c}`) ?? []), r.reply!.server]);
    }
  }
  assertStickyAndSpread(grpcPicks);
});

/** One line over a plain stream connection from `source`; resolves with the reply. */
function exchangeFrom(port: number, source: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: '127.0.0.1', port, localAddress: source });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      received += d;
      if (received.endsWith(line)) socket.end();
    });
    socket.once('connect', () => socket.write(line));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

test('stream: hash_on ip hashes the client address', async (t) => {
  const echoes = await Promise.all(['A', 'B', 'C'].map((name) => startEcho(t, name)));
  const up = hashed({ hash_on: 'ip' });
  const svc = service({ host: up.name, protocol: 'tcp' });
  const gw = await startStreamGateway(t, snapshot({
    services: [svc], routes: [route({ protocols: ['tcp'], sources: [{ ip: '127.0.0.0/8' }], service: { id: svc.id } })],
    upstreams: [up], targets: echoes.map((e) => target(up, `127.0.0.1:${e.port}`, 10)),
  }));
  const picks = new Map<string, string[]>();
  for (const source of SOURCES) {
    for (let i = 0; i < 3; i++) {
      const reply = await exchangeFrom(gw.plainPort, source, 'hi');
      assert.match(reply, /^[ABC]:hi$/);
      picks.set(source, [...(picks.get(source) ?? []), reply.slice(0, 1)]);
    }
  }
  assertStickyAndSpread(picks);
});

/**
 * A least-connections upstream whose heavier target refuses: an idle balancer picks it first,
 * so only skipping it on the retry reaches the live one.
 */
function leastConnections(deadPort: number, livePort: number): { up: Upstream; targets: ReturnType<typeof target>[] } {
  const up = upstream({ name: 'lc.test', algorithm: 'least-connections' });
  return { up, targets: [target(up, `127.0.0.1:${deadPort}`, 50), target(up, `127.0.0.1:${livePort}`, 20)] };
}

async function eachTransportSkips(t: TestContext, transport: 'http' | 'grpc' | 'stream'): Promise<void> {
  const dead = await refusedPort();
  const deadKey = `127.0.0.1:${dead}`;
  if (transport === 'http') {
    const live = await startUpstream(t);
    const { up, targets } = leastConnections(dead, live.port);
    const svc = service({ host: up.name, retries: 1 });
    const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })], upstreams: [up], targets }));
    for (let i = 0; i < 5; i++) assert.equal((await request(g.url + '/', { dispatcher: g.client })).statusCode, 200);
    assert.equal(live.hits, 5);
  } else if (transport === 'grpc') {
    const live = await startBackend(t, 'live');
    const { up, targets } = leastConnections(dead, live.port);
    const svc = service({ host: up.name, protocol: 'grpc', retries: 1 });
    const gw = await startGrpcGateway(t, snapshot({
      services: [svc], routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } })], upstreams: [up], targets,
    }));
    const client = echoClient(t, gw.port);
    for (let i = 0; i < 5; i++) {
      const r = await say(client, `call ${i}`);
      assert.equal(r.error, undefined, r.error?.message);
    }
    assert.equal(live.calls, 5);
    assert.deepEqual(gw.attempts.map((a) => (a.key === deadKey ? 'dead' : 'live') + ' ' + String(a.outcome)), Array(5).fill(['dead tcp_failure', 'live 200']).flat());
  } else {
    const live = await startEcho(t, 'live');
    const { up, targets } = leastConnections(dead, live.port);
    const svc = service({ host: up.name, protocol: 'tcp', retries: 1 });
    const gw = await startStreamGateway(t, snapshot({
      services: [svc], routes: [route({ protocols: ['tcp'], sources: [{ ip: '127.0.0.1' }], service: { id: svc.id } })], upstreams: [up], targets,
    }));
    for (let i = 0; i < 5; i++) assert.equal(await exchangeFrom(gw.plainPort, '127.0.0.1', `line ${i}`), `live:line ${i}`);
    assert.deepEqual(gw.attempts.map((a) => `${a.key === deadKey ? 'dead' : 'live'} ${String(a.outcome)} ${a.retried}`), Array(5).fill(['dead tcp_failure true', 'live 200 false']).flat());
  }
}

for (const transport of ['http', 'grpc', 'stream'] as const) {
  test(`${transport}: a least-connections retry skips the address that just failed`, (t) => eachTransportSkips(t, transport));
}
