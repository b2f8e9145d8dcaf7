import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ListenerRefused } from '../../src/connect/listener-address-policy.ts';
import { buildPostToListener } from '../../src/connect/post-to-listener.ts';
import { startListener } from './connect-harness.ts';

const post = (url: string) => ({ url, body: '{"event":"envelope-sent"}', headers: { 'x-docusign-signature-1': 'c2ln' }, timeoutMs: 5_000 });

test('delivery-time SSRF: a loopback literal and a name resolving to loopback are refused before any byte is sent', async (t) => {
  const listener = await startListener(t, () => 200);
  const port = new URL(listener.url).port;
  const strictButHttp = buildPostToListener({ allowHttp: true, allowPrivate: false });
  await assert.rejects(strictButHttp(post(`${listener.url}/hook`)), (err: unknown) => err instanceof ListenerRefused && /127\.0\.0\.1 is loopback/.test(err.message));
  await assert.rejects(strictButHttp(post(`http://[::ffff:127.0.0.1]:${port}/hook`)), ListenerRefused);
  // "localhost" passes the URL rules (it is a name), but what it resolves to is checked at
  // connect time: the DNS-rebinding case, where a name that once looked public now points inside.
  await assert.rejects(strictButHttp(post(`http://localhost:${port}/hook`)), /The listener host is not a public address\./);
  // https is required unless allowed, whatever the address.
  await assert.rejects(buildPostToListener({ allowHttp: false, allowPrivate: true })(post(`${listener.url}/hook`)), /must use https/);
  assert.equal(listener.received.length, 0, 'nothing reached the listener');

  // With both allowances (the tests' and a developer's setting) the same POST goes through as sent.
  const open = buildPostToListener({ allowHttp: true, allowPrivate: true });
  assert.equal(await open(post(`http://localhost:${port}/hook`)), 200);
  assert.equal(listener.received.length, 1);
  assert.equal(listener.received[0]?.raw, '{"event":"envelope-sent"}');
  assert.equal(listener.received[0]?.headers['content-type'], 'application/json');
  assert.equal(listener.received[0]?.headers['x-docusign-signature-1'], 'c2ln');
});

test('a listener that does not answer in time fails the attempt (the worker retries it)', async (t) => {
  const { createServer } = await import('node:http');
  const { listenOnLoopback } = await import('@signet/kit/testing');
  // Accepts the request and never answers.
  const silent = createServer(() => {});
  const port = await listenOnLoopback(silent);
  t.after(async () => {
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  const open = buildPostToListener({ allowHttp: true, allowPrivate: true });
  await assert.rejects(open({ ...post(`http://127.0.0.1:${port}/hook`), timeoutMs: 150 }), /abort|timeout/i);
  // The worker's own signal (it is stopping) ends the POST long before the timeout.
  const stopping = new AbortController();
  const cut = open({ ...post(`http://127.0.0.1:${port}/hook`), timeoutMs: 600_000, signal: stopping.signal });
  stopping.abort(new Error('stopping'));
  await assert.rejects(cut, /stopping|abort/i);
});

test('a listener that answers 2xx then streams forever is cut off at its size cap; one that trickles is cut off by the timeout', async (t) => {
  const { createServer } = await import('node:http');
  const { listenOnLoopback } = await import('@signet/kit/testing');
  const timers = new Set<NodeJS.Timeout>();
  const endless = createServer((req, res) => {
    res.writeHead(req.url === '/trickle' ? 200 : 202);
    const timer = setInterval(() => res.write(req.url === '/trickle' ? 'x' : Buffer.alloc(16_384)), req.url === '/trickle' ? 20 : 1);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  });
  const port = await listenOnLoopback(endless);
  t.after(async () => {
    for (const timer of timers) clearInterval(timer);
    endless.closeAllConnections();
    await new Promise<void>((resolve) => endless.close(() => resolve()));
  });
  const open = buildPostToListener({ allowHttp: true, allowPrivate: true });
  // The status is what counts; reading stops after 64 KiB of answer.
  assert.equal(await open({ ...post(`http://127.0.0.1:${port}/flood`), timeoutMs: 10_000 }), 202);
  await assert.rejects(open({ ...post(`http://127.0.0.1:${port}/trickle`), timeoutMs: 200 }), /abort|timeout/i);
});
