// response-transformer holds a JSON body whole to edit it. Each is bounded (8 MiB) and so is
// their sum in one process: past it the response is Kong's 503, not a body that silently
// skipped its configured edits. A held body stays charged until the client has it all, and a
// client that takes nothing for send_timeout (an HTTP/2 stream with a zero window) is cut, which
// gives its bytes back. Before, 120 zero-window streams grew the process by over 1 GB.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { constants } from 'node:http2';
import { pollUntil } from '@signet/kit';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { h2request, startHttp2Gateway } from '../http2/http2-gateway.fixture.ts';
import { TRANSFORMED_BODY_BUDGET } from '../../src/plugins/response-transformer/handler.ts';

const MiB = 1024 * 1024;
// Just under the 8 MiB a single transformed body may be: eight of them nearly fill the budget.
const BIG = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.floor(7.9 * MiB)) }));
// Past what one transformed body may be.
const HUGE = Buffer.from(JSON.stringify({ secret: 'hunter2', pad: 'x'.repeat(Math.floor(8.5 * MiB)) }));

const yml = (port: number): string => `_format_version: "3.0"
services:
  - name: json
    url: http://127.0.0.1:${port}
    routes:
      - name: rt
        paths: [/]
        plugins: [{ name: response-transformer, config: { add: { json: ["x:1"] } } }]
`;

async function jsonUpstream(t: Parameters<typeof startUpstream>[0]): Promise<number> {
  const up = await startUpstream(t, (req, res) => {
    const body = req.url === '/small' ? Buffer.from('{"a":1}') : req.url === '/huge' ? HUGE : BIG;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  return up.port;
}

test('transformed bodies are bounded together: past the process budget a response is Kong\'s 503; the bytes come back when the client goes', async (t) => {
  const h2 = await startHttp2Gateway(t, yml(await jsonUpstream(t)));
  // A client that never lets the gateway send body bytes (SETTINGS_INITIAL_WINDOW_SIZE 0).
  const stalled = h2.session({ initialWindowSize: 0 });
  const heads: number[] = [];
  for (let i = 0; i < 8; i++) {
    const req = stalled.request({ ':path': '/big' });
    req.on('response', (h) => heads.push(Number(h[':status'])));
    req.on('error', () => undefined);
  }
  // Each body was transformed whole (its head goes out with it) and now waits for the client.
  await pollUntil(() => heads.length === 8, { timeoutMs: 60_000, what: 'eight transformed heads' });
  assert.deepEqual(heads, Array(8).fill(200));
  assert.ok(TRANSFORMED_BODY_BUDGET.held > 60 * MiB, `held ${TRANSFORMED_BODY_BUDGET.held}`);

  // A ninth would pass the budget: refused whole, in Kong's error shape, before any head went out.
  const reader = h2.session();
  const ninth = await h2request(reader, { ':path': '/big', accept: 'application/json' });
  assert.equal(ninth.headers[':status'], 503);
  assert.equal(ninth.headers['retry-after'], '1');
  // The route's plugins run on the gateway's own answers as Kong's do on kong.response.exit: a
  // body this small fits what is left of the budget, so it is edited too.
  assert.deepEqual(JSON.parse(ninth.body.toString()), {
    message: 'The gateway is holding too many response bodies; retry later',
    request_id: ninth.headers['x-kong-request-id'],
    x: '1',
  });
  // A small body still fits.
  const small = await h2request(reader, { ':path': '/small' });
  assert.deepEqual(JSON.parse(small.body.toString()), { a: 1, x: '1' });

  // The stalled client leaves: everything it held is free again.
  stalled.destroy();
  await pollUntil(() => TRANSFORMED_BODY_BUDGET.held === 0, { what: 'the budget given back' });
  const after = await h2request(reader, { ':path': '/big' });
  assert.equal(after.headers[':status'], 200);
  assert.equal((JSON.parse(after.body.toString()) as { x: string }).x, '1');
});

test('a client that takes nothing for send_timeout has its stream cut, and its transformed body is given back', async (t) => {
  const h2 = await startHttp2Gateway(t, yml(await jsonUpstream(t)), { sendTimeoutMs: 200 });
  const stalled = h2.session({ initialWindowSize: 0 });
  const req = stalled.request({ ':path': '/big' });
  let status = 0;
  let closed = false;
  req.on('response', (h) => (status = Number(h[':status'])));
  req.on('error', () => undefined);
  req.on('close', () => (closed = true));
  await pollUntil(() => closed, { timeoutMs: 20_000, what: 'the stalled stream cut' });
  assert.equal(status, 200);
  assert.notEqual(req.rstCode, constants.NGHTTP2_NO_ERROR);
  await pollUntil(() => TRANSFORMED_BODY_BUDGET.held === 0, { what: 'the budget given back' });
  assert.equal(stalled.destroyed, false, 'only the stream is cut, not the connection');
});

test('a JSON object bigger than a transform may hold is a 502, never sent without its edits (a removed field must not leak on a large response); a JSON array streams through', async (t) => {
  // Before, past 8 MiB the body went out as it came: `remove: json: [secret]` leaked the secret.
  const array = Buffer.from(` \n${JSON.stringify(['x'.repeat(Math.floor(8.5 * MiB))])}`);
  let upstreamHits = 0;
  const up = await startUpstream(t, (req, res) => {
    upstreamHits += 1;
    const body = req.url === '/array' ? array : HUGE;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  const h2 = await startHttp2Gateway(t, `_format_version: "3.0"
services:
  - name: json
    url: http://127.0.0.1:${up.port}
    routes:
      - name: rt
        paths: [/]
        plugins: [{ name: response-transformer, config: { remove: { json: ["secret"] } } }]
      - name: cached
        paths: [/cached]
        plugins:
          - { name: response-transformer, config: { remove: { json: ["secret"] } } }
          - { name: proxy-cache, config: { strategy: memory, content_type: [application/json] } }
`);
  // With proxy-cache on the route, the 502 is not stored under the upstream's 200 head: the next
  // request goes to the upstream again and is a 502 again, never a cached 200 holding the error.
  for (let i = 1; i <= 2; i++) {
    const cached = await h2request(h2.session(), { ':path': '/cached/huge', accept: 'application/json' });
    assert.equal(cached.headers[':status'], 502, `request ${i}`);
    assert.equal(cached.headers['x-cache-status'], 'Bypass', `request ${i}`);
    assert.equal(upstreamHits, i);
  }
  const res = await h2request(h2.session(), { ':path': '/huge', accept: 'application/json' });
  assert.equal(res.headers[':status'], 502);
  assert.deepEqual(JSON.parse(res.body.toString()), { message: 'An invalid response was received from the upstream server', request_id: res.headers['x-kong-request-id'] });
  assert.doesNotMatch(res.body.toString(), /hunter2/);
  // A body that is no JSON object is never edited (only objects are): it streams through whole, at any size.
  const passed = await h2request(h2.session(), { ':path': '/array' });
  assert.equal(passed.headers[':status'], 200);
  assert.ok(passed.body.equals(array), 'the array as the upstream sent it');
  await pollUntil(() => TRANSFORMED_BODY_BUDGET.held === 0, { what: 'the budget given back' });
});
