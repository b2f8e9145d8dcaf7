import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntilReady } from './wait-until-ready.ts';

const answer = (status: number) => new Response('{}', { status });

test('ready once every probe answers 2xx; a part answering 503 first is waited for', async () => {
  const calls: string[] = [];
  let healthCalls = 0;
  const fetch = ((url: string) => {
    calls.push(url);
    if (url.endsWith('/health')) return Promise.resolve(answer(++healthCalls < 3 ? 503 : 200));
    return Promise.resolve(answer(200));
  }) as typeof globalThis.fetch;
  const r = await waitUntilReady([{ part: 'esign-1', url: 'http://e/health' }, { part: 'gateway', url: 'http://g/status' }], { timeoutMs: 5000, intervalMs: 1, fetch });
  assert.deepEqual(r, { ready: true });
  assert.deepEqual(calls, ['http://e/health', 'http://e/health', 'http://e/health', 'http://g/status']);
});

test('a part that never answers is named, with the last error', async () => {
  const fetch = (() => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') }))) as typeof globalThis.fetch;
  const r = await waitUntilReady([{ part: 'esign-2', url: 'http://127.0.0.1:1/health' }], { timeoutMs: 50, intervalMs: 5, fetch });
  assert.deepEqual(r, { ready: false, part: 'esign-2', reason: 'http://127.0.0.1:1/health did not answer 2xx within 0.05 s: connect ECONNREFUSED 127.0.0.1:1' });
});

test('waiting ends as soon as the system stopped (a part died)', async () => {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const fetch = (() => Promise.resolve(answer(503))) as typeof globalThis.fetch;
  const waiting = waitUntilReady([{ part: 'gateway', url: 'http://g/status' }], { timeoutMs: 60_000, intervalMs: 5, stopped, fetch });
  stop();
  assert.deepEqual(await waiting, { ready: false, part: 'gateway', reason: 'the system stopped while it was starting' });
});
