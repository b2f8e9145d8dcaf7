import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorizeViaForms, logIn, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, type Harness } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';

// Ours (docs/esign-connect.md): DocuSign publishes no number of Connect configurations per account.
const LIMIT = 20;
const REFUSAL = {
  errorCode: 'CONNECT_CONFIGURATION_LIMIT_EXCEEDED',
  message: `The account has as many Connect configurations as it may have. The limit is ${LIMIT} per account; delete one to add another.`,
};

async function apiCaller(h: Harness) {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}/connect${path}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { seed, call };
}

// Literal public addresses: the safe defaults need no DNS for them.
const config = (i: number) => ({ urlToPublishTo: `https://93.184.216.34/hook/${i}`, name: `Hook ${i}`, events: ['envelope-sent'] });

test(`Connect configurations per account: at most ${LIMIT}, refused with a DocuSign-shaped error on the API and the console form; other accounts unaffected`, async (t) => {
  const h = await startEsign(t);
  const { seed, call } = await apiCaller(h);
  for (let i = 0; i < LIMIT; i++) assert.equal((await call('POST', '', config(i))).status, 201);
  assert.deepEqual(await call('POST', '', config(LIMIT)), { status: 400, body: REFUSAL });
  assert.equal((await call('GET', '')).body.totalRecords, String(LIMIT));

  // The console's form says the same on the page, and adds nothing.
  const browser = new FormClient(h.origin);
  assert.equal((await logIn(browser, (await browser.get('/login')).text, seed.email, seed.password)).status, 303);
  const page = await browser.get('/console/connect');
  const add = () => browser.post('/console/connect/configurations', { _csrf: hiddenField(page.text, '_csrf'), name: 'One more', url: 'https://93.184.216.34/more', events: 'envelope-sent' });
  const refused = await add();
  assert.equal(refused.status, 400);
  assert.ok(refused.text.includes(`<p class="error" role="alert">${REFUSAL.message}</p>`), refused.text);
  assert.equal((await call('GET', '')).body.totalRecords, String(LIMIT));

  // Deleting one makes room again.
  const first = ((await call('GET', '')).body.configurations as { connectId: string }[])[0];
  assert.equal((await call('DELETE', `/${first?.connectId}`)).status, 200);
  assert.equal((await add()).status, 303);
  assert.equal((await call('POST', '', config(LIMIT))).status, 400);

  // The limit is each account's own.
  const other = await apiCaller(h);
  assert.equal((await other.call('POST', '', config(0))).status, 201);
});
