// Security review II through the whole system: the OAuth scope and JWT checks and the
// signing page's image checks hold behind the gateway's TLS listener, where consecutive requests
// land on different esign instances (so a replayed jti must be caught by the shared store, not
// by one process's memory).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { Agent, request } from 'undici';
import { pollUntil } from '@signet/kit';
import { startSmtpListener } from '../../esign/test/support/smtp-listener.ts';
import { FormClient } from '../../esign/test/support/form-client.ts';
import { assertUnusableDrawingsRefused, drawnSignatureFinish } from '../../esign/test/support/drawn-signature.ts';
import { samplePdf } from '../../esign/test/support/sample-pdf.ts';
import { makeSignaturePng } from '../../pdf/test/raster.fixture.ts';
import { sdkCall } from './support/sdk.ts';
import { esignCli, startSystem } from './support/start-system.ts';
import { tokenViaForms } from './support/token-via-forms.ts';

const PASSWORD = 'correct horse battery staple';

test('security through the gateway: scopes, JWT bounds and the signing page\'s image checks', async (t) => {
  const smtp = await startSmtpListener(t);
  const system = await startSystem(t, { SMTP_URL: smtp.url });
  const { origin, caPath } = system;
  const trusting = new Agent({ connect: { ca: system.caPem } });
  t.after(() => trusting.close());
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyDir = mkdtempSync(join(tmpdir(), 'signet-security-'));
  t.after(() => rmSync(keyDir, { recursive: true, force: true }));
  writeFileSync(join(keyDir, 'public.pem'), publicKey.export({ type: 'spki', format: 'pem' }));

  const user = await esignCli<{ userId: string; accountId: string }>(system.env, ['user', 'create', '--email', 'sec@example.com', '--password', PASSWORD, '--name', 'Sec Ops']);
  const redirectUri = 'http://127.0.0.1:9/callback';
  const app = await esignCli<{ integrationKey: string; secretKey: string }>(system.env, ['app', 'create', '--user', 'sec@example.com', '--name', 'Security', '--redirect-uri', redirectUri, '--rsa-public-key', join(keyDir, 'public.pem')]);
  const tokenFor = (scope: string) => tokenViaForms(origin, trusting, { clientId: app.integrationKey, secret: app.secretKey, redirectUri }, { email: 'sec@example.com', password: PASSWORD }, scope);
  const account = `${origin}/restapi/v2.1/accounts/${user.accountId}`;
  const call = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const res = await request(url, {
      method, dispatcher: trusting,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };

  await t.test('a token granted only openid reads userinfo and nothing of the eSignature API, also through the SDK', async () => {
    const token = await tokenFor('openid');
    // Round robin: four calls of each kind reach both instances.
    for (let i = 0; i < 4; i++) {
      for (const [method, url] of [['GET', `${account}/envelopes?from_date=2020-01-01`], ['POST', `${account}/envelopes`], ['GET', `${account}/connect`]] as const) {
        const res = await call(method, url, token, method === 'POST' ? { status: 'sent' } : undefined);
        assert.equal(res.status, 401, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errorCode, 'AUTHORIZATION_INVALID_TOKEN');
        assert.match(String(res.body.message), /signature scope/);
      }
    }
    const info = await sdkCall<{ sub: string }>(caPath, 'getUserInfo', { authHost: origin.replace('https://', ''), accessToken: token });
    assert.equal(info.sub, user.userId);
    await assert.rejects(
      sdkCall(caPath, 'getAccountInformation', { basePath: `${origin}/restapi`, accessToken: token, accountId: user.accountId }),
      (err: Error) => /"status":401/.test(err.message) && /AUTHORIZATION_INVALID_TOKEN/.test(err.message),
    );
  });

  await t.test('JWT assertions: the SDK\'s own works; iat in the future, a life over an hour and a replayed jti (on either instance) are refused', async () => {
    // Consent to impersonation first (DocuSign's consent_required otherwise).
    await tokenFor('signature impersonation');
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const sdk = await sdkCall<{ status: number; body: { access_token: string } }>(caPath, 'requestJWTUserToken', { authHost: origin.replace('https://', ''), clientId: app.integrationKey, userId: user.userId, scopes: ['signature', 'impersonation'], privateKey: privatePem });
    assert.equal(sdk.status, 200);
    assert.equal((await call('GET', account, sdk.body.access_token)).status, 200, 'the JWT token calls the API');

    const grant = async (jwt: string) => {
      const res = await request(`${origin}/oauth/token`, {
        method: 'POST', dispatcher: trusting, headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt }).toString(),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { error?: string; error_description?: string } };
    };
    const refusedWith = async (jwt: string, pattern: RegExp) => {
      const res = await grant(jwt);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, 'invalid_grant');
      assert.match(res.body.error_description ?? '', pattern);
    };
    const mint = (key: KeyObject, o: { iatOffset?: number; life?: number; jti?: string }) => {
      const iat = Math.floor(Date.now() / 1000) + (o.iatOffset ?? 0);
      const jwt = new SignJWT({ scope: 'signature impersonation' }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(app.integrationKey).setSubject(user.userId).setAudience(origin.replace('https://', '')).setIssuedAt(iat).setExpirationTime(iat + (o.life ?? 3600));
      if (o.jti !== undefined) jwt.setJti(o.jti);
      return jwt.sign(key);
    };
    await refusedWith(await mint(privateKey, { iatOffset: 3600 }), /future/);
    await refusedWith(await mint(privateKey, { life: 3601 }), /longer than 3600 seconds/);
    const once = await mint(privateKey, { jti: randomUUID() });
    assert.equal((await grant(once)).status, 200);
    // Round robin sends the replays to both instances: the store, not a process, remembers.
    for (let i = 0; i < 3; i++) await refusedWith(once, /used before/);
  });

  await t.test('the signing page refuses at Finish a drawn signature the stamp could not use; a good one completes', async () => {
    const token = await tokenFor('signature');
    const created = await call('POST', `${account}/envelopes`, token, {
      emailSubject: 'Gateway image checks', status: 'sent',
      documents: [{ documentId: '1', name: 'Agreement.pdf', fileExtension: 'pdf', documentBase64: Buffer.from(await samplePdf(1)).toString('base64') }],
      recipients: { signers: [{ email: 'drawer@example.com', name: 'Dana Drawer', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const envelopeId = String(created.body.envelopeId);
    const mail = await pollUntil(() => smtp.received.find((m) => m.subject === 'Gateway image checks'), { timeoutMs: 30_000, what: 'the invitation' });
    const link = /^(https:\/\/localhost:\d+\/signing\/\S+)$/m.exec(mail.text ?? '')?.[1] ?? assert.fail(`a signing link through the gateway in ${mail.text}`);
    const path = new URL(link).pathname;
    const finish = await drawnSignatureFinish(new FormClient(origin, trusting), path);
    await assertUnusableDrawingsRefused(finish);
    const status = async () => String((await call('GET', `${account}/envelopes/${envelopeId}`, token)).body.status);
    assert.equal(await status(), 'delivered', 'viewed, nothing signed');

    const good = await finish(makeSignaturePng(600, 200));
    assert.equal(good.status, 303, good.text);
    await pollUntil(async () => (await status()) === 'completed', { timeoutMs: 60_000, intervalMs: 250, what: 'the well-signed envelope to complete' });
  });
});
