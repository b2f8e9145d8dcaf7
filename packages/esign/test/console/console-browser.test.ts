import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { sha256Hex } from '../../src/security/secret-token.ts';
import { startEsign } from '../support/esign-harness.ts';

/** Opens the sign-up link from the dev mailbox (this machine may read it) and confirms it with the password. */
async function confirmSignup(page: Page, email: string, password: string): Promise<void> {
  const origin = new URL(page.url()).origin;
  await pollUntil(async () => {
    await page.goto(`${origin}/dev/mailbox`);
    return (await page.getByRole('row').filter({ hasText: email }).count()) > 0;
  }, { timeoutMs: 15_000, intervalMs: 100, what: `the sign-up mail to ${email}` });
  await page.getByRole('row').filter({ hasText: email }).getByRole('link').click();
  await page.getByRole('link', { name: /\/signup\/verify\// }).click();
  await page.locator('input[type=password]').fill(password);
  await page.getByRole('button', { name: 'Confirm and create my account' }).click();
  await page.waitForURL(`${origin}/console`);
}

test('developer console in headless Chromium: sign up, add an app, secrets shown once, redirect URIs, RSA keys', async (t) => {
  const h = await startEsign(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  const context = await browser.newContext();
  const page = await context.newPage();

  await page.goto(`${h.origin}/signup`);
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.locator('input[type=email]').fill('grace@example.com');
  await page.locator('input[type=password]').fill('cobol forever');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  assert.equal(await h.store.accounts.findUserByEmail('grace@example.com'), undefined, 'no account before the e-mail is verified');
  await confirmSignup(page, 'grace@example.com', 'cobol forever');

  const user = await h.store.accounts.findUserByEmail('grace@example.com');
  assert.ok(user);
  const [account] = await h.store.accounts.accountsOf(user.id);
  assert.equal(await page.locator('[data-field=account-id]').textContent(), account?.accountId);
  assert.equal(await page.locator('[data-field=base-path]').textContent(), h.origin);
  assert.equal(await page.locator('[data-field=auth-host]').textContent(), h.origin.replace('http://', ''));
  const session = (await context.cookies()).find((c) => c.name === 'signet_session');
  assert.equal(session?.httpOnly, true);
  assert.equal(session?.sameSite, 'Lax');

  await page.getByLabel('App name').fill('Payroll <script>');
  await page.getByRole('button', { name: 'Add app and integration key' }).click();
  await page.waitForURL(/\/console\/apps\/[0-9a-f-]{36}$/);
  const integrationKey = (await page.locator('[data-field=integration-key]').textContent()) ?? '';
  const app = await h.store.apps.findApp(integrationKey);
  assert.equal(app?.name, 'Payroll <script>', 'the name is stored as typed and rendered escaped');
  assert.equal(await page.locator('h1').textContent(), 'Payroll <script>');

  // A secret is displayed once; only its hash is stored; a reload does not show it again.
  await page.getByRole('button', { name: 'Add secret key' }).click();
  const secret = (await page.locator('[data-field=new-secret]').textContent()) ?? '';
  assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(await h.store.apps.liveSecretHashes(integrationKey), [sha256Hex(secret)]);
  await page.goto(`${h.origin}/console/apps/${integrationKey}`);
  assert.equal(await page.locator('[data-field=new-secret]').count(), 0);
  assert.ok(!(await page.content()).includes(secret));
  await page.getByRole('button', { name: 'Add secret key' }).click();
  const second = (await page.locator('[data-field=new-secret]').textContent()) ?? '';
  assert.notEqual(second, secret);
  assert.equal((await h.store.apps.liveSecretHashes(integrationKey)).length, 2);
  await page.getByRole('button', { name: `Revoke secret ••••${secret.slice(-4)}` }).click();
  await page.waitForURL(`${h.origin}/console/apps/${integrationKey}`);
  assert.deepEqual(await h.store.apps.liveSecretHashes(integrationKey), [sha256Hex(second)]);

  // Redirect URIs: add, reject a bad one with a message, remove.
  await page.getByLabel('Redirect URI').fill('http://localhost:3000/callback');
  await page.getByRole('button', { name: 'Add URI' }).click();
  await page.getByText('http://localhost:3000/callback').waitFor();
  await page.getByLabel('Redirect URI').fill('http://evil.example/callback');
  await page.getByRole('button', { name: 'Add URI' }).click();
  await page.getByRole('alert').filter({ hasText: 'Plain http is allowed only for localhost' }).waitFor();
  await page.getByLabel('Redirect URI').fill('https://app.example/callback');
  await page.getByRole('button', { name: 'Add URI' }).click();
  await page.getByText('https://app.example/callback').waitFor();
  assert.deepEqual((await h.store.apps.redirectUris(integrationKey)).sort(), ['http://localhost:3000/callback', 'https://app.example/callback']);
  await page.locator('li', { hasText: 'http://localhost:3000/callback' }).getByRole('button', { name: 'Remove' }).click();
  await page.waitForURL(`${h.origin}/console/apps/${integrationKey}`);
  assert.deepEqual(await h.store.apps.redirectUris(integrationKey), ['https://app.example/callback']);

  // RSA: a generated private key is shown once and matches the stored public key; upload works too.
  await page.getByRole('button', { name: 'Generate RSA' }).click();
  const privateKey = (await page.locator('[data-field=new-private-key]').textContent()) ?? '';
  assert.match(privateKey, /^-----BEGIN RSA PRIVATE KEY-----/);
  const [stored] = await h.store.apps.liveRsaKeys(integrationKey);
  assert.equal(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(), stored);
  await page.goto(`${h.origin}/console/apps/${integrationKey}`);
  assert.ok(!(await page.content()).includes('PRIVATE KEY'));
  const uploaded = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  await page.getByLabel('Or upload a public key (PEM)').fill(uploaded);
  await page.getByRole('button', { name: 'Upload public key' }).click();
  await page.waitForURL(`${h.origin}/console/apps/${integrationKey}`);
  assert.equal((await h.store.apps.liveRsaKeys(integrationKey)).length, 2);
  await page.getByLabel('Or upload a public key (PEM)').fill('not a key');
  await page.getByRole('button', { name: 'Upload public key' }).click();
  await page.getByRole('alert').filter({ hasText: 'The RSA public key is invalid.' }).waitFor();

  await page.goto(`${h.origin}/console`);
  assert.equal(await page.getByRole('link', { name: 'Payroll <script>' }).count(), 1);

  // Another user sees nothing of it.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(`${h.origin}/signup`);
  await otherPage.getByLabel('Name').fill('Mallory');
  await otherPage.locator('input[type=email]').fill('mallory@example.com');
  await otherPage.locator('input[type=password]').fill('let me in please');
  await otherPage.getByRole('button', { name: 'Create account' }).click();
  await otherPage.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await confirmSignup(otherPage, 'mallory@example.com', 'let me in please');
  const peek = await otherPage.goto(`${h.origin}/console/apps/${integrationKey}`);
  assert.equal(peek?.status(), 404);
  assert.equal(await otherPage.getByRole('link', { name: 'Payroll <script>' }).count(), 0);

  // Sign out, then the console asks for a login and comes back after it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${h.origin}/login`);
  await page.goto(`${h.origin}/console/apps/${integrationKey}`);
  await page.waitForURL(/\/login\?return_to=/);
  await page.locator('input[type=email]').fill('grace@example.com');
  await page.locator('input[type=password]').fill('cobol forever');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${h.origin}/console/apps/${integrationKey}`);
});
