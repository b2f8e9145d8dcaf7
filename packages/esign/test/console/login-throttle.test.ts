import assert from 'node:assert/strict';
import { test } from 'node:test';
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
