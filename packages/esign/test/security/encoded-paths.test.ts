// A path that spells a guarded prefix with percent-escapes of plain letters (`/%72estapi/…` is
// `/restapi/…` to the router) meets the same guards as the plain spelling: the API guard, the
// console's permission checks and the dev mailbox's loopback rule. Reported by a review: before
// the fix, `GET /%72estapi/v2.1/accounts/<id>/users` listed an account's users with no token, and
// `POST` to it invited an Account Administrator.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn } from '../support/authorize.ts';
import { seedUserAndApp, sharedEsignWithAdmin } from '../support/esign-harness.ts';
import { FormClient } from '../support/form-client.ts';

const fx = sharedEsignWithAdmin();

async function answer(path: string, init: RequestInit = {}) {
  const res = await fetch(fx.h.origin + path, { redirect: 'manual', ...init });
  return { status: res.status, text: await res.text() };
}

test('the REST API guard holds for escaped spellings of /restapi and of the route', async () => {
  const account = `/restapi/v2.1/accounts/${fx.admin.accountId}`;
  for (const path of [`${account}/users`, `/%72estapi/v2.1/accounts/${fx.admin.accountId}/users`, `/%72%65%73%74%61%70%69/v2.1/accounts/${fx.admin.accountId}/users`,
    `${account}/%75sers`, `${account}/%75%73%65%72%73`, `/restapi/v2%2E1/accounts/${fx.admin.accountId}/users`, `/restapi/v2%2e1/accounts/${fx.admin.accountId}/users`]) {
    const got = await answer(path);
    assert.equal(got.status, 401, `${path}: ${got.text}`);
    assert.equal((JSON.parse(got.text) as { errorCode: string }).errorCode, 'USER_AUTHENTICATION_FAILED', path);
  }
  const invite = await answer(`/%72estapi/v2.1/accounts/${fx.admin.accountId}/users`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ newUsers: [{ userName: 'Eve', email: 'eve@attacker.example' }] }),
  });
  assert.equal(invite.status, 401, invite.text);
  assert.equal(await fx.h.store.accounts.findUserByEmail('eve@attacker.example'), undefined, 'nobody was invited');
});

test('the console checks a member\'s profile for escaped spellings of its pages', async () => {
  // A second user who is a Sender-profile member of the admin's account, that account their default.
  const member = await seedUserAndApp(fx.h);
  await fx.h.store.accounts.addMembership(member.userId, fx.admin.accountId, fx.h.clock.now());
  await fx.h.store.db.kysely.updateTable('memberships').set({ is_default: 0 }).where('user_id', '=', member.userId).execute();
  await fx.h.store.db.kysely.updateTable('memberships').set({ is_default: 1 }).where('user_id', '=', member.userId).where('account_id', '=', fx.admin.accountId).execute();
  const browser = new FormClient(fx.h.origin);
  assert.equal((await logIn(browser, (await browser.get('/login')).text, member.email, member.password)).status, 303);
  // A Sender may not manage Connect: the plain path is refused, and so is every spelling of it.
  for (const path of ['/console/connect', '/console/%63onnect', '/%63onsole/connect', '/console/%63%6F%6E%6E%65%63%74']) {
    const page = await browser.get(path);
    assert.equal(page.status, 400, `${path}: ${page.status}`);
    assert.match(page.text, /permission/i, path);
  }
});

test('the dev mailbox answers only this machine, whatever the spelling', async () => {
  for (const path of ['/dev/mailbox', '/dev/%6dailbox', '/%64ev/mailbox', '/dev/m%61ilbox/']) {
    const remote = await answer(path, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(remote.status, 404, path);
  }
  assert.equal((await answer('/dev/%6dailbox', { headers: { 'x-forwarded-for': '127.0.0.1' } })).status, 200, 'a local client still reads it');
});
