import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { createCertificateAuthority, issueCertificate } from '@signet/kit';
import { APPLICATION_TOKEN_REFUSED } from '../../src/oauth/grants/jwt-bearer-grant.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';

// The child-process runner of the real SDK that test/compat/docusign-sdk.test.ts uses.
const STEP = join(dirname(fileURLToPath(import.meta.url)), '..', 'compat', 'sdk-step.mjs');
type StepResult = { ok: true; value: unknown } | { ok: false; status?: number; data?: unknown; code?: string; message: string };

const REFUSED = { error: 'invalid_grant', error_description: APPLICATION_TOKEN_REFUSED };

test('a JWT grant without sub (an application-access token) is invalid_grant saying why, after the key check', async (t) => {
  const h = await startEsign(t);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const seed = await seedUserAndApp(h, { rsaPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  // The user has consented to impersonation, so a user token would be granted.
  await authorizeViaForms(h, seed, { scope: 'signature impersonation' });
  const aud = h.origin.replace('http://', '');
  const assertion = (claims: { iss?: string; sub?: string }, key = privateKey) => {
    const now = Math.floor(h.clock.now().getTime() / 1000);
    const jwt = new SignJWT({ scope: 'signature impersonation' }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(claims.iss ?? seed.clientId).setAudience(aud).setIssuedAt(now).setExpirationTime(now + 3600);
    return (claims.sub === undefined ? jwt : jwt.setSubject(claims.sub)).sign(key);
  };
  const grant = async (jwt: string) => {
    const res = await tokenRequest(h, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt });
    return [res.status, res.json()];
  };

  assert.deepEqual(await grant(await assertion({})), [400, REFUSED], 'no sub');
  assert.deepEqual(await grant(await assertion({ sub: '' })), [400, REFUSED], 'empty sub');
  assert.deepEqual(await grant(await assertion({ sub: seed.clientId })), [400, REFUSED], 'the integration key as sub (DocuSign: an application token too)');
  // Who may learn that: only the holder of a registered key. Bad keys and issuers keep DocuSign's reasons.
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  assert.deepEqual(await grant(await assertion({}, other)), [400, { error: 'invalid_grant', error_description: 'no_valid_keys_or_signatures' }]);
  assert.deepEqual(await grant(await assertion({ iss: '00000000-0000-4000-8000-000000000000' })), [400, { error: 'invalid_grant', error_description: 'issuer_not_found' }]);
  // The same app and key with the user's id as sub get a user token.
  const [status, body] = await grant(await assertion({ sub: seed.userId }));
  assert.equal(status, 200);
  assert.equal((body as { token_type: string }).token_type, 'Bearer');
});

test("the real SDK's requestJWTApplicationToken over https gets that OAuth error", async (t) => {
  // The SDK insists on https for OAuth: TLS with a test CA that the SDK child trusts.
  const ca = createCertificateAuthority({ commonName: 'Signet test CA' });
  const leaf = issueCertificate({ commonName: '127.0.0.1', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }, ca);
  const dir = mkdtempSync(join(tmpdir(), 'signet-jwt-app-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  const h = await startEsign(t, { https: { key: leaf.keyPem, cert: leaf.certPem } });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const seed = await seedUserAndApp(h, { rsaPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const sdk = (step: string, args: Record<string, unknown>) =>
    new Promise<StepResult>((resolve, reject) => {
      execFile(process.execPath, [STEP, JSON.stringify({ step, authHost: h.origin.replace('https://', ''), ...args })], { env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile }, timeout: 60_000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`sdk step ${step} failed: ${stderr}`, { cause: err }));
        else resolve(JSON.parse(stdout) as StepResult);
      });
    });

  const refused = await sdk('requestJWTApplicationToken', { clientId: seed.clientId, scopes: ['signature', 'impersonation'], privateKey: privatePem });
  assert.deepEqual(refused.ok ? refused : [refused.status, refused.data], [400, REFUSED]);
});
