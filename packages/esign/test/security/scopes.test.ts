// OAuth scopes are enforced (an `openid` token reads nothing of the eSignature API), and JWT
// bearer assertions are bounded: no iat in the future, no life over DocuSign's hour, no replay
// of an assertion that names itself (jti). Real HTTP against a real esign.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEsign, seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient } from '../support/form-client.ts';

type Tokens = { access_token: string; scope: string };

test('a token without the signature scope reaches only userinfo: envelopes, the account and Connect answer DocuSign\'s 401', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const tokenFor = async (scope: string): Promise<Tokens> => {
    const to = await authorizeViaForms(h, seed, { scope }, 'allow', client);
    const res = await tokenRequest(h, { grant_type: 'authorization_code', code: to.searchParams.get('code') ?? '' }, { id: seed.clientId, secret: seed.secret });
    assert.equal(res.status, 200, res.text);
    return res.json() as Tokens;
  };
  const base = `/restapi/v2.1/accounts/${seed.accountId}`;
  const calls = [
    ['GET', base],
    ['GET', `${base}/envelopes?from_date=2020-01-01`],
    ['POST', `${base}/envelopes`],
    ['GET', `${base}/connect`],
    ['POST', `${base}/connect`],
  ] as const;
  for (const scope of ['openid', 'openid email profile', 'impersonation', 'extended']) {
    const { access_token: token } = await tokenFor(scope);
    for (const [method, path] of calls) {
      const res = await request(new URL(path, h.origin), { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{"status":"sent"}' } : {}) });
      const body = (await res.body.json()) as { errorCode: string; message: string };
      assert.equal(res.statusCode, 401, `${scope}: ${method} ${path}: ${JSON.stringify(body)}`);
      assert.equal(body.errorCode, 'AUTHORIZATION_INVALID_TOKEN');
      assert.match(body.message, /signature scope/);
    }
    const info = await client.get('/oauth/userinfo', { authorization: `Bearer ${token}` });
    assert.equal(info.status, 200, `${scope}: userinfo`);
  }
  const { access_token: signature } = await tokenFor('signature');
  assert.equal((await client.get(base, { authorization: `Bearer ${signature}` })).status, 200);
  assert.equal((await client.get('/oauth/userinfo', { authorization: `Bearer ${signature}` })).status, 200, 'the SDK reads userinfo with a signature token');
});

test('JWT assertions: iat in the future, a life over one hour and a replayed jti are refused; an impersonation-only token cannot call the API', async (t) => {
  const h = await startEsign(t);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const seed = await seedUserAndApp(h, { rsaPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  await authorizeViaForms(h, seed, { scope: 'signature impersonation' });
  const aud = h.origin.replace(/^https?:\/\//, '');
  const assertion = (o: { iatOffset?: number; life?: number; jti?: string; scope?: string } = {}) => {
    const iat = Math.floor(h.clock.now().getTime() / 1000) + (o.iatOffset ?? 0);
    const jwt = new SignJWT({ scope: o.scope ?? 'signature impersonation' }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(seed.clientId).setSubject(seed.userId).setAudience(aud).setIssuedAt(iat).setExpirationTime(iat + (o.life ?? 3600));
    if (o.jti !== undefined) jwt.setJti(o.jti);
    return jwt.sign(privateKey);
  };
  const grant = async (jwt: string) => tokenRequest(h, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt });
  const refusedWith = async (jwt: string, pattern: RegExp) => {
    const res = await grant(jwt);
    assert.equal(res.status, 400, res.text);
    const body = res.json() as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_grant');
    assert.match(body.error_description, pattern);
  };

  // Minted for later: iat an hour ahead (exp two hours ahead, so it is not yet expired either).
  await refusedWith(await assertion({ iatOffset: 3600 }), /future/);
  // Longer than DocuSign's hour.
  await refusedWith(await assertion({ life: 3601 }), /longer than 3600 seconds/);
  await refusedWith(await assertion({ iatOffset: -60, life: 24 * 3600 }), /longer than 3600 seconds/);
  // Within bounds, with a little clock skew, works; the same jti twice does not.
  assert.equal((await grant(await assertion({ iatOffset: 30, life: 3600 }))).status, 200);
  const jti = randomUUID();
  const once = await assertion({ jti });
  assert.equal((await grant(once)).status, 200);
  await refusedWith(once, /used before/);
  await refusedWith(await assertion({ jti }), /used before/);
  // Without jti an assertion may be exchanged again within its life, as DocuSign allows.
  const noJti = await assertion();
  assert.equal((await grant(noJti)).status, 200);
  assert.equal((await grant(noJti)).status, 200);

  // impersonation alone lets the app ask for tokens, not call the eSignature API.
  const impersonationOnly = await grant(await assertion({ scope: 'impersonation' }));
  assert.equal(impersonationOnly.status, 200, impersonationOnly.text);
  const token = (impersonationOnly.json() as Tokens).access_token;
  const api = await new FormClient(h.origin).get(`/restapi/v2.1/accounts/${seed.accountId}`, { authorization: `Bearer ${token}` });
  assert.equal(api.status, 401);
  assert.equal((api.json() as { errorCode: string }).errorCode, 'AUTHORIZATION_INVALID_TOKEN');
});
