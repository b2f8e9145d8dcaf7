import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { listenOnLoopback } from '@signet/kit/testing';
import { RequestDrain } from './request-drain.ts';

test('the drain waits for in-flight requests and for the traffic to stop; health probes do not count', async (t) => {
  let now = 0;
  const drain = new RequestDrain({ quietMs: 1000, maxMs: 10_000, now: () => now, checkEveryMs: 5 });
  const held: (() => void)[] = [];
  const server = createServer((req, res) => {
    if (req.url === '/slow') held.push(() => res.end('done'));
    else res.end('ok');
  });
  drain.track(server);
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const get = (path: string) => new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    }).on('error', reject).end();
  });

  const slow = get('/slow');
  while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(drain.inFlight, 1);
  let finished = false;
  const drained = drain.drain().then((r) => {
    finished = true;
    return r;
  });
  assert.equal(drain.draining, true);
  now = 400;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(finished, false, 'a request is still in flight');
  now = 500;
  held[0]!();
  assert.equal(await slow, 'done');
  // A health probe keeps coming (the balancer's checker): it does not hold the drain open.
  now = 600;
  await get('/health');
  // Traffic that still arrives after the drain began restarts the quiet period.
  now = 900;
  await get('/late');
  now = 1_800;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(finished, false, 'quiet for 900 ms only');
  now = 1_900;
  const result = await drained;
  assert.deepEqual(result, { waitedMs: 1_900, inFlight: 0 });
});

test('the drain gives up after maxMs whatever is still in flight', async () => {
  let now = 0;
  const drain = new RequestDrain({ quietMs: 1000, maxMs: 3000, now: () => now, checkEveryMs: 5 });
  const server = createServer(() => {});
  drain.track(server);
  server.emit('request', { url: '/hanging' }, { once: () => {} });
  const drained = drain.drain();
  now = 3000;
  assert.deepEqual(await drained, { waitedMs: 3000, inFlight: 1 });
});

test('a request in flight holds the drain past the quiet period until it ends', async () => {
  let now = 0;
  const drain = new RequestDrain({ quietMs: 1000, maxMs: 60_000, now: () => now, checkEveryMs: 5 });
  const server = createServer(() => {});
  drain.track(server);
  let end = () => {};
  server.emit('request', { url: '/upload' }, { once: (_event: string, fn: () => void) => (end = fn) });
  let finished = false;
  const drained = drain.drain().then((r) => {
    finished = true;
    return r;
  });
  now = 20_000;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(finished, false);
  end();
  assert.deepEqual(await drained, { waitedMs: 20_000, inFlight: 0 });
});
