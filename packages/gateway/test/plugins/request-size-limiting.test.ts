// request-size-limiting against a real two-worker gateway: the case table of Kong's
// spec/03-plugins/12-request-size-limiting/01-access_spec.lua (Content-Length and chunked bodies,
// each size unit, Expect: 100-continue, require_content_length), then what streaming adds here:
// a chunked body reaches the upstream as it comes and is cut off, unbuffered, at the bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { pollUntil } from '@signet/kit';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';

const TEST_SIZE = 2;
const MB = 2 ** 20;
const KB = 2 ** 10;
const UNITS = { megabytes: MB, kilobytes: KB, bytes: 1 } as const;

const route = (host: string, config: string): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: request-size-limiting, config: ${config} }]`;
const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: sink
    url: ${upstream}
    routes:${route('limit.test', `{ allowed_payload_size: ${TEST_SIZE} }`)}${route('required.test', `{ allowed_payload_size: ${TEST_SIZE}, require_content_length: true }`)}${Object.keys(UNITS).map((u) => route(`limit_${u}.test`, `{ allowed_payload_size: ${TEST_SIZE}, size_unit: ${u} }`)).join('')}
`;

/** A response read off a raw socket: 1xx interim responses skipped, the final one parsed. */
type RawResponse = { status: number; headers: Record<string, string>; body: string; interim: number[] };

function parseResponses(bytes: Buffer): RawResponse {
  let text = bytes.toString('latin1');
  const interim: number[] = [];
  for (;;) {
    const end = text.indexOf('\r\n\r\n');
    assert.notEqual(end, -1, `a complete response head in ${JSON.stringify(text.slice(0, 200))}`);
    const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    text = text.slice(end + 4);
    if (status < 200) {
      interim.push(status);
      continue;
    }
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = headers['content-length'] === undefined ? text.length : Number(headers['content-length']);
    return { status, headers, body: text.slice(0, length), interim };
  }
}

/** Opens a connection, writes the head; `done` resolves with every byte read until the gateway closes it. */
function openRaw(proxy: string, head: string): { socket: Socket; done: Promise<Buffer> } {
  const url = new URL(proxy);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  const parts: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('end', () => resolve(Buffer.concat(parts)));
    socket.on('error', reject);
  });
  socket.write(head);
  return { socket, done };
}

/** One request on its own connection (Connection: close), the body given whole. */
async function raw(proxy: string, host: string, headers: Record<string, string>, body: string, method = 'POST'): Promise<RawResponse> {
  const lines = Object.entries({ Host: host, Connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const { socket, done } = openRaw(proxy, `${method} /request HTTP/1.1\r\n${lines}\r\n`);
  // Not end(): node's server aborts a request whose client half-closes (no httpAllowHalfOpen).
  socket.write(body);
  const res = parseResponses(await done);
  socket.destroy();
  return res;
}

const chunked = (n: number): string => `${n.toString(16)}\r\n${'a'.repeat(n)}\r\n0\r\n\r\n`;

type SizeCase = { title: string; host: string; size: number; framing: 'content-length' | 'chunked'; expect?: boolean; status: number };

// Kong's spec, row for row (its chunked cases send GET, as lua-resty-http would add a
// Content-Length to a POST; here the raw request says exactly what is sent).
const CASES: SizeCase[] = [
  { title: 'works if size is lower than limit', host: 'limit.test', size: TEST_SIZE * MB, framing: 'content-length', status: 200 },
  { title: 'works if size is lower than limit and Expect header', host: 'limit.test', size: TEST_SIZE * MB, framing: 'content-length', expect: true, status: 200 },
  { title: 'blocks if size is greater than limit', host: 'limit.test', size: TEST_SIZE * MB + 1, framing: 'content-length', status: 413 },
  { title: 'blocks if size is greater than limit and Expect header', host: 'limit.test', size: TEST_SIZE * MB + 1, framing: 'content-length', expect: true, status: 417 },
  ...Object.entries(UNITS).flatMap(([unit, factor]): SizeCase[] => [
    { title: `blocks if size is greater than limit when unit in ${unit}`, host: `limit_${unit}.test`, size: TEST_SIZE * factor + 1, framing: 'content-length', status: 413 },
    { title: `works if size is less than limit when unit in ${unit}`, host: `limit_${unit}.test`, size: TEST_SIZE * factor - 1, framing: 'content-length', status: 200 },
  ]),
  { title: 'chunked: works if size is lower than limit', host: 'limit.test', size: TEST_SIZE * MB, framing: 'chunked', status: 200 },
  { title: 'chunked: works if size is lower than limit and Expect header', host: 'limit.test', size: TEST_SIZE * MB, framing: 'chunked', expect: true, status: 200 },
  { title: 'chunked: blocks if size is greater than limit', host: 'limit.test', size: TEST_SIZE * MB + 1, framing: 'chunked', status: 413 },
  { title: 'chunked: blocks if size is greater than limit and Expect header', host: 'limit.test', size: TEST_SIZE * MB + 1, framing: 'chunked', expect: true, status: 417 },
  { title: 'chunked, small body: works if size is lower than limit', host: 'limit_kilobytes.test', size: TEST_SIZE * KB, framing: 'chunked', status: 200 },
  { title: 'chunked, small body: works with Expect header', host: 'limit_kilobytes.test', size: TEST_SIZE * KB, framing: 'chunked', expect: true, status: 200 },
  { title: 'chunked, small body: blocks if size is greater than limit', host: 'limit_kilobytes.test', size: TEST_SIZE * KB + 1, framing: 'chunked', status: 413 },
  { title: 'chunked, small body: blocks with Expect header', host: 'limit_kilobytes.test', size: TEST_SIZE * KB + 1, framing: 'chunked', expect: true, status: 417 },
  ...Object.entries(UNITS).flatMap(([unit, factor]): SizeCase[] => [
    { title: `chunked: blocks if size is greater than limit when unit in ${unit}`, host: `limit_${unit}.test`, size: TEST_SIZE * factor + 1, framing: 'chunked', status: 413 },
    { title: `chunked: works if size is less than limit when unit in ${unit}`, host: `limit_${unit}.test`, size: TEST_SIZE * factor, framing: 'chunked', status: 200 },
  ]),
  { title: 'require_content_length: a chunked body is still accepted', host: 'required.test', size: 10, framing: 'chunked', status: 200 },
  { title: 'require_content_length: a body with its length passes', host: 'required.test', size: 10, framing: 'content-length', status: 200 },
];

test('request-size-limiting: Kong\'s access spec cases, and streamed bodies cut off at the bound', async (t) => {
  // The upstream reads each body whole and says how much it got; `partial` follows a body in flight.
  const progress = { bytes: 0, completed: 0, aborted: 0, latest: 0 };
  const upstream = await startUpstream(t, (req, res) => {
    if (req.url === '/early') {
      // Answers before reading the body, and keeps the response open.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      req.resume();
      return;
    }
    // Each request counts its own bytes: the cut-off body of the case before may still be
    // arriving on its own connection when the next case's request starts (it once added 1.6 MB
    // to a shared count). `progress.bytes` follows the latest request only, for the streaming case.
    const mine = ++progress.latest;
    let bytes = 0;
    progress.bytes = 0;
    req.on('data', (d: Buffer) => {
      bytes += d.length;
      if (progress.latest === mine) progress.bytes = bytes;
    });
    req.on('end', () => {
      progress.completed++;
      const body = JSON.stringify({ bytes });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    req.on('aborted', () => progress.aborted++);
  });
  const g = await startGatewayProcess(t, yml(`http://127.0.0.1:${upstream.port}`), { workers: 2 });

  for (const c of CASES) {
    const headers: Record<string, string> = c.framing === 'chunked' ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(c.size) };
    if (c.expect) headers.Expect = '100-continue';
    // A refused body is sent only as far as the gateway reads it (the head for a Content-Length,
    // the chunk's data without its end for a chunked one): the gateway answers without waiting for
    // the rest, and closes the connection, so nothing is left unread to reset it.
    const body = c.framing === 'chunked' ? chunked(c.size) : 'a'.repeat(c.size);
    const sent = c.status === 200 ? body : c.framing === 'chunked' ? body.slice(0, body.length - '\r\n0\r\n\r\n'.length) : '';
    const res = await raw(g.proxy, c.host, headers, sent);
    assert.equal(res.status, c.status, `${c.title}: status (${res.body.slice(0, 200)})`);
    // 100 Continue only once the gateway reads the body: a Content-Length refused from the head gets none.
    if (c.expect) assert.deepEqual(res.interim, c.framing === 'content-length' && c.status !== 200 ? [] : [100], `${c.title}: interim responses`);
    else assert.deepEqual(res.interim, [], `${c.title}: no 100 unasked`);
    if (c.status === 200) {
      assert.deepEqual(JSON.parse(res.body), { bytes: c.size }, `${c.title}: the upstream got the whole body`);
    } else {
      const body = JSON.parse(res.body) as { message: string; request_id: string };
      assert.equal(body.message, 'Request size limit exceeded', `${c.title}: message`);
      assert.equal(body.request_id, res.headers['x-kong-request-id'], `${c.title}: Kong's error format`);
    }
  }

  await t.test('require_content_length: no Content-Length and no chunked body is 411', async () => {
    const res = await raw(g.proxy, 'required.test', {}, '', 'GET');
    assert.equal(res.status, 411);
    assert.equal((JSON.parse(res.body) as { message: string }).message, 'A valid Content-Length header is required');
  });

  await t.test('a Content-Length over the limit never reaches the upstream', async () => {
    const before = upstream.hits;
    const res = await raw(g.proxy, 'limit_bytes.test', { 'Content-Length': '3' }, 'abc');
    assert.equal(res.status, 413);
    assert.equal(upstream.hits, before);
  });

  await t.test('a chunked body streams to the upstream unbuffered and is refused once it crosses the bound', async () => {
    const completedBefore = progress.completed;
    const abortedBefore = progress.aborted;
    const { socket, done } = openRaw(g.proxy, 'POST /request HTTP/1.1\r\nHost: limit_kilobytes.test\r\nTransfer-Encoding: chunked\r\n\r\n');
    // The first KiB reaches the upstream while the client is still sending: nothing is held back.
    socket.write(`400\r\n${'a'.repeat(1024)}\r\n`);
    await pollUntil(() => (progress.bytes === 1024 ? true : undefined), { timeoutMs: 10_000, intervalMs: 10, what: 'the upstream to get the first KiB' });
    // The next chunk crosses 2 KiB: the gateway answers at once, without the body's end.
    socket.write(`401\r\n${'b'.repeat(1025)}\r\n`);
    const res = parseResponses(await done);
    assert.equal(res.status, 413);
    assert.equal(res.headers.connection, 'close', 'the rest of the body is never read: the connection closes');
    assert.equal((JSON.parse(res.body) as { message: string }).message, 'Request size limit exceeded');
    socket.destroy();
    await pollUntil(() => (progress.aborted > abortedBefore ? true : undefined), { timeoutMs: 10_000, intervalMs: 10, what: 'the upstream request to be cut off' });
    assert.equal(progress.completed, completedBefore, 'the upstream never got a complete request');
    assert.equal(progress.bytes, 1024, 'the chunk that crossed the bound was not forwarded');
  });

  await t.test('crossing the bound after the upstream has begun its response cuts that response off', async () => {
    const { socket, done } = openRaw(g.proxy, 'POST /early HTTP/1.1\r\nHost: limit_kilobytes.test\r\nTransfer-Encoding: chunked\r\n\r\n');
    let seen = '';
    socket.on('data', (d: Buffer) => (seen += d.toString('latin1')));
    socket.write(`400\r\n${'a'.repeat(1024)}\r\n`);
    await pollUntil(() => (seen.includes('partial') ? true : undefined), { timeoutMs: 10_000, intervalMs: 10, what: 'the upstream\'s response to begin' });
    socket.write(`401\r\n${'b'.repeat(1025)}\r\n`);
    const text = (await done).toString('latin1');
    assert.match(text, /^HTTP\/1\.1 200 /, 'the status the client already had stays');
    assert.ok(!text.endsWith('0\r\n\r\n'), 'the response is cut off: its last chunk never comes');
    socket.destroy();
  });
});

test('request-size-limiting: schema defaults and errors in Kong\'s words', () => {
  const parse = (config: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: request-size-limiting, config: ${config} }]\n`);
  assert.deepEqual(parse('{}').plugins[0]!.config, { allowed_payload_size: 128, size_unit: 'megabytes', require_content_length: false });
  const fields = (config: string): unknown => {
    try {
      parse(config);
    } catch (e) {
      if (e instanceof GatewayError) return (e.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw e;
    }
    return assert.fail(`expected ${config} to be refused`);
  };
  assert.deepEqual(fields('{ size_unit: gigabytes }'), { size_unit: 'expected one of: megabytes, kilobytes, bytes' });
  assert.deepEqual(fields('{ allowed_payload_size: 1.5 }'), { allowed_payload_size: 'expected an integer' });
  assert.deepEqual(fields('{ require_content_length: null }'), { require_content_length: 'required field missing' });
});
