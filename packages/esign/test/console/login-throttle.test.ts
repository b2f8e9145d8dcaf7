import assert from 'node:assert/strict';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type * as NodeCrypto from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { logIn } from '../support/authorize.ts';
import { startEsign, seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient } from '../support/form-client.ts';

test('five failed logins lock the address for 15 minutes, even with the right password; success clears the count', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const page = (await client.get('/login')).text;

  for (let i = 0; i < 4; i++) assert.equal((await logIn(client, page, seed.email, 'wrong password')).status, 401);
  const fifth = await logIn(client, page, seed.email.toUpperCase(), 'wrong password');
  assert.equal(fifth.status, 429);
  assert.match(fifth.text, /Too many failed login attempts/);
  const locked = await logIn(client, page, seed.email, seed.password);
  assert.equal(locked.status, 429, 'locked even with the right password');
  assert.equal(client.cookie('signet_session'), undefined);

  h.clock.advance(15 * 60 + 1);
  const after = await logIn(client, page, seed.email, seed.password);
  assert.equal(after.status, 303);
  assert.equal(await h.store.loginFailures.find(seed.email), undefined, 'a successful login clears the failures');

  // Unknown addresses are throttled alike, so the answers do not reveal which addresses exist.
  for (let i = 0; i < 4; i++) assert.equal((await logIn(client, page, 'nobody@example.com', 'x')).status, 401);
  assert.equal((await logIn(client, page, 'nobody@example.com', 'x')).status, 429);
});

test('parallel guesses cannot outrun the lock: of 11 concurrent tries at most 5 passwords are checked', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const page = (await client.get('/login')).text;
  // Every password check is one scrypt call; count them by wrapping node's own scrypt, which the
  // in-process server imports as a live ESM binding.
  const scrypt = countScrypt(t);
  const tries = [...Array.from({ length: 10 }, () => 'wrong password'), seed.password];
  const answers = await Promise.all(tries.map((password) => logIn(client, page, seed.email, password)));
  const statuses = answers.map((a) => a.status);
  assert.ok(scrypt.calls <= 5, `${scrypt.calls} passwords were checked`);
  assert.ok(statuses.filter((s) => s === 429).length >= 6, statuses.join(','));
  assert.ok(statuses.every((s) => s === 401 || s === 303 || s === 429), statuses.join(','));
  assert.ok(statuses.filter((s) => s !== 429).length <= scrypt.calls, 'only a checked password can be answered other than locked');
});

test('password checks are admitted per client address: past the minute\'s share a login, sign-up or confirmation costs no scrypt', async (t) => {
  // A review: 32 anonymous logins at once, each to a fresh address (so no address lock), held
  // a real user's login for 4.5 s; each sign-up also mailed a stranger. Each address (an IPv6
  // /64) now starts at most so many checks a minute, and so many at once.
  const h = await startEsign(t, { deps: { passwordChecks: { perMinute: 3, perClient: 2, inFlight: 8 } } });
  const seed = await seedUserAndApp(h);
  const scrypt = countScrypt(t);
  const client = new FormClient(h.origin);
  const page = (await client.get('/login')).text;
  // The gateway's X-Forwarded-For names the client; esign trusts it from its loopback peer.
  const from = (address: string) => ({ 'x-forwarded-for': address });
  for (let i = 0; i < 3; i++) assert.equal((await client.post('/login', { _csrf: csrfOf(page), email: `stranger${i}@example.com`, password: 'x' }, from('203.0.113.7'))).status, 401);
  // (Three checks, and the decoy hash unknown addresses are checked against, made once.)
  const checked = scrypt.calls;
  const fourth = await client.post('/login', { _csrf: csrfOf(page), email: seed.email, password: seed.password }, from('203.0.113.7'));
  assert.equal(fourth.status, 429);
  assert.match(fourth.text, /Too many sign-in or sign-up attempts from your network/);
  assert.ok(fourth.headers['retry-after']);
  const signupPage = (await client.get('/signup')).text;
  assert.equal((await client.post('/signup', { _csrf: csrfOf(signupPage), email: 'new@example.com', name: 'New', password: 'a long enough password' }, from('203.0.113.7'))).status, 429);
  assert.equal(scrypt.calls, checked, 'refused before any scrypt');
  // Another address is not held up, nor is one of the same IPv6 /64 spared.
  assert.equal((await client.post('/login', { _csrf: csrfOf(page), email: seed.email, password: seed.password }, from('198.51.100.9'))).status, 303);
  for (let i = 0; i < 3; i++) await client.post('/login', { _csrf: csrfOf(page), email: `v6-${i}@example.com`, password: 'x' }, from(`2001:db8:1:2::${i + 1}`));
  assert.equal((await client.post('/login', { _csrf: csrfOf(page), email: 'v6@example.com', password: 'x' }, from('2001:db8:1:2:ffff::1'))).status, 429);
});

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
}

/**
 * Counts password checks: every one is a scrypt call, counted by wrapping node's own scrypt,
 * which the in-process server imports as a live ESM binding. Restored when the test ends.
 */
function countScrypt(t: TestContext): { readonly calls: number } {
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
  const original = crypto.scrypt;
  const counter = { calls: 0 };
  crypto.scrypt = ((...args: Parameters<typeof original>) => {
    counter.calls++;
    return (original as (...a: unknown[]) => void)(...args);
  }) as typeof original;
  syncBuiltinESMExports();
  t.after(() => {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  });
  return counter;
}
