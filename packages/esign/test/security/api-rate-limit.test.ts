// DocuSign's API rate limits over HTTP: X-RateLimit-* and X-BurstLimit-* on every
// account call, HOURLY_/BURST_APIINVOCATION_LIMIT_EXCEEDED past the limit until the window
// turns (injected clock), and no way to spend another account's budget; instances sharing a
// database share the hourly count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { signedInIntegration, startEsignUnderTest } from '../reliability/esign-under-test.ts';
import { startEsign, type Harness } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';

const HOUR = 3_600_000;
/** Moves the clock forward to `offsetMs` past the start of the next clock hour; returns that hour's start. */
function toNextHour(clock: FakeClock, offsetMs: number): number {
  const now = clock.now().getTime();
  const hour = now - (now % HOUR) + HOUR;
  clock.advance((hour + offsetMs - now) / 1000);
  return hour;
}

test('X-RateLimit-* headers count down; past the limit a DocuSign 429 until the next clock hour', async (t) => {
  const h = await startEsignUnderTest(t, { apiRateLimits: { hourly: 5, burst: 100, burstWindowMs: 30_000 } });
  const hour = toNextHour(h.clock, 59 * 60_000);
  const me = await signedInIntegration(h);
  const url = `${h.origin}/restapi/v2.1/accounts/${me.accountId}`;
  const call = async (token = me.token, target = url) => {
    const res = await request(target, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
  };
  const remaining: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await call();
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-ratelimit-limit'], '5');
    assert.equal(r.headers['x-ratelimit-reset'], String((hour + HOUR) / 1000));
    remaining.push(String(r.headers['x-ratelimit-remaining']));
  }
  assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
  const refused = await call();
  assert.equal(refused.status, 429);
  assert.equal(refused.body.errorCode, 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED');
  assert.equal(refused.headers['x-ratelimit-remaining'], '0');
  // Junk from someone else (no token, a bad token, another user's token) neither counts nor
  // is blocked by this account's budget beyond its own answer.
  const stranger = await signedInIntegration(h);
  const theirs = await call(stranger.token, `${h.origin}/restapi/v2.1/accounts/${stranger.accountId}`);
  assert.equal(theirs.status, 200);
  assert.equal(theirs.headers['x-ratelimit-remaining'], '4');
  // The next clock hour opens a new window.
  toNextHour(h.clock, 1000);
  const next = await call();
  assert.equal(next.status, 200);
  assert.equal(next.headers['x-ratelimit-remaining'], '4');
});

test('the burst limit, and callers who cannot spend an account\'s budget', async (t) => {
  const h = await startEsignUnderTest(t, { apiRateLimits: { hourly: 1000, burst: 3, burstWindowMs: 30_000 } });
  toNextHour(h.clock, 0);
  const me = await signedInIntegration(h);
  const other = await signedInIntegration(h);
  const url = `${h.origin}/restapi/v2.1/accounts/${me.accountId}`;
  // 10 calls without a token, with a garbage token, and with another user's valid token.
  for (const authorization of [undefined, 'Bearer junk', `Bearer ${other.token}`]) {
    for (let i = 0; i < 10; i++) {
      const res = await request(url, { headers: authorization ? { authorization } : {} });
      await res.body.text();
      assert.ok(res.statusCode === 401 || res.statusCode === 400, `${res.statusCode}`);
    }
  }
  const statuses: number[] = [];
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 4; i++) {
    const res = await request(url, { headers: { authorization: `Bearer ${me.token}` } });
    last = (await res.body.json()) as Record<string, unknown>;
    statuses.push(res.statusCode);
    if (i < 3) assert.equal(res.headers['x-burstlimit-remaining'], String(2 - i));
  }
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  assert.equal(last.errorCode, 'BURST_APIINVOCATION_LIMIT_EXCEEDED');
  h.clock.advance(31);
  const after = await request(url, { headers: { authorization: `Bearer ${me.token}` } });
  await after.body.text();
  assert.equal(after.statusCode, 200);
});

test('instances sharing a database pool the hourly count: two of them let an account through its limit, not twice it', async (t) => {
  // Before, each instance counted alone: behind the gateway's two esign instances an account had
  // 2 × 3,000 calls an hour. Syncs are called here rather than waited for (they run every second).
  const shared = mkdtempSync(join(tmpdir(), 'signet-shared-'));
  t.after(() => rmSync(shared, { recursive: true, force: true }));
  const clock = new FakeClock();
  toNextHour(clock, 60_000);
  const options = { settings: { DATA_DIR: shared }, clock, deps: { apiRateLimits: { hourly: 10, burst: 100, burstWindowMs: 30_000 } } };
  const a = await startEsign(t, options);
  const b = await startEsign(t, options);
  const me = await signedInIntegration(a);
  const call = async (h: Harness) => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${me.accountId}`, { headers: { authorization: `Bearer ${me.token}` } });
    await res.body.dump();
    return { status: res.statusCode, remaining: String(res.headers['x-ratelimit-remaining']) };
  };
  for (let i = 0; i < 6; i++) assert.equal((await call(a)).status, 200);
  await a.app.apiRateLimiter.sync();
  // B has not synced this account yet: its first call counts only its own.
  assert.deepEqual(await call(b), { status: 200, remaining: '9' });
  await b.app.apiRateLimiter.sync();
  const fromB = [await call(b), await call(b), await call(b), await call(b)];
  assert.deepEqual(fromB.map((r) => r.status), [200, 200, 200, 429]);
  assert.deepEqual(fromB.map((r) => r.remaining), ['2', '1', '0', '0']);
  await b.app.apiRateLimiter.sync();
  // A learns B's calls at its next sync (one call of A's went in before it: the sync's lag).
  assert.equal((await call(a)).status, 200);
  await a.app.apiRateLimiter.sync();
  assert.deepEqual(await call(a), { status: 429, remaining: '0' });
});
