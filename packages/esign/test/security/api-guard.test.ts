// The /restapi guard decides before the body is read, and strangers cost no rate-limit state:
// a 30 MB upload without a valid token (or by a non-member) is refused after its headers, and
// thousands of calls naming made-up accounts leave the limiter's table empty.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { request } from 'undici';
import { signedInIntegration, startEsignUnderTest } from '../reliability/esign-under-test.ts';

/** Sends only the head of a POST announcing `length` body bytes; resolves with whatever the server answers. */
function headOnlyPost(origin: string, path: string, headers: Record<string, string>, length: number) {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => {});
  const lines = [`POST ${path} HTTP/1.1`, `host: ${url.host}`, 'content-type: application/json', `content-length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', '{"documents":['];
  socket.write(lines.join('\r\n'));
  return { answer: () => answer, close: () => socket.destroy() };
}

test('an unauthenticated or foreign 30 MB envelope post is refused after its headers, before any body is read', async (t) => {
  const h = await startEsignUnderTest(t);
  const me = await signedInIntegration(h);
  const stranger = await signedInIntegration(h);
  const path = `/restapi/v2.1/accounts/${me.accountId}/envelopes`;
  const cases = [
    [{}, ' 401 ', 'USER_AUTHENTICATION_FAILED'],
    [{ authorization: 'Bearer not-a-token' }, ' 401 ', 'AUTHORIZATION_INVALID_TOKEN'],
    [{ authorization: `Bearer ${stranger.token}` }, ' 400 ', 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT'],
  ] as const;
  for (const [headers, status, code] of cases) {
    const post = headOnlyPost(h.origin, path, headers, 30 * 1024 * 1024);
    t.after(post.close);
    // The body never comes: only a server that decides on the head alone can answer.
    await pollUntil(() => post.answer().includes('\r\n\r\n{') && post.answer().includes('}'), { timeoutMs: 10_000, what: `an answer to ${JSON.stringify(headers)}` });
    assert.ok(post.answer().startsWith(`HTTP/1.1${status}`), post.answer().slice(0, 40));
    assert.match(post.answer(), new RegExp(code));
    post.close();
  }
});

test('calls naming accounts the caller does not belong to create no rate-limit buckets', async (t) => {
  const h = await startEsignUnderTest(t, { apiRateLimits: { hourly: 100, burst: 100, burstWindowMs: 30_000 } });
  const me = await signedInIntegration(h);
  const junk = Array.from({ length: 300 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  for (const [i, accountId] of junk.entries()) {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${accountId}/envelopes`, { headers: i % 2 === 0 ? {} : { authorization: `Bearer ${me.token}` } });
    await res.body.text();
    assert.ok(res.statusCode === 401 || res.statusCode === 400, String(res.statusCode));
  }
  assert.equal(h.app.apiRateLimiter.size, 0);
  const mine = await request(`${h.origin}/restapi/v2.1/accounts/${me.accountId}`, { headers: { authorization: `Bearer ${me.token}` } });
  await mine.body.text();
  assert.equal(mine.headers['x-ratelimit-remaining'], '99');
  assert.equal(h.app.apiRateLimiter.size, 1);
});
