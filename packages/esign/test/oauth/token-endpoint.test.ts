import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { s256Challenge } from '../../src/domain/pkce.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEsign, seedUserAndApp, type Harness } from '../support/esign-harness.ts';
import { FormClient } from '../support/form-client.ts';

type Tokens = { access_token: string; token_type: string; refresh_token?: string; expires_in: number; scope: string };

// One logged-in browser per seeded user: after the first login and consent, each new code is a
// single redirect (and the test does not pay scrypt for every code).
const browsers = new WeakMap<object, FormClient>();

async function codeFor(h: Harness, seed: Awaited<ReturnType<typeof seedUserAndApp>>, extra: Record<string, string> = {}): Promise<string> {
  let client = browsers.get(seed);
  if (!client) browsers.set(seed, (client = new FormClient(h.origin)));
  const to = await authorizeViaForms(h, seed, extra, 'allow', client);
  const code = to.searchParams.get('code');
  assert.ok(code, `no code in ${to.toString()}`);
  return code;
}

async function userinfoStatus(h: Harness, token: string): Promise<number> {
  return (await new FormClient(h.origin).get('/oauth/userinfo', { authorization: `Bearer ${token}` })).status;
}

test('authorization_code with Basic auth as the SDK sends it: token response fields and headers', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const code = await codeFor(h, seed, { scope: 'signature extended' });
  const res = await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers.pragma, 'no-cache');
  const body = res.json() as Tokens;
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
  assert.equal(body.token_type, 'Bearer');
  assert.equal(body.expires_in, 28800);
  assert.equal(body.scope, 'extended signature');
  assert.notEqual(body.access_token, body.refresh_token);
  assert.equal(await userinfoStatus(h, body.access_token), 200);
  // Only hashes are stored.
  const stored = await h.store.db.kysely.selectFrom('tokens').select('token_hash').execute();
  assert.ok(stored.every((r) => r.token_hash !== body.access_token && r.token_hash !== body.refresh_token));
});

test('client authentication: wrong secret, no credentials, client_secret_post, revoked secret, second secret', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const code = await codeFor(h, seed);
  const wrong = await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: `${seed.secret}x` });
  assert.equal(wrong.status, 401);
  assert.deepEqual(wrong.json(), { error: 'invalid_client', error_description: 'The integration key or secret key is invalid.' });
  assert.match(String(wrong.headers['www-authenticate']), /^Basic/);
  const none = await tokenRequest(h, { grant_type: 'authorization_code', code });
  assert.equal(none.status, 401);
  assert.equal((none.json() as { error: string }).error, 'invalid_client');

  // A failed client authentication does not burn the code; client_secret_post redeems it.
  const post = await tokenRequest(h, { grant_type: 'authorization_code', code, client_id: seed.clientId, client_secret: seed.secret });
  assert.equal(post.status, 200, post.text);

  // Several live secrets each work; a revoked one stops working.
  const { newAppSecret } = await import('../../src/use-cases/app-credentials.ts');
  const second = newAppSecret();
  const secondId = await h.store.apps.addSecret(seed.clientId, second.hash, second.hint, h.clock.now());
  const code2 = await codeFor(h, seed);
  assert.equal((await tokenRequest(h, { grant_type: 'authorization_code', code: code2 }, { id: seed.clientId, secret: second.secret })).status, 200);
  await h.store.apps.revokeSecret(seed.clientId, secondId, h.clock.now());
  const code3 = await codeFor(h, seed);
  assert.equal((await tokenRequest(h, { grant_type: 'authorization_code', code: code3 }, { id: seed.clientId, secret: second.secret })).status, 401);
  assert.equal((await tokenRequest(h, { grant_type: 'authorization_code', code: code3 }, { id: seed.clientId, secret: seed.secret })).status, 200);
});

test('a replayed code is refused and revokes the tokens it issued', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const code = await codeFor(h, seed);
  const creds = { id: seed.clientId, secret: seed.secret };
  const first = await tokenRequest(h, { grant_type: 'authorization_code', code }, creds);
  const tokens = first.json() as Tokens;
  assert.equal(await userinfoStatus(h, tokens.access_token), 200);
  const replay = await tokenRequest(h, { grant_type: 'authorization_code', code }, creds);
  assert.equal(replay.status, 400);
  assert.equal((replay.json() as { error: string }).error, 'invalid_grant');
  assert.equal(await userinfoStatus(h, tokens.access_token), 401);
  const refresh = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }, creds);
  assert.equal(refresh.status, 400);
});

test('codes expire after 120 s (injected clock), belong to one client, and check redirect_uri only when sent', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h, { redirectUris: ['http://localhost:3000/one', 'http://localhost:3000/two'] });
  const other = await seedUserAndApp(h);
  const creds = { id: seed.clientId, secret: seed.secret };

  const late = await codeFor(h, seed);
  h.clock.advance(121);
  const expired = await tokenRequest(h, { grant_type: 'authorization_code', code: late }, creds);
  assert.equal(expired.status, 400);
  assert.deepEqual(expired.json(), { error: 'invalid_grant', error_description: 'The authorization code has expired.' });

  const justInTime = await codeFor(h, seed);
  h.clock.advance(119);
  assert.equal((await tokenRequest(h, { grant_type: 'authorization_code', code: justInTime }, creds)).status, 200);

  const stolen = await codeFor(h, seed);
  const byOther = await tokenRequest(h, { grant_type: 'authorization_code', code: stolen }, { id: other.clientId, secret: other.secret });
  assert.equal(byOther.status, 400);
  assert.equal((byOther.json() as { error: string }).error, 'invalid_grant');

  // The SDK omits redirect_uri even for an app with several: accepted.
  const omitted = await codeFor(h, seed, { redirect_uri: 'http://localhost:3000/two' });
  assert.equal((await tokenRequest(h, { grant_type: 'authorization_code', code: omitted }, creds)).status, 200);
  const mismatch = await codeFor(h, seed, { redirect_uri: 'http://localhost:3000/two' });
  const bad = await tokenRequest(h, { grant_type: 'authorization_code', code: mismatch, redirect_uri: 'http://localhost:3000/one' }, creds);
  assert.equal(bad.status, 400);
  assert.match((bad.json() as { error_description: string }).error_description, /redirect_uri/);
  const matching = await codeFor(h, seed, { redirect_uri: 'http://localhost:3000/two' });
  assert.equal((await tokenRequest(h, { grant_type: 'authorization_code', code: matching, redirect_uri: 'http://localhost:3000/two' }, creds)).status, 200);
});

test('PKCE S256 is verified when the authorization request used it', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const creds = { id: seed.clientId, secret: seed.secret };
  const verifier = 'v'.repeat(20) + 'erifier-0123456789-abcdefghij';
  const challenge = { code_challenge: s256Challenge(verifier), code_challenge_method: 'S256' };
  const missing = await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(h, seed, challenge) }, creds);
  assert.equal(missing.status, 400);
  const wrong = await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(h, seed, challenge), code_verifier: `${verifier}x` }, creds);
  assert.equal(wrong.status, 400);
  const right = await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(h, seed, challenge), code_verifier: verifier }, creds);
  assert.equal(right.status, 200, right.text);
});

test('refresh_token: new pair; the old refresh token is single use and its reuse revokes the grant', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const creds = { id: seed.clientId, secret: seed.secret };
  const first = (await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(h, seed) }, creds)).json() as Tokens;
  h.clock.advance(3600);
  const res = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: first.refresh_token ?? '' }, creds);
  assert.equal(res.status, 200, res.text);
  const second = res.json() as Tokens;
  assert.equal(second.expires_in, 28800);
  assert.equal(second.token_type, 'Bearer');
  assert.ok(second.refresh_token && second.refresh_token !== first.refresh_token);
  assert.equal(await userinfoStatus(h, second.access_token), 200);

  const reuse = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: first.refresh_token ?? '' }, creds);
  assert.equal(reuse.status, 400);
  assert.equal(await userinfoStatus(h, second.access_token), 401, 'reuse of a rotated refresh token revokes the grant');

  const widen = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: second.refresh_token ?? '', scope: 'signature impersonation' }, creds);
  assert.equal(widen.status, 400);
});

test('tokens expire: access after 8 h, refresh after 30 days', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const creds = { id: seed.clientId, secret: seed.secret };
  const tokens = (await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(h, seed) }, creds)).json() as Tokens;
  h.clock.advance(28799);
  assert.equal(await userinfoStatus(h, tokens.access_token), 200);
  h.clock.advance(2);
  assert.equal(await userinfoStatus(h, tokens.access_token), 401);
  h.clock.advance(30 * 86400);
  const res = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }, creds);
  assert.deepEqual(res.json(), { error: 'invalid_grant', error_description: 'The refresh token has expired.' });
});

test('malformed token requests get RFC 6749 errors', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const creds = { id: seed.clientId, secret: seed.secret };
  assert.deepEqual((await tokenRequest(h, { grant_type: 'password', username: 'a', password: 'b' }, creds)).json(), { error: 'unsupported_grant_type', error_description: 'grant_type password is not supported.' });
  assert.equal(((await tokenRequest(h, { code: 'x' }, creds)).json() as { error: string }).error, 'invalid_request');
  const unknownCode = await tokenRequest(h, { grant_type: 'authorization_code', code: 'nope' }, creds);
  assert.deepEqual(unknownCode.json(), { error: 'invalid_grant', error_description: 'The authorization code is invalid.' });
  const json = await new FormClient(h.origin).send('POST', '/oauth/token', undefined, { 'content-type': 'application/json' });
  assert.equal(json.status, 400);
  assert.equal((json.json() as { error: string }).error, 'invalid_request');
  const notFound = await new FormClient(h.origin).get('/oauth/nothing');
  assert.equal(notFound.status, 404);
});

test('JWT bearer grant: RS256 assertion against the registered key, consent required, DocuSign error reasons', async (t) => {
  const h = await startEsign(t);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const seed = await seedUserAndApp(h, { rsaPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const aud = h.origin.replace('https://', '').replace('http://', '');
  const assertion = (claims: { iss?: string; sub?: string; aud?: string }, key = privateKey) => {
    const now = Math.floor(h.clock.now().getTime() / 1000);
    return new SignJWT({ scope: 'signature impersonation' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(claims.iss ?? seed.clientId).setSubject(claims.sub ?? seed.userId).setAudience(claims.aud ?? aud)
      .setIssuedAt(now).setExpirationTime(now + 3600).sign(key);
  };
  const grant = async (jwt: string) => tokenRequest(h, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt });

  const noConsent = await grant(await assertion({}));
  assert.deepEqual(noConsent.json(), { error: 'consent_required', error_description: 'consent_required' });
  await authorizeViaForms(h, seed, { scope: 'signature impersonation' });

  const ok = await grant(await assertion({}));
  assert.equal(ok.status, 200, ok.text);
  const body = ok.json() as Tokens;
  assert.equal(body.token_type, 'Bearer');
  assert.equal(body.expires_in, 3600);
  assert.equal(body.refresh_token, undefined);
  assert.equal(await userinfoStatus(h, body.access_token), 200);

  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const reasons: Array<[Promise<string>, string]> = [
    [assertion({}, other), 'no_valid_keys_or_signatures'],
    [assertion({ aud: 'account-d.docusign.com' }), 'no_valid_keys_or_signatures'],
    [assertion({ iss: '00000000-0000-4000-8000-000000000000' }), 'issuer_not_found'],
    [assertion({ sub: '00000000-0000-4000-8000-000000000000' }), 'user_not_found'],
    [Promise.resolve('not.a.jwt'), 'no_valid_keys_or_signatures'],
  ];
  for (const [jwt, reason] of reasons) {
    const res = await grant(await jwt);
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), { error: 'invalid_grant', error_description: reason });
  }
  // An assertion past its exp (beyond the 60 s leeway) is refused.
  const signedNow = await assertion({});
  h.clock.advance(3600 + 61);
  assert.deepEqual((await grant(signedNow)).json(), { error: 'invalid_grant', error_description: 'no_valid_keys_or_signatures' });
});

test('userinfo in the DocuSign shape; revoke; missing and bad tokens', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const creds = { id: seed.clientId, secret: seed.secret };
  const tokens = (await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(h, seed) }, creds)).json() as Tokens;
  const info = await new FormClient(h.origin).get('/oauth/userinfo', { authorization: `Bearer ${tokens.access_token}` });
  const user = await h.store.accounts.findUserById(seed.userId);
  assert.deepEqual(info.json(), {
    sub: seed.userId,
    name: 'Ada Lovelace',
    given_name: 'Ada',
    family_name: 'Lovelace',
    created: user?.created_at,
    email: seed.email,
    accounts: [{ account_id: seed.accountId, is_default: true, account_name: 'Ada Lovelace', base_uri: h.origin }],
  });

  const none = await new FormClient(h.origin).get('/oauth/userinfo');
  assert.equal(none.status, 401);
  assert.deepEqual(none.json(), { error: 'invalid_token', error_description: 'The access token is expired, revoked or malformed.' });

  const wrongClient = await seedUserAndApp(h);
  const revokeOther = await new FormClient(h.origin).post('/oauth/revoke', { token: tokens.access_token }, { authorization: `Basic ${Buffer.from(`${wrongClient.clientId}:${wrongClient.secret}`).toString('base64')}` });
  assert.equal(revokeOther.status, 200);
  assert.equal(await userinfoStatus(h, tokens.access_token), 200, 'another client cannot revoke this token');

  const revoke = await new FormClient(h.origin).post('/oauth/revoke', { token: tokens.access_token, token_type_hint: 'access_token' }, { authorization: `Basic ${Buffer.from(`${seed.clientId}:${seed.secret}`).toString('base64')}` });
  assert.equal(revoke.status, 200);
  assert.equal(await userinfoStatus(h, tokens.access_token), 401);
  const revokeRefresh = await new FormClient(h.origin).post('/oauth/revoke', { token: tokens.refresh_token ?? '', client_id: seed.clientId, client_secret: seed.secret });
  assert.equal(revokeRefresh.status, 200);
  assert.equal((await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }, creds)).status, 400);
  const unauthenticated = await new FormClient(h.origin).post('/oauth/revoke', { token: 'x' });
  assert.equal(unauthenticated.status, 401);
});
