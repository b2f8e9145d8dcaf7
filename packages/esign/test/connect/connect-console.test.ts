import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { loadSecretKey } from '../../src/connect/load-secret-key.ts';
import { SecretBox } from '../../src/connect/secret-box.ts';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { startConnectEsign, startListener } from './connect-harness.ts';

let browser: Browser;
let converter: Converter;
before(async () => {
  [browser, converter] = await Promise.all([launchChromium(), buildConverter({ officeWorkers: 1, htmlPages: 1 })]);
});
after(async () => {
  await browser.close();
  await converter.close();
});

test('console Connect page in headless Chromium: HMAC key shown once and stored sealed, add/disable configurations, a refused URL, failures retried', async (t) => {
  let downIsUp = false;
  const listener = await startListener(t, (path) => (path === '/down' && !downIsUp ? 503 : 200));
  const h = await startConnectEsign(t, { converter, settings: { CONNECT_ALLOW_HTTP: '1', CONNECT_ALLOW_PRIVATE: '1' }, connect: { worker: { pollIntervalMs: 20, retry: { baseMs: 10, maxMs: 10, maxAttempts: 1 } } } });
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();

  await page.goto(`${h.origin}/login`);
  await page.locator('input[type=email]').fill(h.email);
  await page.locator('input[type=password]').fill(h.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${h.origin}/console`);
  await page.getByRole('link', { name: /Connect: webhooks/ }).click();
  await page.waitForURL(`${h.origin}/console/connect`);
  assert.equal(await page.locator('[data-field=account-id]').textContent(), h.accountId);

  // An HMAC key: shown once, stored only sealed under the service's key, not shown on reload.
  await page.getByRole('button', { name: 'Add HMAC key' }).click();
  const secret = (await page.locator('[data-field=new-hmac-secret]').textContent()) ?? '';
  assert.match(secret, /^[A-Za-z0-9+/]{43}=$/);
  const rows = await h.store.db.kysely.selectFrom('connect_hmac_keys').selectAll().execute();
  assert.equal(rows.length, 1);
  assert.ok(!rows[0]?.sealed_secret.includes(secret), 'the secret is not stored in the clear');
  assert.equal(new SecretBox(loadSecretKey(undefined, h.dataDir)).open(rows[0]?.sealed_secret ?? ''), secret);
  await page.goto(`${h.origin}/console/connect`);
  assert.equal(await page.locator('[data-field=new-hmac-secret]').count(), 0);
  assert.ok(!(await page.content()).includes(secret));

  // A refused listener URL is explained on the page.
  await page.getByLabel('Name').fill('Bad');
  await page.getByLabel('Listener URL').fill('ftp://files.example.com/drop');
  await page.getByRole('button', { name: 'Add configuration' }).click();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /Listener URL: The listener URL must use https/);

  // Two configurations: a working hook (the envelope-* events are ticked by default) and one that is down.
  for (const [name, path] of [['Hook', '/hook'], ['Down', '/down']] as const) {
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Listener URL').fill(`${listener.url}${path}`);
    await page.getByRole('button', { name: 'Add configuration' }).click();
    await page.waitForURL(`${h.origin}/console/connect`);
  }
  assert.equal(await page.locator('tr[data-connect-id]').count(), 2);
  assert.match((await page.locator('tr[data-connect-id]', { hasText: 'Hook' }).textContent()) ?? '', /envelope-sent, envelope-delivered, envelope-completed, envelope-declined, envelope-voided.*yes.*Active/s);

  // An envelope is sent: the hook gets envelope-sent, signed with the key made in the console.
  const created = await h.api('POST', '/envelopes', {
    emailSubject: 'Console test',
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Order' }],
    recipients: { signers: [{ email: 'sam@example.com', name: 'Sam Signer', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    status: 'sent',
  });
  assert.equal(created.status, 201);
  const envelopeId = ((await created.json()) as { envelopeId: string }).envelopeId;
  const hook = await pollUntil(() => listener.received.find((r) => r.path === '/hook'), { timeoutMs: 10_000, intervalMs: 20, what: 'envelope-sent at the hook' });
  assert.equal((JSON.parse(hook.raw) as { event: string }).event, 'envelope-sent');
  assert.equal(hook.headers['x-docusign-signature-1'], createHmac('sha256', secret).update(hook.raw).digest('base64'));

  // The down listener's failure shows on the page; once it is up, Retry delivers it.
  const repository = new ConnectRepository(h.store.db);
  await pollUntil(async () => (await repository.listFailures(h.accountId)).find((f) => f.status === 'failed'), { timeoutMs: 10_000, intervalMs: 20, what: 'the failed delivery' });
  await page.goto(`${h.origin}/console/connect`);
  const failure = page.locator('tr[data-failure-id]');
  assert.match((await failure.textContent()) ?? '', new RegExp(`${envelopeId}.*envelope-sent.*failed.*HTTP 503`, 's'));
  downIsUp = true;
  await failure.getByRole('button', { name: 'Retry' }).click();
  await page.waitForURL(`${h.origin}/console/connect`);
  await pollUntil(() => listener.received.find((r) => r.path === '/down' && r.status === 200), { timeoutMs: 10_000, intervalMs: 20, what: 'the retried delivery' });
  await page.goto(`${h.origin}/console/connect`);
  await page.getByText('No failed deliveries.').waitFor();

  // Disable a configuration, revoke the key.
  await page.getByRole('button', { name: 'Disable Hook' }).click();
  await page.waitForURL(`${h.origin}/console/connect`);
  assert.match((await page.locator('tr[data-connect-id]', { hasText: 'Hook' }).textContent()) ?? '', /Disabled/);
  assert.equal((await repository.listConfigurations(h.accountId)).find((c) => c.name === 'Hook')?.enabled, false);
  // The key is named by the four characters before its padding (all keys end in "=").
  await page.getByRole('button', { name: `Revoke key ••••${secret.slice(-5, -1)}`, exact: true }).click();
  await page.waitForURL(`${h.origin}/console/connect`);
  assert.deepEqual(await repository.activeSealedSecrets(h.accountId), []);

  // The forms are CSRF-protected: the same POST without the form's token is refused.
  const forged = await page.request.post(`${h.origin}/console/connect/hmac-keys`, { form: {}, maxRedirects: 0 });
  assert.equal(forged.status(), 403);
  assert.equal((await repository.listHmacKeys(h.accountId)).length, 1);
});
