// The logging plugins against a real two-worker gateway and real listeners: http-log (Kong's
// spec/03-plugins/03-http-log: entries, batches as JSON arrays, basic auth from the URL, custom
// headers; a log server that is slow, then down: requests never wait, entries are retried, then
// dropped with a log line), file-log (04-file-log: JSON lines, correlation_id from
// correlation-id), tcp-log (01-tcp-log: JSON lines), udp-log (02-udp-log: one datagram each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { createSocket } from 'node:dgram';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from '@signet/kit';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';
import { startPluginGateway } from './plugins.fixture.ts';

type Entry = { request: { method: string; uri: string; headers: Record<string, string>; size: number }; response: { status: number; size: number };
  route: { name: string }; service: { name: string }; latencies: { request: number; kong: number; proxy: number }; client_ip: string; upstream_uri: string;
  correlation_id?: string; source: string; started_at: number };

test('http-log, file-log, tcp-log, udp-log: Kong\'s entries delivered; a slow then dead log server never holds a request', async (t) => {
  // The HTTP log server: answers, holds its answers (slow), or is gone (down).
  const received: { headers: IncomingMessage['headers']; body: unknown }[] = [];
  const held: ServerResponse[] = [];
  let mode: 'ok' | 'hold' = 'ok';
  const logServer = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(parts).toString()) as unknown });
      if (mode === 'hold') held.push(res);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => logServer.listen(0, '127.0.0.1', resolve));
  const logPort = (logServer.address() as { port: number }).port;
  t.after(() => new Promise<void>((resolve) => {
    logServer.closeAllConnections();
    logServer.close(() => resolve());
  }));

  const lines: string[] = [];
  const tcpClients = new Set<Socket>();
  const tcp = createTcpServer((s: Socket) => {
    tcpClients.add(s);
    s.on('close', () => tcpClients.delete(s));
    let buf = '';
    s.on('data', (c: Buffer) => {
      buf += c.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      lines.push(...parts);
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  // tcp-log keeps its connection 60 s (Kong's keepalive): close() alone would wait for it.
  t.after(() => new Promise<void>((resolve) => {
    for (const s of tcpClients) s.destroy();
    tcp.close(() => resolve());
  }));
  const datagrams: string[] = [];
  const udp = createSocket('udp4');
  udp.on('message', (m) => datagrams.push(m.toString()));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => udp.close(() => resolve())));

  const dir = await mkdtemp(join(tmpdir(), 'signet-file-log-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'access.log');
  const queue = '{ max_batch_size: 2, max_coalescing_delay: 0.05, initial_retry_delay: 0.05, max_retry_delay: 0.1, max_retry_time: 1 }';

  const g = await startPluginGateway(t, (upstream) => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - name: http-logged
        hosts: [http.test]
        plugins:
          - name: http-log
            config: { http_endpoint: 'http://bob:secret@127.0.0.1:${logPort}/logs?x=1', headers: { X-Custom: v }, queue: ${queue} }
      - name: file-logged
        hosts: [file.test]
        plugins: [{ name: file-log, config: { path: '${file}' } }, { name: correlation-id }]
      - name: tcp-logged
        hosts: [tcp.test]
        plugins: [{ name: tcp-log, config: { host: 127.0.0.1, port: ${(tcp.address() as { port: number }).port} } }]
      - name: udp-logged
        hosts: [udp.test]
        plugins: [{ name: udp-log, config: { host: 127.0.0.1, port: ${(udp.address() as { port: number }).port} } }]
`);

  // http-log: every request's entry arrives, in JSON arrays of at most max_batch_size.
  for (let i = 0; i < 4; i++) assert.equal((await g.call(`/get?i=${i}`, { headers: { Host: 'http.test', Authorization: 'Bearer x' } })).status, 200);
  const entries = await pollUntil(() => {
    const all = received.flatMap((r) => r.body as Entry[]);
    return all.length >= 4 ? all : undefined;
  }, { timeoutMs: 15_000, intervalMs: 50, what: 'four http-log entries' });
  for (const r of received) {
    assert.ok(Array.isArray(r.body) && r.body.length <= 2, 'batches are JSON arrays of at most max_batch_size');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers.authorization, `Basic ${Buffer.from('bob:secret').toString('base64')}`, 'user info from the endpoint');
    assert.equal(r.headers['x-custom'], 'v');
  }
  assert.deepEqual(entries.map((e) => e.request.uri).sort(), ['/get?i=0', '/get?i=1', '/get?i=2', '/get?i=3']);
  const e = entries[0]!;
  assert.equal(e.request.method, 'GET');
  assert.equal(e.request.headers.authorization, 'REDACTED', 'credentials stay out of logs');
  assert.equal(e.response.status, 200);
  assert.ok(e.response.size > 100 && e.request.size > 30, `sizes ${e.request.size}/${e.response.size}`);
  assert.equal(e.route.name, 'http-logged');
  assert.equal(e.service.name, 'echo');
  assert.equal(e.client_ip, '127.0.0.1');
  assert.match(e.upstream_uri, /^\/get\?i=\d$/);
  assert.equal(e.source, 'service');
  assert.ok(e.latencies.request >= 0 && e.latencies.proxy >= 0 && e.latencies.kong >= 0);

  // Slow: the log server holds its answers; requests through the gateway are not held.
  mode = 'hold';
  const before = received.length;
  for (let i = 0; i < 4; i++) assert.equal((await g.call(`/slow?i=${i}`, { headers: { Host: 'http.test' } })).status, 200);
  await pollUntil(() => (received.length > before ? true : undefined), { timeoutMs: 15_000, intervalMs: 50, what: 'a batch to reach the slow server' });
  assert.ok(held.length > 0);
  assert.equal((await g.call('/while-held', { headers: { Host: 'http.test' } })).status, 200, 'a request completes while a log batch is unanswered');
  mode = 'ok';
  for (const res of held.splice(0)) res.end('late');
  await pollUntil(() => {
    const uris = received.flatMap((r) => (r.body as Entry[]).map((x) => x.request.uri));
    return ['/slow?i=0', '/slow?i=1', '/slow?i=2', '/slow?i=3', '/while-held'].every((u) => uris.includes(u)) ? true : undefined;
  }, { timeoutMs: 15_000, intervalMs: 50, what: 'the held entries to be delivered' });

  // Down: entries are retried, then dropped with Kong's log line; requests still pass.
  logServer.closeAllConnections();
  await new Promise<void>((resolve) => logServer.close(() => resolve()));
  assert.equal((await g.call('/down', { headers: { Host: 'http.test' } })).status, 200);
  await pollUntil(() => (g.proc.output().includes('handler could not process entries: failed request to 127.0.0.1') ? true : undefined),
    { timeoutMs: 15_000, intervalMs: 50, what: 'a failed delivery to be logged' });
  await pollUntil(() => (g.proc.output().includes('could not send entries due to max_retry_time exceeded. 1 queue entries were lost') ? true : undefined),
    { timeoutMs: 15_000, intervalMs: 50, what: 'the entry to be dropped after max_retry_time' });
  assert.ok(!g.proc.output().includes('secret'), 'the endpoint\'s password never reaches the gateway\'s log');

  // file-log: JSON lines, with correlation-id's value.
  for (let i = 0; i < 3; i++) assert.equal((await g.call(`/file/${i}`, { headers: { Host: 'file.test' } })).status, 200);
  const fileLines = await pollUntil(async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    const ls = text.split('\n').filter((l) => l !== '');
    return ls.length >= 3 ? ls : undefined;
  }, { timeoutMs: 15_000, intervalMs: 50, what: 'three file-log lines' });
  const fileEntries = fileLines.map((l) => JSON.parse(l) as Entry);
  assert.deepEqual(fileEntries.map((x) => x.request.uri).sort(), ['/file/0', '/file/1', '/file/2']);
  for (const x of fileEntries) assert.match(String(x.correlation_id), /^[0-9a-f-]{36}#\d+$/, 'correlation_id in the entry');

  // tcp-log and udp-log.
  for (let i = 0; i < 2; i++) assert.equal((await g.call(`/tcp/${i}`, { headers: { Host: 'tcp.test' } })).status, 200);
  for (let i = 0; i < 2; i++) assert.equal((await g.call(`/udp/${i}`, { headers: { Host: 'udp.test' } })).status, 200);
  await pollUntil(() => (lines.length >= 2 && datagrams.length >= 2 ? true : undefined), { timeoutMs: 15_000, intervalMs: 50, what: 'tcp lines and udp datagrams' });
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as Entry).request.uri).sort(), ['/tcp/0', '/tcp/1']);
  assert.deepEqual(datagrams.map((d) => (JSON.parse(d) as Entry).request.uri).sort(), ['/udp/0', '/udp/1']);
});

test('logging plugins: schema defaults and errors in Kong\'s words', () => {
  const parse = (plugin: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [${plugin}]\n`);
  const fields = (plugin: string): unknown => {
    try {
      parse(plugin);
    } catch (err) {
      if (err instanceof GatewayError) return (err.toBody().fields as { plugins: [unknown] }).plugins[0];
      throw err;
    }
    return undefined;
  };
  assert.deepEqual(parse('{ name: http-log, config: { http_endpoint: "http://l.test/" } }').plugins[0]?.config.queue, {
    max_batch_size: 1, max_coalescing_delay: 1, max_entries: 10000, max_bytes: null, max_retry_time: 60, initial_retry_delay: 0.01, max_retry_delay: 60, concurrency_limit: 1,
  });
  assert.deepEqual(fields('{ name: http-log, config: { http_endpoint: "http://l.test/", headers: { Host: x } } }'), { config: { headers: "cannot contain 'Host' header" } });
  assert.deepEqual(fields('{ name: http-log, config: { http_endpoint: "http://u:p@l.test/", headers: { Authorization: x } } }'),
    { config: { '@entity': ["specifying both an 'Authorization' header and user info in 'http_endpoint' is not allowed"] } });
  assert.deepEqual(fields('{ name: http-log, config: { http_endpoint: "http://l.test/", custom_fields_by_lua: { a: "return 1" } } }'),
    { config: { custom_fields_by_lua: 'custom_fields_by_lua is not supported by this gateway (it runs no Lua)' } });
  assert.deepEqual(fields('{ name: http-log, config: { http_endpoint: "http://l.test/", queue: { concurrency_limit: 2 } } }'), { config: { queue: { concurrency_limit: 'expected one of: -1, 1' } } });
  assert.deepEqual(fields('{ name: file-log, config: { path: "/tmp/a*b" } }'), { config: { path: 'not a valid filename' } });
  assert.deepEqual(fields('{ name: tcp-log, config: { host: 127.0.0.1 } }'), { config: { port: 'required field missing' } });
  assert.deepEqual(fields('{ name: udp-log, config: { port: 99999, host: h } }'), { config: { port: 'value should be between 0 and 65535' } });
});
