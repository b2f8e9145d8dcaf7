import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { startSmtpListener } from '../../esign/test/support/smtp-listener.ts';
import { envelopeDefinition, threeDocuments } from './support/documents.ts';
import { sdkCall } from './support/sdk.ts';
import { esignCli, startSystem } from './support/start-system.ts';

const run = promisify(execFile);
type UserInfo = { sub: string; email: string; accounts: { accountId: string; isDefault: string; baseUri: string }[] };
type Token = { accessToken: string; tokenType: string; expiresIn: string };

const addressOf = (m: { to?: unknown }) => {
  const to = m.to as { value: { address?: string }[] } | undefined;
  return to?.value[0]?.address ?? '';
};

test('end to end through the gateway\'s https listener with the docusign-esign SDK: CLI → consent in Chromium → token → userinfo → envelope → mail → signing in Chromium → completed → sealed PDF', async (t) => {
  const smtp = await startSmtpListener(t);
  const system = await startSystem(t, { SMTP_URL: smtp.url });
  const { origin, caPath } = system;
  const authHost = origin.replace('https://', '');

  // The integrator's callback: a real listener that records what the browser brings back.
  const callbacks: URL[] = [];
  const callbackServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/favicon.ico') callbacks.push(url);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received');
  });
  const callbackPort = await listenOnLoopback(callbackServer);
  t.after(() => new Promise<void>((resolve) => {
    callbackServer.closeAllConnections();
    callbackServer.close(() => resolve());
  }));
  const redirectUri = `http://127.0.0.1:${callbackPort}/ds/callback`;

  // 1. User and app with the CLI, beside the running system (same DATA_DIR).
  const user = await esignCli<{ userId: string; accountId: string }>(system.env, ['user', 'create', '--email', 'ada@example.com', '--password', 'correct horse battery staple', '--name', 'Ada Lovelace']);
  const app = await esignCli<{ integrationKey: string; secretKey: string; accountId: string; baseUri: string }>(system.env, ['app', 'create', '--user', 'ada@example.com', '--name', 'Order desk', '--redirect-uri', redirectUri]);
  assert.equal(app.accountId, user.accountId);
  assert.equal(app.baseUri, origin);

  // 2. The SDK's authorization URL, opened in Chromium: log in, Allow.
  const authUri = await sdkCall<string>(caPath, 'authorizationUri', { authHost, clientId: app.integrationKey, scopes: ['signature'], redirectUri, state: 'e2e' });
  assert.ok(authUri.startsWith(`${origin}/oauth/auth?`), authUri);
  const browser = await launchChromium();
  t.after(() => browser.close());
  // Chromium keeps its own trust store; the SDK (Node + NODE_EXTRA_CA_CERTS) is the client whose trust is under test.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(authUri);
  await page.locator('input[type=email]').fill('ada@example.com');
  await page.locator('input[type=password]').fill('correct horse battery staple');
  await page.locator('button[type=submit], input[type=submit]').first().click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/ds\/callback/);
  const callback = callbacks.at(-1);
  assert.equal(callback?.searchParams.get('state'), 'e2e');
  const code = callback?.searchParams.get('code');
  assert.ok(code, 'an authorization code came back');

  // 3. Token, userinfo, base_uri: all through the gateway's TLS listener with the dev CA.
  const token = await sdkCall<Token>(caPath, 'generateAccessToken', { authHost, clientId: app.integrationKey, clientSecret: app.secretKey, code });
  assert.equal(token.tokenType, 'Bearer');
  const info = await sdkCall<UserInfo>(caPath, 'getUserInfo', { authHost, accessToken: token.accessToken });
  assert.equal(info.sub, user.userId);
  const account = info.accounts.find((a) => a.isDefault === 'true');
  assert.equal(account?.accountId, user.accountId);
  assert.equal(account?.baseUri, origin, 'base_uri points at the gateway');
  const basePath = `${account.baseUri}/restapi`;

  // 4. createEnvelope: html + docx + pdf, anchors, two signers in order, one carbon copy.
  const documents = await threeDocuments();
  const summary = await sdkCall<{ envelopeId: string; status: string }>(caPath, 'createEnvelope', { basePath, accessToken: token.accessToken, accountId: account.accountId, envelopeDefinition: envelopeDefinition(documents) });
  assert.equal(summary.status, 'sent');
  const envelope = await sdkCall<{ status: string; recipients: { signers: { status: string; tabs?: { signHereTabs?: { documentId: string }[] } }[] } }>(
    caPath, 'getEnvelope', { basePath, accessToken: token.accessToken, accountId: account.accountId, envelopeId: summary.envelopeId, options: { include: 'recipients,tabs' } });
  assert.equal(envelope.status, 'sent');
  assert.deepEqual(envelope.recipients.signers.map((s) => s.status), ['sent', 'created']);
  // Anchors: /sn1/ in the html and the docx for the first signer, /sn2/ in the pdf for the second.
  const recipients = await sdkCall<{ signers: { tabs?: { signHereTabs?: { documentId: string }[] } }[]; carbonCopies: unknown[] }>(
    caPath, 'listRecipients', { basePath, accessToken: token.accessToken, accountId: account.accountId, envelopeId: summary.envelopeId });
  assert.deepEqual(recipients.signers.map((s) => (s.tabs?.signHereTabs ?? []).map((tab) => tab.documentId)), [['1', '2'], ['3']]);
  assert.equal(recipients.carbonCopies.length, 1);

  // 5. Routing order 1 is mailed at the real SMTP listener: the first signer and the carbon copy.
  await pollUntil(() => smtp.received.length >= 2, { timeoutMs: 30_000, what: 'two mails at the SMTP listener' });
  assert.deepEqual(smtp.received.map(addressOf).sort(), ['copy@example.com', 'first@example.com']);
  const signerMail = smtp.received.find((m) => addressOf(m) === 'first@example.com');
  assert.equal(signerMail?.subject, 'Please sign the purchase order');
  const link = signingLink(signerMail?.text);

  // 6. The first signer signs in Chromium through the gateway; then the second is mailed and signs.
  const signer1 = await browser.newContext({ ignoreHTTPSErrors: true });
  t.after(() => signer1.close());
  await signEverything(await signer1.newPage(), link);
  const secondMail = await pollUntil(() => smtp.received.find((m) => addressOf(m) === 'second@example.com'), { timeoutMs: 30_000, what: 'the second signer\'s mail' });
  const signer2 = await browser.newContext({ ignoreHTTPSErrors: true });
  t.after(() => signer2.close());
  await signEverything(await signer2.newPage(), signingLink(secondMail.text));

  // 7. Completed; the combined document is stamped and sealed, and pdfsig says the seal is valid.
  const api = { basePath, accessToken: token.accessToken, accountId: account.accountId, envelopeId: summary.envelopeId };
  await pollUntil(async () => (await sdkCall<{ status: string }>(caPath, 'getEnvelope', api)).status === 'completed', { timeoutMs: 60_000, intervalMs: 500, what: 'the envelope to complete' });
  const combined = Buffer.from(await sdkCall<string>(caPath, 'getDocument', { ...api, documentId: 'combined' }), 'base64');
  assert.equal(combined.subarray(0, 5).toString(), '%PDF-');
  const report = await pdfsig(combined);
  assert.match(report, /Signature #1/);
  assert.match(report, /Signature is Valid/, report);
  assert.match(report, /Total document signed/, report);
  // All three documents (converted from html, docx and pdf) are in the sealed whole.
  const text = await pdfText(combined);
  for (const words of ['Purchase order', 'Contract between the parties.', 'Terms and conditions']) assert.ok(text.includes(words), `"${words}" in the combined PDF`);
});

/** The signing link: a plain https URL through the gateway in the mail's text part (docs/esign-envelopes.md, "Signing links"). */
function signingLink(text: string | undefined): string {
  const link = /^(https:\/\/localhost:\d+\/signing\/\S+)$/m.exec(text ?? '')?.[1];
  assert.ok(link, `a plain https signing link through the gateway in:\n${text}`);
  return link;
}

/** Opens the link, adopts a typed signature on the first tab, signs the others, finishes. */
async function signEverything(page: Page, link: string): Promise<void> {
  const opened = await page.goto(link);
  assert.equal(opened?.status(), 200);
  // npm start's TLS listener has Kong's http2 flag: Chromium talks HTTP/2 to the gateway.
  assert.equal(await page.evaluate('performance.getEntriesByType("navigation")[0].nextHopProtocol'), 'h2');
  const tabs = page.getByRole('button', { name: /Sign here/ });
  assert.ok((await tabs.count()) > 0, 'the signer has tabs to sign');
  await tabs.first().click();
  await page.getByRole('button', { name: 'Adopt and sign' }).click();
  while ((await tabs.count()) > 0) await tabs.first().click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.getByRole('heading', { name: 'Thank you for signing' }).waitFor();
}

/** The PDF's text, by poppler's pdftotext (an independent reader). */
async function pdfText(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-e2e-text-'));
  try {
    writeFileSync(join(dir, 'combined.pdf'), pdf);
    return (await run('pdftotext', [join(dir, 'combined.pdf'), '-'])).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** poppler's report on the PDF's signatures (pdfsig exits non-zero for an invalid one; the report is what counts). */
async function pdfsig(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-e2e-pdfsig-'));
  try {
    writeFileSync(join(dir, 'combined.pdf'), pdf);
    const out = await run('pdfsig', [join(dir, 'combined.pdf')]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    return out.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
