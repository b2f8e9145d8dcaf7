// HTTP/2 for clients on a TLS proxy listener with Kong's `http2` flag (ALPN h2), proxied to
// HTTP/1.1 upstreams with the same routing, plugins, Kong errors and headers as HTTP/1.1; one
// in-process gateway and one upstream for the file, real TLS and node:http2 clients.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { before, after, test } from 'node:test';
import { createCertificateAuthority, issueCertificate, pollUntil } from '@signet/kit';
import { Agent, request } from 'undici';
import { buildGateway, type Gateway } from '../../src/build-gateway.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { TEST_CONFIG } from '../proxy/proxy.fixture.ts';
import { HTTP2_RESET_BURST } from '../../src/http2/index.ts';
import { listenOnLoopback } from '@signet/kit/testing';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ca = createCertificateAuthority({ commonName: 'h2 test CA' });
const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost', 'api.h2.test', 'members.h2.test'] }, ca);
const BIG = Buffer.alloc(4 * 1024 * 1024, 'signet h2 ');
const LOG = join(mkdtempSync(join(tmpdir(), 'signet-h2-')), 'access.log');
type LogLine = { request: { uri: string; headers: Record<string, unknown> }; response: { status: number } };
const logged = (): LogLine[] => (existsSync(LOG) ? readFileSync(LOG, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LogLine) : []);

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer; aborted: boolean };
const seen: Seen[] = [];
/** Requests to /hang get their head and a first chunk, never the end. */
const hanging: ServerResponse[] = [];

function upstreamHandler(req: IncomingMessage, res: ServerResponse): void {
  const parts: Buffer[] = [];
  const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.alloc(0), aborted: false };
  seen.push(s);
  res.on('close', () => {
    if (!res.writableFinished) s.aborted = true;
  });
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    s.body = Buffer.concat(parts);
    if (req.url === '/hang') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first chunk');
      hanging.push(res);
      return;
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': BIG.length });
      res.end(BIG);
      return;
    }
    // Hop-by-hop fields an upstream may send: never forwarded, and illegal in HTTP/2.
    res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive, X-Hop', 'X-Hop': 'hop', 'X-Upstream': 'yes' });
    res.end(JSON.stringify({ method: req.method, url: req.url, length: s.body.length }));
  });
}

const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - name: api
        hosts: [api.h2.test, localhost]
        paths: [/]
        plugins: [{ name: file-log, config: { path: ${LOG} } }]
      - name: members
        hosts: [members.h2.test]
        plugins: [{ name: key-auth }, { name: response-transformer, config: { add: { headers: ["X-Transformed:yes"] } } }]
      - name: closed
        hosts: [closed.h2.test]
        plugins: [{ name: request-termination, config: { status_code: 503, message: maintenance } }]
consumers:
  - username: alice
    keyauth_credentials: [{ key: alice-key }]
`;

let gateway: Gateway;
let port = 0;
let plainPort = 0;
const upstreamServer = createServer(upstreamHandler);

before(async () => {
  const upstreamPort = await listenOnLoopback(upstreamServer);
  const snapshot = parseDeclarativeConfig(yml(`http://127.0.0.1:${upstreamPort}`), { fileName: 'kong.yml' });
  gateway = await buildGateway({
    ...TEST_CONFIG,
    sslCert: cert,
    proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true, http2: true }, { host: '127.0.0.1', port: 0, ssl: true }],
  }, { snapshot });
  const [h2, tlsOnly] = await gateway.listen();
  port = h2!.port;
  plainPort = tlsOnly!.port;
});

after(async () => {
  for (const res of hanging) res.destroy();
  await gateway.close();
  upstreamServer.closeAllConnections();
  await new Promise<void>((resolve) => upstreamServer.close(() => resolve()));
  rmSync(dirname(LOG), { recursive: true, force: true });
});

function session(servername = 'api.h2.test', p = port): ClientHttp2Session {
  const s = connect(`https://127.0.0.1:${p}`, { ca: ca.certPem, servername });
  s.on('error', () => undefined);
  return s;
}

type H2Response = { headers: IncomingHttpHeaders; body: Buffer };

function h2request(s: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: Buffer | string | Buffer[]): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const req = s.request(headers, { endStream: body === undefined });
    const parts: Buffer[] = [];
    let head: IncomingHttpHeaders = {};
    req.on('response', (h) => {
      head = h;
    });
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve({ headers: head, body: Buffer.concat(parts) }));
    req.on('error', reject);
    if (Array.isArray(body)) {
      for (const part of body) req.write(part);
      req.end();
    } else if (body !== undefined) {
      req.end(body);
    }
  });
}

const json = (r: H2Response): Record<string, unknown> => JSON.parse(r.body.toString()) as Record<string, unknown>;

test('ALPN offers h2 on a listener with the http2 flag; HTTP/1.1 clients keep working there; without the flag, HTTP/1.1 only', async () => {
  const s = session();
  await once(s, 'connect');
  assert.equal(s.alpnProtocol, 'h2');
  s.close();
  const agent = new Agent({ connect: { ca: ca.certPem, servername: 'api.h2.test' } });
  try {
    const res = await request(`https://127.0.0.1:${port}/http1`, { dispatcher: agent, headers: { host: 'api.h2.test' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(JSON.parse(await res.body.text()), { method: 'GET', url: '/http1', length: 0 });
  } finally {
    await agent.close();
  }
  for (const p of [port, plainPort]) {
    const socket = tlsConnect({ host: '127.0.0.1', port: p, ca: ca.certPem, servername: 'api.h2.test', ALPNProtocols: ['h2', 'http/1.1'] });
    await once(socket, 'secureConnect');
    assert.equal(socket.alpnProtocol, p === port ? 'h2' : 'http/1.1');
    socket.destroy();
  }
});

test('a GET over HTTP/2: routed by :authority, Kong\'s headers both ways, hop-by-hop fields dropped, cookies joined', async () => {
  const s = session();
  try {
    const before = seen.length;
    const r = await h2request(s, { ':method': 'GET', ':path': '/hello?x=1', ':authority': 'api.h2.test', cookie: ['a=1', 'b=2'], 'x-client': 'c' });
    assert.equal(r.headers[':status'], 200);
    assert.deepEqual(json(r), { method: 'GET', url: '/hello?x=1', length: 0 });
    assert.equal(r.headers['x-upstream'], 'yes');
    assert.equal(r.headers['x-hop'], undefined, 'a field the upstream named in Connection is hop-by-hop');
    assert.equal(r.headers.connection, undefined);
    assert.match(String(r.headers.via), /kong\//);
    assert.ok(r.headers['x-kong-request-id'] !== undefined && r.headers['x-kong-upstream-latency'] !== undefined);
    const up = seen[before]!;
    // Routed by :authority, which X-Forwarded-Host carries (Host is the upstream's: preserve_host off).
    assert.equal(up.headers.host, `127.0.0.1:${(upstreamServer.address() as { port: number }).port}`);
    assert.equal(up.headers.cookie, 'a=1; b=2');
    assert.equal(up.headers['x-client'], 'c');
    assert.equal(up.headers['x-forwarded-proto'], 'https');
    assert.equal(up.headers['x-forwarded-host'], 'api.h2.test');
    assert.equal(up.headers['transfer-encoding'], undefined, 'a request without a body gets no framing');
    assert.ok(!Object.keys(up.headers).some((k) => k.startsWith(':')), 'no pseudo-header reaches the upstream');
    // The log phase sees the request as nginx lists it: no pseudo-header fields, the host.
    const line = await pollUntil(() => logged().find((l) => l.request.uri === '/hello?x=1'), { what: 'the file-log line' });
    assert.equal(line.response.status, 200);
    assert.equal(line.request.headers.host, 'api.h2.test');
    assert.deepEqual(Object.keys(line.request.headers).filter((k) => k.startsWith(':')), []);
    // HEAD: the head alone, with the upstream's length.
    const head = await h2request(s, { ':method': 'HEAD', ':path': '/big', ':authority': 'api.h2.test' });
    assert.equal(head.headers[':status'], 200);
    assert.equal(head.headers['content-length'], String(BIG.length));
    assert.equal(head.body.length, 0);
  } finally {
    s.close();
  }
});

test('request bodies over HTTP/2: without Content-Length streamed chunked to the upstream, with it as sent; a 4 MiB response arrives whole', async () => {
  const s = session();
  try {
    const before = seen.length;
    const parts = Array.from({ length: 16 }, (_, i) => Buffer.alloc(64 * 1024, String(i % 10)));
    const streamed = await h2request(s, { ':method': 'POST', ':path': '/upload', ':authority': 'api.h2.test' }, parts);
    assert.deepEqual(json(streamed), { method: 'POST', url: '/upload', length: 16 * 64 * 1024 });
    assert.equal(seen[before]!.headers['transfer-encoding'], 'chunked');
    assert.ok(seen[before]!.body.equals(Buffer.concat(parts)));
    const sized = await h2request(s, { ':method': 'PUT', ':path': '/sized', ':authority': 'api.h2.test', 'content-length': '5' }, 'hello');
    assert.deepEqual(json(sized), { method: 'PUT', url: '/sized', length: 5 });
    assert.equal(seen[before + 1]!.headers['content-length'], '5');
    assert.equal(seen[before + 1]!.headers['transfer-encoding'], undefined);
    const big = await h2request(s, { ':method': 'GET', ':path': '/big', ':authority': 'api.h2.test' });
    assert.equal(createHash('sha256').update(big.body).digest('hex'), createHash('sha256').update(BIG).digest('hex'));
    // Expect: 100-continue: the gateway sends the 100 once it forwards the body.
    const req = s.request({ ':method': 'POST', ':path': '/continue', ':authority': 'api.h2.test', expect: '100-continue' }, { endStream: false });
    const continued = once(req, 'continue');
    const response = once(req, 'response');
    await continued;
    req.end('after continue');
    const [h] = (await response) as [IncomingHttpHeaders];
    assert.equal(h[':status'], 200);
    req.resume();
    await once(req, 'end');
  } finally {
    s.close();
  }
});

test('Kong\'s errors and the route\'s plugins over HTTP/2: no route, key-auth, a header_filter, request-termination', async () => {
  const s = session('members.h2.test');
  try {
    const noRoute = await h2request(s, { ':method': 'GET', ':path': '/', ':authority': 'nowhere.h2.test' });
    assert.equal(noRoute.headers[':status'], 404);
    assert.deepEqual(json(noRoute), { message: 'no Route matched with those values', request_id: noRoute.headers['x-kong-request-id'] });
    const noKey = await h2request(s, { ':method': 'GET', ':path': '/', ':authority': 'members.h2.test' });
    assert.equal(noKey.headers[':status'], 401);
    assert.equal(noKey.headers['www-authenticate'], 'Key');
    const withKey = await h2request(s, { ':method': 'GET', ':path': '/m', ':authority': 'members.h2.test', apikey: 'alice-key' });
    assert.equal(withKey.headers[':status'], 200);
    assert.equal(withKey.headers['x-transformed'], 'yes');
    const terminated = await h2request(s, { ':method': 'GET', ':path': '/', ':authority': 'closed.h2.test' });
    assert.equal(terminated.headers[':status'], 503);
    assert.equal(json(terminated).message, 'maintenance');
    // A Host naming another entity than :authority is malformed (RFC 9113 §8.3.1): which would route?
    const before = seen.length;
    const twoHosts = await h2request(s, { ':method': 'GET', ':path': '/', ':authority': 'members.h2.test', host: 'api.h2.test' });
    assert.equal(twoHosts.headers[':status'], 400);
    assert.equal(seen.length, before, 'nothing reached the upstream');
    const sameHost = await h2request(s, { ':method': 'GET', ':path': '/', ':authority': 'api.h2.test', host: 'API.h2.test' });
    assert.equal(sameHost.headers[':status'], 200);
    // A tunnel request is not served (extended CONNECT is not offered).
    const tunnel = await h2request(s, { ':method': 'CONNECT', ':authority': 'api.h2.test:443' });
    assert.equal(tunnel.headers[':status'], 405);
  } finally {
    s.close();
  }
});

test('a client that resets its stream mid-response: the upstream exchange is abandoned, the session keeps serving', async () => {
  const s = session();
  try {
    const before = seen.length;
    const req = s.request({ ':method': 'GET', ':path': '/hang', ':authority': 'api.h2.test' });
    req.on('error', () => undefined);
    await once(req, 'data');
    req.close(constants.NGHTTP2_CANCEL);
    await pollUntil(() => seen[before]?.aborted === true, { what: 'the upstream request cut once the client reset its stream' });
    // Logged as nginx logs a request its client abandoned.
    assert.equal((await pollUntil(() => logged().find((l) => l.request.uri === '/hang'), { what: 'the /hang log line' })).response.status, 499);
    const r = await h2request(s, { ':method': 'GET', ':path': '/after', ':authority': 'api.h2.test' });
    assert.equal(r.headers[':status'], 200);
  } finally {
    s.close();
  }
});

/** One HTTP/2 frame: 9-byte header (length, type, flags, stream id) and payload (RFC 9113 §4.1). */
function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

test('a :path or field an HTTP/1.1 request line or head could not carry (space, CR LF, control bytes) never reaches the upstream', async () => {
  const before = seen.length;
  // HPACK literals without indexing: name by static index (:authority 1, :path 4) or new name.
  const literal = (index: number, value: string): Buffer => Buffer.concat([Buffer.from([index, value.length]), Buffer.from(value, 'latin1')]);
  const named = (name: string, value: string): Buffer => Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value, 'latin1')]);
  const attempts: [string, Buffer][] = [
    ['/smuggle HTTP/1.1\r\nX: y', Buffer.alloc(0)],
    ['/a b', Buffer.alloc(0)],
    ['/a\tb', Buffer.alloc(0)],
    ['/ok-path', named('x-evil', 'v\r\nTransfer-Encoding: chunked')],
  ];
  for (const [path, extra] of attempts) {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: ca.certPem, servername: 'api.h2.test', ALPNProtocols: ['h2'] });
    socket.on('error', () => undefined);
    await once(socket, 'secureConnect');
    const block = Buffer.concat([Buffer.from([0x82, 0x87]), literal(1, 'api.h2.test'), literal(4, path), extra]);
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'), frame(4, 0, 0, Buffer.alloc(0)), frame(1, 0x5, 1, block)]));
    // Stream 1 ends one way or the other: reset (RST_STREAM, type 3) or answered (HEADERS, type 1).
    const outcome = await pollUntil(() => {
      const bytes = Buffer.concat(received);
      for (let at = 0; at + 9 <= bytes.length; at += 9 + bytes.readUIntBE(at, 3)) {
        if (bytes.readUInt32BE(at + 5) === 1 && (bytes[at + 3] === 1 || bytes[at + 3] === 3)) return bytes[at + 3] === 1 ? 'answered' : 'reset';
      }
      return undefined;
    }, { what: `stream 1 of ${JSON.stringify(path)} ended` });
    socket.destroy();
    assert.equal(outcome, path === '/ok-path' ? 'answered' : 'reset', path);
  }
  const reached = seen.slice(before);
  // The bad paths are reset by the HTTP/2 layer; the field with CR LF is dropped, its request served without it.
  assert.deepEqual(reached.map((x) => x.url), ['/ok-path']);
  assert.equal(reached[0]!.headers['x-evil'], undefined);
  assert.equal(reached[0]!.headers['transfer-encoding'], undefined);
});

test('bounds: 128 concurrent streams and a 64 KiB header list announced; a rapid-reset flood (CVE-2023-44487) has its connection cut and others are still served', async () => {
  const s = session();
  try {
    await once(s, 'remoteSettings');
    assert.equal(s.remoteSettings.maxConcurrentStreams, 128);
    assert.equal(s.remoteSettings.maxHeaderListSize, 64 * 1024);
  } finally {
    s.close();
  }
  // Raw frames, as an attacker sends them: HEADERS (GET / with END_STREAM; HPACK static
  // entries :method GET, :scheme https, :path /, and :authority as a literal) then RST_STREAM
  // CANCEL, 5,000 times in one write.
  const before = seen.length;
  const authority = Buffer.from('api.h2.test');
  const block = Buffer.concat([Buffer.from([0x82, 0x87, 0x84, 0x41, authority.length]), authority]);
  const cancel = Buffer.from([0, 0, 0, 8]);
  const frames: Buffer[] = [Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'), frame(4, 0, 0, Buffer.alloc(0))];
  for (let i = 0; i < 5000; i++) {
    const id = 2 * i + 1;
    frames.push(frame(1, 0x5, id, block), frame(3, 0, id, cancel));
  }
  const socket = tlsConnect({ host: '127.0.0.1', port, ca: ca.certPem, servername: 'api.h2.test', ALPNProtocols: ['h2'] });
  socket.on('error', () => undefined);
  await once(socket, 'secureConnect');
  socket.resume();
  socket.write(Buffer.concat(frames));
  // The gateway cuts the connection (node:http2's own guard would only say GOAWAY, later, and keep it open).
  await pollUntil(() => socket.destroyed || socket.readableEnded, { what: 'the flooding connection cut by the gateway' });
  socket.destroy();
  const other = session();
  try {
    const r = await h2request(other, { ':method': 'GET', ':path': '/still-here', ':authority': 'api.h2.test' });
    assert.equal(r.headers[':status'], 200);
  } finally {
    other.close();
  }
  const flood = seen.slice(before).filter((x) => x.url === '/');
  assert.ok(flood.length <= HTTP2_RESET_BURST, `${flood.length} of 5,000 reset requests reached the upstream`);
});
