import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEsign, seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient } from '../support/form-client.ts';

test('/restapi requires a live Bearer token and reaches only the accounts of its user', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const stranger = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const api = new FormClient(h.origin);
  const get = (path: string, authorization?: string) =>
    api.get(path, { 'content-type': 'application/json', accept: 'application/json', ...(authorization ? { authorization } : {}) });
  const own = `/restapi/v2.1/accounts/${seed.accountId}`;

  const none = await get(own);
  assert.equal(none.status, 401);
  assert.deepEqual(none.json(), { errorCode: 'USER_AUTHENTICATION_FAILED', message: 'One or both of Username and Password are invalid. Invalid access token.' });
  const basic = await get(own, `Basic ${Buffer.from('a:b').toString('base64')}`);
  assert.equal((basic.json() as { errorCode: string }).errorCode, 'USER_AUTHENTICATION_FAILED');
  const bogus = await get(own, 'Bearer not-a-token');
  assert.equal(bogus.status, 401);
  assert.deepEqual(bogus.json(), { errorCode: 'AUTHORIZATION_INVALID_TOKEN', message: 'The access token provided is expired, revoked or malformed.' });

  const ok = await get(own, `Bearer ${token}`);
  assert.equal(ok.status, 200, ok.text);
  const account = await h.store.accounts.findAccount(seed.accountId);
  assert.deepEqual(ok.json(), {
    accountIdGuid: seed.accountId,
    accountName: 'Ada Lovelace',
    createdDate: account?.created_at,
    currentPlanId: 'signet-developer',
    planName: 'Signet developer',
    isDowngrade: 'false',
    canUpgrade: 'false',
    envelopeSendingBlocked: 'false',
  });

  const foreign = await get(`/restapi/v2.1/accounts/${stranger.accountId}`, `Bearer ${token}`);
  assert.equal(foreign.status, 400);
  assert.deepEqual(foreign.json(), { errorCode: 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT', message: 'The specified User is not a member of the specified Account.' });
  // A second membership opens the second account to the same token.
  await h.store.accounts.addMembership(seed.userId, stranger.accountId, h.clock.now());
  assert.equal((await get(`/restapi/v2.1/accounts/${stranger.accountId}`, `Bearer ${token}`)).status, 200);

  const missingRoute = await get(`/restapi/v2.1/accounts/${seed.accountId}/nothing`, `Bearer ${token}`);
  assert.equal(missingRoute.status, 404);
  assert.equal((missingRoute.json() as { errorCode: string }).errorCode, 'RESOURCE_NOT_FOUND');

  h.clock.advance(28801);
  const expired = await get(own, `Bearer ${token}`);
  assert.equal(expired.status, 401);
  assert.equal((expired.json() as { errorCode: string }).errorCode, 'AUTHORIZATION_INVALID_TOKEN');
});
