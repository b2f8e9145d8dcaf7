// The console's forms act as the API does (a correction mails a new address and link, a
// template converts its documents), but nothing counted them: a review made 600 corrections in
// 2.6 s, 600 mails to 600 strangers, while the account's API budget never moved. A console
// write now spends the account's API budget, and is refused once it is spent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorizeViaForms, logIn, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';

test('console writes spend the account\'s API budget: past the burst they are refused, and the API with them', async (t) => {
  const h = await startEsign(t, { deps: { apiRateLimits: { hourly: 3000, burst: 3, burstWindowMs: 3_600_000 } } });
  const seed = await seedUserAndApp(h);
  const browser = new FormClient(h.origin);
  await logIn(browser, (await browser.get('/login')).text, seed.email, seed.password);
  const home = await browser.get('/console');
  assert.equal(home.status, 200);
  const csrf = hiddenField(home.text, '_csrf');
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await browser.post('/console/apps', { _csrf: csrf, name: `App ${i}` })).status);
  assert.deepEqual(statuses, [303, 303, 303, 429]);
  // Reading the console costs nothing; the API shares the spent budget.
  assert.equal((await browser.get('/console')).status, 200);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const api = await fetch(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(api.status, 429);
  assert.equal(((await api.json()) as { errorCode: string }).errorCode, 'BURST_APIINVOCATION_LIMIT_EXCEEDED');
});
