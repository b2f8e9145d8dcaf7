import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import type { ClaimedDelivery } from '../store/connect-repository.ts';
import type { ConnectMessage } from '../domain/connect/connect-message.ts';
import { ConnectDeliveryWorker, type ConnectDeliveryQueue } from './connect-delivery-worker.ts';
import type { ListenerPost } from './post-to-listener.ts';

const MESSAGE: ConnectMessage = { event: 'envelope-sent', apiVersion: 'v2.1', uri: '/u', configurationId: 0, generatedDateTime: 'g', data: { accountId: 'a1', userId: 'u1', envelopeId: 'e1' } };
const NOW = new Date('2026-11-21T12:00:00.000Z');

function delivery(id: string, url: string, extra: Partial<ClaimedDelivery> = {}): ClaimedDelivery {
  return { id, accountId: 'a1', url, includeHMAC: false, includeDocuments: false, attempts: 1, attemptsSinceRepublish: 1, message: MESSAGE, ...extra };
}

/** A queue that hands out `items` once and records what the worker said about each. */
function queueOf(items: ClaimedDelivery[]) {
  const log: string[] = [];
  let claimed = false;
  const queue: ConnectDeliveryQueue = {
    claim: () => Promise.resolve(claimed ? [] : ((claimed = true), items)),
    markDelivered: (id) => Promise.resolve(void log.push(`delivered ${id}`)),
    markFailed: (id, _w, error, retryAt) => Promise.resolve(void log.push(`failed ${id} ${retryAt ? `retry at ${retryAt.toISOString()}` : 'for good'}: ${error}`)),
    release: (id, _w, dueAt) => Promise.resolve(void log.push(`released ${id}${dueAt ? ` until ${dueAt.toISOString()}` : ''}`)),
    purgeFinished: () => Promise.resolve(0),
  };
  return { queue, log };
}

test('worker: 2xx delivered; other statuses and errors retried with backoff from the injected clock, failed after the last attempt', async () => {
  const { queue, log } = queueOf([
    delivery('ok', 'https://ok.example/'),
    delivery('500', 'https://500.example/'),
    delivery('down', 'https://down.example/', { attempts: 3, attemptsSinceRepublish: 3 }),
    delivery('redirect', 'https://redirect.example/'),
  ]);
  const status: Record<string, number> = { 'https://ok.example/': 204, 'https://500.example/': 500, 'https://redirect.example/': 302 };
  const worker = new ConnectDeliveryWorker({
    queue, workerId: 'w', clock: () => NOW, random: () => 0, retry: { baseMs: 1_000, maxMs: 60_000, maxAttempts: 3 },
    hmacSecrets: () => Promise.resolve([]),
    post: (p) => (status[p.url] !== undefined ? Promise.resolve(status[p.url] ?? 0) : Promise.reject(new Error('connect ECONNREFUSED'))),
  });
  assert.deepEqual(await worker.runOnce(), { claimed: 4, delivered: 1, retried: 2, failed: 1 });
  assert.deepEqual([...log].sort(), [
    'delivered ok',
    'failed 500 retry at 2026-11-21T12:00:00.500Z: The listener answered HTTP 500.',
    'failed down for good: connect ECONNREFUSED',
    'failed redirect retry at 2026-11-21T12:00:00.500Z: The listener answered HTTP 302.',
  ].sort());
});

test('worker: the body carries retryCount = attempts before this one, signed with every key given', async () => {
  const { queue } = queueOf([delivery('d', 'https://h.example/', { includeHMAC: true, attempts: 3 })]);
  const posts: ListenerPost[] = [];
  const worker = new ConnectDeliveryWorker({ queue, workerId: 'w', hmacSecrets: () => Promise.resolve(['k1', 'k2']), post: (p) => Promise.resolve(void posts.push(p)).then(() => 200) });
  await worker.runOnce();
  const sent = posts[0];
  assert.ok(sent);
  assert.equal((JSON.parse(sent.body) as { retryCount: number }).retryCount, 2);
  assert.deepEqual(sent.headers, {
    'x-authorization-digest': 'HMACSHA256',
    'x-docusign-accountid': 'a1',
    'x-docusign-signature-1': createHmac('sha256', 'k1').update(sent.body).digest('base64'),
    'x-docusign-signature-2': createHmac('sha256', 'k2').update(sent.body).digest('base64'),
  });
  assert.equal(sent.timeoutMs, 10_000);
});

test('worker: a silent listener does not hold up another; one listener still gets its messages in order', async () => {
  const { queue, log } = queueOf([delivery('slow-1', 'https://slow.example/'), delivery('slow-2', 'https://slow.example/'), delivery('fast-1', 'https://fast.example/'), delivery('fast-2', 'https://fast.example/')]);
  let release: (status: number) => void = () => {};
  const slowAnswer = new Promise<number>((resolve) => (release = resolve));
  const order: string[] = [];
  const worker = new ConnectDeliveryWorker({
    queue, workerId: 'w', hmacSecrets: () => Promise.resolve([]),
    post: (p) => {
      order.push(p.url);
      return p.url === 'https://slow.example/' ? slowAnswer : Promise.resolve(200);
    },
  });
  const pass = worker.runOnce();
  // Both fast messages are delivered while the slow listener has not answered its first one.
  await pollUntil(() => log.length >= 2 || undefined, { timeoutMs: 2_000, intervalMs: 1, what: 'the fast listener\'s two deliveries' });
  assert.deepEqual(log, ['delivered fast-1', 'delivered fast-2']);
  assert.deepEqual(order.filter((u) => u === 'https://slow.example/').length, 1, 'the second slow message waits for the first');
  release(200);
  assert.deepEqual(await pass, { claimed: 4, delivered: 4, retried: 0, failed: 0 });
  assert.deepEqual(log.slice(2), ['delivered slow-1', 'delivered slow-2']);
});

test('worker: finished deliveries older than the retention are purged, at most once an hour', async () => {
  let now = NOW.getTime();
  const purges: string[] = [];
  const queue: ConnectDeliveryQueue = {
    claim: () => Promise.resolve([]),
    markDelivered: () => Promise.resolve(),
    markFailed: () => Promise.resolve(),
    release: () => Promise.resolve(),
    purgeFinished: (before) => Promise.resolve(purges.push(before.toISOString())),
  };
  const worker = new ConnectDeliveryWorker({ queue, workerId: 'w', clock: () => new Date(now), retentionMs: 86_400_000, hmacSecrets: () => Promise.resolve([]), post: () => Promise.resolve(200) });
  await worker.runOnce();
  now += 3_599_000;
  await worker.runOnce();
  now += 1_000;
  await worker.runOnce();
  assert.deepEqual(purges, ['2026-11-20T12:00:00.000Z', '2026-11-20T13:00:00.000Z']);
});

test('worker: stop() cuts a silent listener short and hands its claimed deliveries back at once (no wait for timeouts or the lease)', async (t) => {
  const { queue, log } = queueOf([delivery('silent-1', 'https://silent.example/'), delivery('silent-2', 'https://silent.example/'), delivery('fast', 'https://fast.example/')]);
  const posts: ListenerPost[] = [];
  const worker = new ConnectDeliveryWorker({
    queue, workerId: 'w', hmacSecrets: () => Promise.resolve([]), timeoutMs: 600_000,
    // The silent listener never answers; only the worker's own abort ends its POST.
    post: (p) => {
      posts.push(p);
      if (p.url !== 'https://silent.example/') return Promise.resolve(200);
      return new Promise<number>((_resolve, reject) => p.signal?.addEventListener('abort', () => reject(p.signal?.reason as Error)));
    },
  });
  worker.start();
  // Stopped even when an assertion fails first (stop() again is harmless).
  t.after(() => worker.stop());
  await pollUntil(() => (posts.some((p) => p.url === 'https://silent.example/') && log.includes('delivered fast')) || undefined, { timeoutMs: 2_000, intervalMs: 1, what: 'the first silent POST under way' });
  let deadline: NodeJS.Timeout | undefined;
  await Promise.race([
    worker.stop(),
    new Promise((_resolve, reject) => (deadline = setTimeout(() => reject(new Error('stop() waited for the silent listener')), 2_000))),
  ]).finally(() => clearTimeout(deadline));
  // The one in flight and the one not yet tried are both released (their attempt not counted), not failed.
  assert.deepEqual([...log].sort(), ['delivered fast', 'released silent-1', 'released silent-2']);
  assert.equal(posts.filter((p) => p.url === 'https://silent.example/').length, 1);
});

test('worker: a listener that cannot be reached costs one attempt per batch; its later messages wait for that retry, in order', async () => {
  const { queue, log } = queueOf([
    delivery('dead-1', 'https://dead.example/'), delivery('dead-2', 'https://dead.example/'), delivery('dead-3', 'https://dead.example/'),
    delivery('refusing-1', 'https://refusing.example/'), delivery('refusing-2', 'https://refusing.example/'),
  ]);
  const posts: string[] = [];
  const worker = new ConnectDeliveryWorker({
    queue, workerId: 'w', clock: () => NOW, random: () => 0, retry: { baseMs: 1_000, maxMs: 60_000, maxAttempts: 3 }, hmacSecrets: () => Promise.resolve([]),
    // dead.example times out (no answer at all); refusing.example answers, with a 500.
    post: (p) => {
      posts.push(p.url);
      return p.url === 'https://dead.example/' ? Promise.reject(new Error('The operation was aborted due to timeout')) : Promise.resolve(500);
    },
  });
  assert.deepEqual(await worker.runOnce(), { claimed: 5, delivered: 0, retried: 3, failed: 0 });
  // One timeout, not three in a row (each up to timeoutMs); an answering listener still gets each message.
  assert.deepEqual(posts.filter((u) => u === 'https://dead.example/').length, 1);
  assert.deepEqual(posts.filter((u) => u === 'https://refusing.example/').length, 2);
  assert.deepEqual(log.filter((l) => l.includes('dead')), [
    'failed dead-1 retry at 2026-11-21T12:00:00.500Z: The operation was aborted due to timeout',
    'released dead-2 until 2026-11-21T12:00:00.500Z',
    'released dead-3 until 2026-11-21T12:00:00.500Z',
  ]);
});

test('worker: the loop does not wait for a silent listener; a message for another listener that comes due meanwhile goes out at once', async (t) => {
  // An in-memory outbox: due items are claimed (none of the URLs the worker says it is serving), then settled.
  const pending: ClaimedDelivery[] = [delivery('silent-1', 'https://silent.example/'), delivery('fast-1', 'https://fast.example/')];
  const log: string[] = [];
  const claims: (readonly string[])[] = [];
  const queue: ConnectDeliveryQueue = {
    claim: ({ exceptUrls = [], limit }) => {
      claims.push(exceptUrls);
      const picked = pending.filter((d) => !exceptUrls.includes(d.url)).slice(0, limit);
      for (const d of picked) pending.splice(pending.indexOf(d), 1);
      return Promise.resolve(picked);
    },
    markDelivered: (id) => Promise.resolve(void log.push(`delivered ${id}`)),
    markFailed: (id) => Promise.resolve(void log.push(`failed ${id}`)),
    release: (id) => Promise.resolve(void log.push(`released ${id}`)),
    purgeFinished: () => Promise.resolve(0),
  };
  let answerSilent: (status: number) => void = () => {};
  const silentAnswer = new Promise<number>((resolve) => (answerSilent = resolve));
  const worker = new ConnectDeliveryWorker({
    queue, workerId: 'w', hmacSecrets: () => Promise.resolve([]), pollIntervalMs: 60_000,
    post: (p) => (p.url === 'https://silent.example/' ? silentAnswer : Promise.resolve(200)),
  });
  worker.start();
  t.after(async () => {
    answerSilent(200);
    await worker.stop();
  });
  await pollUntil(() => log.includes('delivered fast-1') || undefined, { timeoutMs: 2_000, intervalMs: 1, what: 'the first fast delivery' });
  // A new event for the fast listener (and one for the silent listener, which must wait its turn).
  pending.push(delivery('fast-2', 'https://fast.example/'), delivery('silent-2', 'https://silent.example/'));
  worker.wake();
  await pollUntil(() => log.includes('delivered fast-2') || undefined, { timeoutMs: 2_000, intervalMs: 1, what: 'fast-2 while the silent listener still holds silent-1' });
  assert.ok(claims.some((except) => except.includes('https://silent.example/')), 'claims skip the listener being served');
  assert.equal(log.includes('delivered silent-1'), false);
  answerSilent(200);
  await pollUntil(() => log.includes('delivered silent-2') || undefined, { timeoutMs: 2_000, intervalMs: 1, what: 'the silent listener\'s messages, in order' });
  await worker.stop();
  assert.deepEqual(log.filter((l) => l.includes('silent')), ['delivered silent-1', 'delivered silent-2']);
});

test('worker: includeDocuments deliveries are built and posted two at a time; the others are not held back', async () => {
  // A review sent one envelope of 8 MB to 32 configurations with includeDocuments: 1.4 GB held at once.
  const withDocs: ConnectMessage = { ...MESSAGE, data: { ...MESSAGE.data, envelopeSummary: { status: 'sent', envelopeDocuments: [{ documentId: '1' }] } } };
  const items = [
    ...Array.from({ length: 6 }, (_, i) => delivery(`doc${i}`, `https://docs${i}.example/`, { includeDocuments: true, message: withDocs })),
    ...Array.from({ length: 3 }, (_, i) => delivery(`plain${i}`, `https://plain${i}.example/`)),
  ];
  const { queue, log } = queueOf(items);
  let holding = 0;
  let mostHolding = 0;
  let plainAtOnce = 0;
  let mostPlain = 0;
  const worker = new ConnectDeliveryWorker({
    queue, workerId: 'w', hmacSecrets: () => Promise.resolve([]),
    documentBytes: () => {
      mostHolding = Math.max(mostHolding, ++holding);
      return Promise.resolve(new Uint8Array(1024));
    },
    post: async (p) => {
      const plain = !p.body.includes('PDFBytes');
      if (plain) mostPlain = Math.max(mostPlain, ++plainAtOnce);
      // A few turns of the loop: long enough for every chain to be under way.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      if (plain) plainAtOnce--;
      else holding--;
      return 200;
    },
  });
  assert.deepEqual(await worker.runOnce(), { claimed: 9, delivered: 9, retried: 0, failed: 0 });
  assert.equal(mostHolding, 2);
  assert.equal(mostPlain, 3);
  assert.equal(worker.documentDeliveries, 0);
  assert.equal(log.length, 9);
});
