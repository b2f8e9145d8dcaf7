import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { Agent, request } from 'undici';
import { createCertificateAuthority, issueCertificate, launchChromium } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { startEsign, seedUserAndApp } from '../support/esign-harness.ts';
import { startSdkSteps, type StepResult } from './sdk-steps.ts';

test('the real docusign-esign SDK over https: authorization code, userinfo, refresh, JWT, and the bad cases', async (t) => {
  // TLS with a test CA; the SDK child trusts it through NODE_EXTRA_CA_CERTS.
  const ca = createCertificateAuthority({ commonName: 'Signet test CA' });
  const leaf = issueCertificate({ commonName: '127.0.0.1', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, ca);
  const dir = mkdtempSync(join(tmpdir(), 'signet-compat-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.certPem);

  // The app's callback: a real listener on loopback that records what the browser brings back.
  const callbacks: URL[] = [];
  const callbackServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    // Chromium also asks the callback's origin for /favicon.ico.
    if (url.pathname !== '/favicon.ico') callbacks.push(url);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received');
  });
  const callbackPort = await listenOnLoopback(callbackServer);
  t.after(() => new Promise<void>((resolve) => {
    callbackServer.closeAllConnections();
    callbackServer.close(() => resolve());
  }));
  const REDIRECT = `http://127.0.0.1:${callbackPort}/ds/callback`;
  const CALLBACK_URL = new RegExp(`^http://127\\.0\\.0\\.1:${callbackPort}/`);

  const h = await startEsign(t, { https: { key: leaf.keyPem, cert: leaf.certPem } });
  const authHost = h.origin.replace('https://', '');
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const seed = await seedUserAndApp(h, { redirectUris: [REDIRECT, 'http://localhost:3000/other'], rsaPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

  const steps = startSdkSteps(t, { ...process.env, NODE_EXTRA_CA_CERTS: caFile });
  const sdk = (step: string, args: Record<string, unknown>) => steps(step, { authHost, ...args });
  const value = <T>(r: StepResult): T => {
    if (!r.ok) throw new Error(`SDK call failed: ${JSON.stringify(r)}`);
    return r.value as T;
  };

  const browser = await launchChromium();
  t.after(() => browser.close());
  // Chromium has its own trust store; the SDK is the party whose TLS trust is under test.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const browseTo = async (p: Page, url: string, email?: string, password?: string, button: 'Allow' | 'Deny' = 'Allow'): Promise<URL> => {
    const before = callbacks.length;
    await p.goto(url);
    if (email && password) {
      await p.locator('input[type=email]').fill(email);
      await p.locator('input[type=password]').fill(password);
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.getByRole('button', { name: button }).click();
    }
    await p.waitForURL(CALLBACK_URL);
    assert.equal(callbacks.length, before + 1);
    const last = callbacks.at(-1);
    assert.ok(last);
    return last;
  };

  // 1. getAuthorizationUri → Chromium login + Allow → code and state.
  const authUri = value<string>(await sdk('authorizationUri', { clientId: seed.clientId, scopes: ['signature', 'impersonation'], redirectUri: REDIRECT, state: 'st@te 1/2' }));
  assert.ok(authUri.startsWith(`https://${authHost}/oauth/auth?response_type=code&scope=signature%20impersonation&client_id=${seed.clientId}`));
  const callback = await browseTo(page, authUri, seed.email, seed.password);
  assert.equal(callback.searchParams.get('state'), 'st@te 1/2');
  const code = callback.searchParams.get('code') ?? '';
  // Over https the session cookie is Secure (and HttpOnly, SameSite=Lax).
  const session = (await context.cookies()).find((c) => c.name === 'signet_session');
  assert.deepEqual([session?.secure, session?.httpOnly, session?.sameSite], [true, true, 'Lax']);

  // 2. generateAccessToken (Basic auth, no redirect_uri, although two URIs are registered).
  const token = value<{ accessToken: string; refreshToken: string; expiresIn: string; tokenType: string }>(
    await sdk('generateAccessToken', { clientId: seed.clientId, clientSecret: seed.secret, code }));
  assert.equal(token.tokenType, 'Bearer');
  assert.equal(token.expiresIn, '28800');
  assert.ok(token.accessToken && token.refreshToken);

  // 3. getUserInfo: the SDK's model of our snake_case answer.
  const info = value<{ sub: string; email: string; name: string; accounts: Array<{ accountId: string; isDefault: string; accountName: string; baseUri: string }> }>(
    await sdk('getUserInfo', { accessToken: token.accessToken }));
  assert.equal(info.sub, seed.userId);
  assert.equal(info.email, seed.email);
  assert.deepEqual(info.accounts, [{ accountId: seed.accountId, isDefault: 'true', accountName: 'Ada Lovelace', baseUri: h.origin }]);

  // 3b. A REST call through the SDK with basePath = base_uri + /restapi.
  const account = value<{ accountIdGuid: string; accountName: string }>(
    await sdk('getAccountInformation', { basePath: `${info.accounts[0]?.baseUri}/restapi`, accessToken: token.accessToken, accountId: seed.accountId }));
  assert.equal(account.accountIdGuid, seed.accountId);
  const noToken = await sdk('getAccountInformation', { basePath: `${h.origin}/restapi`, accessToken: 'revoked-or-bogus', accountId: seed.accountId });
  assert.equal(noToken.ok, false);
  assert.equal(!noToken.ok && noToken.status, 401);
  assert.deepEqual(!noToken.ok && noToken.data, { errorCode: 'AUTHORIZATION_INVALID_TOKEN', message: 'The access token provided is expired, revoked or malformed.' });

  // 4. A hand-made refresh, as DocuSign's docs describe it (the Node SDK has no refresh call).
  const trusting = new Agent({ connect: { ca: ca.certPem } });
  t.after(() => trusting.close());
  const refreshRes = await request(`https://${authHost}/oauth/token`, {
    method: 'POST',
    dispatcher: trusting,
    headers: { authorization: `Basic ${Buffer.from(`${seed.clientId}:${seed.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token.refreshToken }).toString(),
  });
  assert.equal(refreshRes.statusCode, 200);
  const loginPage = await request(`${h.origin}/login`, { dispatcher: trusting });
  await loginPage.body.dump();
  assert.equal(loginPage.headers['strict-transport-security'], 'max-age=31536000', 'HSTS when the public URL is https');
  const refreshed = (await refreshRes.body.json()) as { access_token: string; refresh_token: string; expires_in: number; token_type: string };
  assert.equal(refreshed.token_type, 'Bearer');
  assert.equal(refreshed.expires_in, 28800);
  assert.equal(value<{ sub: string }>(await sdk('getUserInfo', { accessToken: refreshed.access_token })).sub, seed.userId);

  // The SDK stamps its JWT assertions with the real clock; the server's fake clock stood still
  // since the test began, so however slowly the steps above ran, bring it up to the present
  // (never back): otherwise a slow machine reads the assertion as issued in the future.
  const catchUpClock = () => h.clock.advance(Math.max(0, (Date.now() - h.clock.now().getTime()) / 1000));

  // 5. requestJWTUserToken: consent (impersonation) was given in step 1.
  catchUpClock();
  const jwt = value<{ status: number; body: { access_token: string; token_type: string; expires_in: number; refresh_token?: string } }>(
    await sdk('requestJWTUserToken', { clientId: seed.clientId, userId: seed.userId, scopes: ['signature', 'impersonation'], privateKey: privatePem }));
  assert.equal(jwt.status, 200);
  assert.equal(jwt.body.token_type, 'Bearer');
  assert.equal(jwt.body.expires_in, 3600);
  assert.equal(value<{ sub: string }>(await sdk('getUserInfo', { accessToken: jwt.body.access_token })).sub, seed.userId);

  // Bad case: wrong secret.
  const consented = await browseTo(page, authUri);
  const wrongSecret = await sdk('generateAccessToken', { clientId: seed.clientId, clientSecret: `${seed.secret}x`, code: consented.searchParams.get('code') });
  assert.deepEqual(wrongSecret.ok ? undefined : [wrongSecret.status, wrongSecret.data], [401, { error: 'invalid_client', error_description: 'The integration key or secret key is invalid.' }]);

  // Bad case: a replayed code fails and revokes what it issued (the refreshed tokens included).
  const replay = await sdk('generateAccessToken', { clientId: seed.clientId, clientSecret: seed.secret, code });
  assert.deepEqual(replay.ok ? undefined : [replay.status, (replay.data as { error: string }).error], [400, 'invalid_grant']);
  const revoked = await sdk('getUserInfo', { accessToken: refreshed.access_token });
  assert.equal(!revoked.ok && revoked.status, 401);

  // Bad case: an expired code (the server's clock moves past the 120 s lifetime).
  const late = await browseTo(page, authUri);
  h.clock.advance(121);
  const expired = await sdk('generateAccessToken', { clientId: seed.clientId, clientSecret: seed.secret, code: late.searchParams.get('code') });
  assert.deepEqual(expired.ok ? undefined : [expired.status, expired.data], [400, { error: 'invalid_grant', error_description: 'The authorization code has expired.' }]);

  // Bad case: an unregistered redirect URI shows an error page and never redirects.
  const before = callbacks.length;
  const evilUri = value<string>(await sdk('authorizationUri', { clientId: seed.clientId, scopes: ['signature'], redirectUri: `http://127.0.0.1:${callbackPort}/elsewhere`, state: 's' }));
  const shown = await page.goto(evilUri);
  assert.equal(shown?.status(), 400);
  await page.getByRole('alert').filter({ hasText: 'not registered' }).waitFor();
  assert.equal(callbacks.length, before);
  assert.ok(page.url().startsWith(h.origin));

  // Bad case: another user clicks Deny; and JWT for a user without consent is consent_required.
  const other = await seedUserAndApp(h);
  const otherContext = await browser.newContext({ ignoreHTTPSErrors: true });
  t.after(() => otherContext.close());
  const denied = await browseTo(await otherContext.newPage(), authUri, other.email, other.password, 'Deny');
  assert.equal(denied.searchParams.get('error'), 'access_denied');
  assert.equal(denied.searchParams.get('state'), 'st@te 1/2');
  assert.equal(denied.searchParams.get('code'), null);
  catchUpClock();
  const noConsent = await sdk('requestJWTUserToken', { clientId: seed.clientId, userId: other.userId, scopes: ['signature', 'impersonation'], privateKey: privatePem });
  assert.deepEqual(noConsent.ok ? undefined : [noConsent.status, (noConsent.data as { error: string }).error], [400, 'consent_required']);
});
