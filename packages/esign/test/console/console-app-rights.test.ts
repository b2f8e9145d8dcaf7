// Apps and keys are the account administrators'. An app's redirect URIs, secrets and RSA keys
// decide who gets tokens as the users who consented to it: a review showed that any member
// (a Viewer with no API access) could add a redirect URI and a secret, or an RSA key, to the
// administrator's app from the console, then take an administrator's token by a lure link or a
// JWT grant. Now every app page and action needs the profile's allowAccountManagement.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn } from '../support/authorize.ts';
import { seedUserAndApp, sharedEsignWithAdmin } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';

const fx = sharedEsignWithAdmin();

/** A user of their own who is also a member of the administrator's account (its default for them) with the `kind` profile, signed in to the console. */
async function memberOfAdminAccount(kind: 'sender' | 'viewer' | 'admin') {
  const member = await seedUserAndApp(fx.h);
  await fx.h.store.accounts.addMembership(member.userId, fx.admin.accountId, fx.h.clock.now());
  const profile = await fx.h.store.db.kysely.selectFrom('permission_profiles').select('id').where('account_id', '=', fx.admin.accountId).where('kind', '=', kind).executeTakeFirstOrThrow();
  await fx.h.store.db.kysely.updateTable('memberships').set({ is_default: 0 }).where('user_id', '=', member.userId).execute();
  await fx.h.store.db.kysely.updateTable('memberships').set({ is_default: 1, permission_profile_id: profile.id }).where('user_id', '=', member.userId).where('account_id', '=', fx.admin.accountId).execute();
  const browser = new FormClient(fx.h.origin);
  assert.equal((await logIn(browser, (await browser.get('/login')).text, member.email, member.password)).status, 303);
  return { member, browser };
}

const appState = async () => ({
  redirectUris: await fx.h.store.apps.redirectUris(fx.admin.clientId),
  secrets: (await fx.h.store.apps.listSecrets(fx.admin.clientId)).map((s) => `${s.id}:${String(s.revoked_at ?? '')}`),
  rsaKeys: (await fx.h.store.apps.listRsaKeys(fx.admin.clientId)).map((k) => `${k.id}:${String(k.revoked_at ?? '')}`),
});

test('a Viewer or Sender member can neither see nor change the administrator\'s app, nor add one', async () => {
  for (const kind of ['viewer', 'sender'] as const) {
    const { browser } = await memberOfAdminAccount(kind);
    const home = await browser.get('/console');
    assert.equal(home.status, 200);
    assert.ok(!home.text.includes(fx.admin.clientId), `${kind}: the home page lists no app of an account they do not manage`);
    assert.match(home.text, /data-field="apps-admin-only"/);
    const csrf = hiddenField(home.text, '_csrf');
    const stateBefore = await appState();
    const secretId = (await fx.h.store.apps.listSecrets(fx.admin.clientId))[0]?.id ?? 'none';
    const base = `/console/apps/${fx.admin.clientId}`;
    const page = await browser.get(base);
    assert.equal(page.status, 400, `${kind}: ${page.text.slice(0, 200)}`);
    assert.match(page.text, /allowAccountManagement/);
    assert.ok(!page.text.includes('localhost:3000/callback'), 'nothing of the app is shown');
    for (const [path, form] of [
      ['/redirect-uris', { uri: 'https://attacker.example/cb' }],
      ['/redirect-uris/remove', { uri: fx.admin.redirectUris[0] ?? '' }],
      ['/secrets', {}],
      [`/secrets/${secretId}/revoke`, {}],
      ['/rsa-keys/generate', {}],
      ['/rsa-keys', { public_key: 'not used' }],
    ] as const) {
      const answer = await browser.post(base + path, { _csrf: csrf, ...form });
      assert.equal(answer.status, 400, `${kind} POST ${path}: ${answer.status}`);
      assert.doesNotMatch(answer.text, /new-secret|new-private-key/, path);
    }
    assert.deepEqual(await appState(), stateBefore, `${kind}: the app is unchanged`);
    const apps = (await fx.h.store.apps.listApps([fx.admin.accountId])).length;
    assert.equal((await browser.post('/console/apps', { _csrf: csrf, name: 'mine now' })).status, 400);
    assert.equal((await fx.h.store.apps.listApps([fx.admin.accountId])).length, apps, `${kind}: no app was added`);
  }
});

test('the administrator, and a member given the Account Administrator profile, manage the app', async () => {
  const browser = new FormClient(fx.h.origin);
  assert.equal((await logIn(browser, (await browser.get('/login')).text, fx.admin.email, fx.admin.password)).status, 303);
  const page = await browser.get(`/console/apps/${fx.admin.clientId}`);
  assert.equal(page.status, 200);
  const added = await browser.post(`/console/apps/${fx.admin.clientId}/redirect-uris`, { _csrf: hiddenField(page.text, '_csrf'), uri: 'https://app.example/admin-cb' });
  assert.equal(added.status, 303);
  assert.ok((await fx.h.store.apps.redirectUris(fx.admin.clientId)).includes('https://app.example/admin-cb'));

  const { browser: other } = await memberOfAdminAccount('admin');
  const home = await other.get('/console');
  assert.ok(home.text.includes(fx.admin.clientId));
  const theirs = await other.get(`/console/apps/${fx.admin.clientId}`);
  assert.equal(theirs.status, 200);
  const secret = await other.post(`/console/apps/${fx.admin.clientId}/secrets`, { _csrf: hiddenField(theirs.text, '_csrf') });
  assert.equal(secret.status, 200);
  assert.match(secret.text, /data-field="new-secret"/);
});
