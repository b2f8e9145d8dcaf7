// Request bodies a plugin reads whole (key-auth's key_in_body here) are bounded per process and,
// within that, per client connection: one HTTP/2 connection with eight streams that each send
// 8 MiB - 1 and never finish used to take the whole 64 MiB, and every body-reading request from
// anyone got 503 for as long as the attacker kept the connection, since HTTP/2 streams had no
// deadline. A connection now holds one whole body's worth at most, and a stream whose request
// has not fully arrived within the HTTP/1.1 leg's request timeout is reset, its bytes given back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { constants, type ClientHttp2Stream } from 'node:http2';
import { pollUntil } from '@signet/kit';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { h2request, startHttp2Gateway } from './http2-gateway.fixture.ts';
import { BODY_BUDGET } from '../../src/proxy/create-proxy-handler.ts';

const MiB = 1024 * 1024;

const yml = (port: number): string => `_format_version: "3.0"
consumers: [{ username: alice, keyauth_credentials: [{ key: alice-key }] }]
services:
  - name: s
    url: http://127.0.0.1:${port}
    routes: [{ name: r, paths: [/], plugins: [{ name: key-auth, config: { key_in_body: true } }] }]
`;

/** A stream that sends `bytes` of a JSON body without a key and never ends it; resolves once they are sent. */
function stalledUpload(stream: ClientHttp2Stream, bytes: number): Promise<void> {
  stream.on('error', () => undefined);
  const body = Buffer.alloc(bytes, 0x20);
  body[0] = 0x7b;
  return new Promise((resolve) => stream.write(body, () => resolve()));
}

test('one HTTP/2 connection cannot take the process\'s body budget: its streams past one body\'s worth are refused, others are served', async (t) => {
  const up = await startUpstream(t, (req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const h2 = await startHttp2Gateway(t, yml(up.port));
  const attacker = h2.session();
  const uploads: Promise<void>[] = [];
  for (let i = 0; i < 8; i++) uploads.push(stalledUpload(attacker.request({ ':method': 'POST', ':path': '/', 'content-type': 'application/json' }), 8 * MiB - 1));
  await Promise.all(uploads);

  // Another client's body (larger than what the attacker may still have in flight) is read and forwarded.
  const s = h2.session();
  const pad = 'x'.repeat(MiB);
  const res = await h2request(s, { ':method': 'POST', ':path': '/', 'content-type': 'application/json' }, JSON.stringify({ apikey: 'alice-key', pad }));
  assert.equal(res.headers[':status'], 200, res.body.toString());
  assert.ok(BODY_BUDGET.held <= 8 * MiB + MiB + 100, `held ${BODY_BUDGET.held}`);
  attacker.destroy();
  await pollUntil(() => BODY_BUDGET.held === 0, { what: 'the budget given back' });
});

test('an HTTP/2 stream whose body stalls past the request timeout is reset, and its bytes are given back', async (t) => {
  const up = await startUpstream(t);
  const h2 = await startHttp2Gateway(t, yml(up.port), { requestTimeoutMs: 300 });
  const s = h2.session();
  const stream = s.request({ ':method': 'POST', ':path': '/', 'content-type': 'application/json' });
  let closed = false;
  stream.on('close', () => (closed = true));
  await stalledUpload(stream, MiB);
  await pollUntil(() => closed, { timeoutMs: 20_000, what: 'the stalled stream reset' });
  assert.notEqual(stream.rstCode, constants.NGHTTP2_NO_ERROR);
  await pollUntil(() => BODY_BUDGET.held === 0, { what: 'the budget given back' });
  assert.equal(s.destroyed, false, 'only the stream is reset, not the connection');
  assert.equal(up.hits, 0);
});
