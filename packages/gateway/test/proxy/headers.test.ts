// What the upstream sees and what the client gets back: Host (kong/runloop/balancer/init.lua set_host_header), X-Forwarded-*,
// X-Real-IP, Via, hop-by-hop removal both ways, strip_path/preserve_host path composition.
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import type { Route } from '../../src/declarative/types.ts';
import { hostHeaderFor } from '../../src/proxy/proxy-route.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { send, startGateway, startUpstream } from './proxy.fixture.ts';

type Echo = { port: number; method: string; url: string; headers: Record<string, string> };

function rawGet(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('proxy headers to the upstream, as Kong sets them', async (t) => {
  const s = await startUpstream(t);
  const up = upstream({ name: 'echo.test' });
  const svc = service({ host: 'echo.test' });
  const g = await startGateway(t, snapshot({
    services: [svc], upstreams: [up], targets: [target(up, `127.0.0.1:${s.port}`)],
    routes: [route({ paths: ['/api'], service: { id: svc.id } })],
  }));
  // node:http rather than undici: undici refuses to send hop-by-hop headers at all.
  const res = await rawGet(g.port, '/api/items?q=1&r=2', {
    host: 'Public.Example.com:8080', 'x-forwarded-for': '10.0.0.1', via: '1.0 edge', 'x-custom': 'kept',
    'keep-alive': 'timeout=5', 'x-drop-me': 'secret', connection: 'keep-alive, x-drop-me', te: 'trailers',
  });
  assert.equal(res.status, 200);
  const echo = JSON.parse(res.body) as Echo;
  assert.equal(echo.url, '/items?q=1&r=2');
  const h = echo.headers;
  assert.equal(h.host, `127.0.0.1:${s.port}`, 'IP target: the IP plus the non-default port');
  assert.equal(h['x-forwarded-for'], '10.0.0.1, 127.0.0.1');
  assert.equal(h['x-real-ip'], '127.0.0.1');
  assert.equal(h['x-forwarded-proto'], 'http');
  assert.equal(h['x-forwarded-host'], 'public.example.com');
  assert.equal(h['x-forwarded-port'], String(g.port));
  assert.equal(h['x-forwarded-path'], '/api/items');
  assert.equal(h['x-forwarded-prefix'], '/api');
  assert.equal(h.via, '1.0 edge, 1.1 kong/3.10.0');
  assert.equal(h['x-custom'], 'kept');
  assert.match(h['x-kong-request-id'] ?? '', /^[0-9a-f]{32}$/);
  for (const hop of ['keep-alive', 'x-drop-me', 'te', 'transfer-encoding', 'upgrade']) assert.equal(h[hop], undefined, hop);
  // And back to the client: Kong's latency and request-id headers, Via.
  assert.equal(res.headers['via'], '1.1 kong/3.10.0');
  assert.match(String(res.headers['x-kong-upstream-latency']), /^\d+$/);
  assert.match(String(res.headers['x-kong-proxy-latency']), /^\d+$/);
  assert.equal(res.headers['x-kong-request-id'], h['x-kong-request-id']);
  assert.equal(res.headers['x-upstream-port'], String(s.port));
});

test('hop-by-hop response headers are removed; repeated headers survive', async (t) => {
  const s = await startUpstream(t, (_req, res) => {
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.setHeader('Connection', 'keep-alive, x-private');
    res.setHeader('Keep-Alive', 'timeout=5');
    res.setHeader('X-Private', 'nope');
    res.setHeader('Proxy-Connection', 'keep-alive');
    res.end('ok');
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  const res = await send(g, '/');
  assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
  assert.equal(res.headers['keep-alive'], 'timeout=60');
  assert.equal(res.headers['proxy-connection'], undefined);
  assert.equal(res.headers['x-private'], undefined, 'named in Connection');
  assert.equal(res.body, 'ok');
});

// set_host_header: Host to the target.
const hostCases: { name: string; targetHost: string; port?: number; hostHeader?: string; preserve?: boolean; expected: (port: number) => string }[] = [
  { name: 'IP target, its port', targetHost: '127.0.0.1', expected: (p) => `127.0.0.1:${p}` },
  { name: 'named target, its name and port', targetHost: 'localhost', expected: (p) => `localhost:${p}` },
  { name: 'upstream.host_header', targetHost: '127.0.0.1', hostHeader: 'internal.test', expected: (p) => `internal.test:${p}` },
  { name: 'preserve_host keeps the client Host', targetHost: '127.0.0.1', preserve: true, expected: () => 'client.example:9999' },
];

for (const c of hostCases) {
  test(`Host header to the target: ${c.name}`, async (t) => {
    const s = await startUpstream(t);
    const up = upstream({ name: 'host.test', host_header: c.hostHeader ?? null });
    const svc = service({ host: 'host.test' });
    const g = await startGateway(t, snapshot({
      services: [svc], upstreams: [up], targets: [target(up, `${c.targetHost}:${s.port}`)],
      routes: [route({ paths: ['/'], preserve_host: c.preserve ?? false, service: { id: svc.id } })],
    }));
    const echo = JSON.parse((await send(g, '/', { headers: { host: 'client.example:9999' } })).body) as Echo;
    assert.equal(echo.headers.host, c.expected(s.port));
  });
}

test('Host header rule: the scheme default port is left out', () => {
  assert.equal(hostHeaderFor('example.com', 80, 'http'), 'example.com');
  assert.equal(hostHeaderFor('example.com', 443, 'https'), 'example.com');
  assert.equal(hostHeaderFor('example.com', 443, 'http'), 'example.com:443');
  assert.equal(hostHeaderFor('::1', 8080, 'http'), '[::1]:8080');
});

// Path composition (Kong's spec/fixtures/router_path_handling_tests.lua), end to end: [service path, route path, strip, request, upstream]
const pathRows: [string | null, string, boolean, string, string][] = [
  ['/', '/route', true, '/route', '/'],
  ['/', '/route', true, '/routereq', '/req'],
  ['/', '/route', false, '/route/', '/route/'],
  ['/srv', '/rou', true, '/roureq', '/srv/req'],
  ['/srv', '/rou', false, '/roureq', '/srv/roureq'],
  ['/srv/', '/rou', true, '/rou', '/srv'],
  ['/service', '/route', true, '/route/', '/service/'],
  ['/service', '/', true, '/route', '/service/route'],
  ['/service/', '/route', true, '/route', '/service'],
  ['/service/', '/route/', true, '/route/req', '/service/req'],
];

test('strip_path and service path composition through the proxy (v0 table)', async (t) => {
  const s = await startUpstream(t);
  for (const [servicePath, routePath, strip, request, expected] of pathRows) {
    const svc = service({ host: '127.0.0.1', port: s.port, path: servicePath });
    const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: [routePath], strip_path: strip, service: { id: svc.id } })] }));
    const echo = JSON.parse((await send(g, request + '?k=v')).body) as Echo;
    assert.equal(echo.url, expected + '?k=v', `${servicePath} ${routePath} ${strip} ${request}`);
  }
});

test('routing through the listener: 404 body, methods, hosts, headers, https-only 426', async (t) => {
  const s = await startUpstream(t);
  const svc = service({ host: '127.0.0.1', port: s.port });
  const r = (fields: Partial<Route>) => route({ service: { id: svc.id }, ...fields });
  const g = await startGateway(t, snapshot({
    services: [svc],
    routes: [
      r({ name: 'by-host', hosts: ['api.example.com'], paths: ['/h'] }),
      r({ name: 'by-method', methods: ['POST'], paths: ['/m'] }),
      r({ name: 'by-header', headers: { 'x-version': ['v2'] }, paths: ['/v'] }),
      r({ name: 'secure', protocols: ['https'], paths: ['/secure'] }),
    ],
  }));
  const notFound = await send(g, '/nope');
  assert.equal(notFound.status, 404);
  const body = JSON.parse(notFound.body) as Record<string, string>;
  assert.deepEqual(Object.keys(body), ['message', 'request_id']);
  assert.equal(body.message, 'no Route matched with those values');
  assert.equal(notFound.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(notFound.headers['server'], 'kong/3.10.0');
  assert.match((await send(g, '/nope', { headers: { accept: 'text/html' } })).body, /<p>no Route matched with those values.<\/p>/);
  assert.equal((await send(g, '/h', { headers: { host: 'api.example.com' } })).status, 200);
  assert.equal((await send(g, '/h', { headers: { host: 'other.example.com' } })).status, 404);
  assert.equal((await send(g, '/m', { method: 'POST', body: '' })).status, 200);
  assert.equal((await send(g, '/m')).status, 404);
  assert.equal((await send(g, '/v', { headers: { 'x-version': 'V2' } })).status, 200);
  assert.equal((await send(g, '/v')).status, 404);
  const upgrade = await send(g, '/secure');
  assert.equal(upgrade.status, 426);
  assert.equal((JSON.parse(upgrade.body) as { message: string }).message, 'Please use HTTPS protocol');
});

test('non-ASCII header bytes reach the upstream unchanged', async (t) => {
  let seen: { url: string | undefined; value: string | undefined } | undefined;
  const s = await startUpstream(t, (req, res) => {
    seen = { url: req.url, value: req.headers['x-name'] as string | undefined };
    res.end('ok');
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], strip_path: false, service: { id: svc.id } })] }));
  const socket = connect(g.port, '127.0.0.1');
  t.after(() => socket.destroy());
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  // UTF-8 "café" as raw bytes; node decodes header bytes as latin1 on both sides. (node:http
  // answers 400 to non-ASCII bytes in the request target, so only headers can carry them.)
  socket.write(Buffer.concat([Buffer.from('GET /x HTTP/1.1\r\nHost: x\r\nX-Name: caf'), Buffer.from('é'), Buffer.from('\r\n\r\n')]));
  await pollUntil(() => received.endsWith('ok'), { what: 'the response' });
  assert.deepEqual(seen, { url: '/x', value: 'caf\u00c3\u00a9' });
});

test('the client going away mid-response closes the upstream connection', async (t) => {
  let upstreamClosed = false;
  const s = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('first part');
    res.on('close', () => (upstreamClosed = true));
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  const socket = connect(g.port, '127.0.0.1');
  t.after(() => socket.destroy());
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await pollUntil(() => received.includes('first part'), { what: 'the first part of the response' });
  socket.destroy();
  await pollUntil(() => upstreamClosed, { what: 'the upstream connection to close' });
});
