import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp } from '../../src/use-cases/create-app.ts';
import { authorizeViaForms, authQuery, logIn } from '../support/authorize.ts';
import { startEsign, seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient, formFields } from '../support/form-client.ts';

test('GET /oauth/auth: an unknown client or an unregistered redirect_uri gets an error page, never a redirect', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h, { redirectUris: ['http://localhost:3000/a', 'https://app.example/b'] });
  const client = new FormClient(h.origin);
  const cases: Array<[Record<string, string | undefined>, RegExp]> = [
    [{ client_id: '00000000-0000-4000-8000-000000000000', redirect_uri: 'http://localhost:3000/a' }, /invalid_client/],
    [{ client_id: seed.clientId, redirect_uri: 'http://localhost:3000/a/' }, /not registered/],
    [{ client_id: seed.clientId, redirect_uri: 'http://evil.example/a' }, /not registered/],
    // Two URIs registered: redirect_uri cannot be omitted (RFC 6749 §3.1.2.3).
    [{ client_id: seed.clientId, redirect_uri: undefined }, /redirect_uri parameter is missing/],
    [{ client_id: undefined, redirect_uri: 'http://localhost:3000/a' }, /client_id parameter is missing/],
  ];
  for (const [params, message] of cases) {
    const res = await client.get(authQuery({ response_type: 'code', scope: 'signature', state: 's', ...params }));
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.equal(res.headers.location, undefined);
    assert.match(res.text, message);
    assert.match(String(res.headers['content-type']), /text\/html/);
  }
});

test('GET /oauth/auth: other bad parameters go back to the registered redirect_uri with error and state', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h, { redirectUris: ['http://localhost:3000/cb?keep=1'] });
  const client = new FormClient(h.origin);
  const cases: Array<[Record<string, string>, string]> = [
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'signature admin' }, 'invalid_scope'],
    [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
  ];
  for (const [params, error] of cases) {
    const res = await client.get(authQuery({ response_type: 'code', scope: 'signature', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 'xyz', ...params }));
    assert.equal(res.status, 303);
    const to = new URL(String(res.headers.location));
    assert.equal(`${to.origin}${to.pathname}`, 'http://localhost:3000/cb');
    assert.equal(to.searchParams.get('keep'), '1');
    assert.equal(to.searchParams.get('error'), error);
    assert.equal(to.searchParams.get('state'), 'xyz');
  }
});

test('login, consent with Allow, then no consent page the second time; code and state come back', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const first = await client.get(authQuery({ response_type: 'code', scope: 'signature extended', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 'abc' }));
  assert.equal(first.status, 200);
  assert.match(first.text, /<input id="email" type="email"/);
  assert.match(first.text, /<input id="password" type="password"/);
  assert.match(first.text, /<button type="submit">Log in<\/button>/);
  assert.match(String(first.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.equal(first.headers['x-frame-options'], 'DENY');
  assert.equal(first.headers['strict-transport-security'], undefined, 'no HSTS over plain http');

  const wrong = await logIn(client, first.text, seed.email, 'not the password');
  assert.equal(wrong.status, 401);
  assert.match(wrong.text, /One or both of Username and Password are invalid/);
  const unknown = await logIn(client, first.text, 'nobody@example.com', seed.password);
  assert.equal(unknown.status, 401);

  const ok = await logIn(client, first.text, seed.email.toUpperCase(), seed.password);
  assert.equal(ok.status, 303);
  const session = /signet_session=[^;]+;([^,]*)/.exec(String(ok.headers['set-cookie']));
  assert.ok(session, 'session cookie set');
  assert.match(session[0], /HttpOnly/);
  assert.match(session[0], /SameSite=Lax/);
  assert.doesNotMatch(session[0], /Secure/, 'http public URL: no Secure flag');

  const consent = await client.get(String(ok.headers.location));
  assert.equal(consent.status, 200);
  assert.match(consent.text, /<button type="submit" name="decision" value="allow">Allow<\/button>/);
  assert.match(consent.text, /<button type="submit" name="decision" value="deny" class="secondary">Deny<\/button>/);
  const allowed = await client.post('/oauth/auth/decision', { ...formFields(consent.text, '/oauth/auth/decision'), decision: 'allow' });
  assert.equal(allowed.status, 303);
  const to = new URL(String(allowed.headers.location));
  assert.equal(to.searchParams.get('state'), 'abc');
  assert.match(to.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);

  // Consent is remembered: the next request goes straight back with a new code.
  const again = await client.get(authQuery({ response_type: 'code', scope: 'signature', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 'def' }));
  assert.equal(again.status, 302);
  const back = new URL(String(again.headers.location));
  assert.equal(back.searchParams.get('state'), 'def');
  assert.notEqual(back.searchParams.get('code'), to.searchParams.get('code'));

  // "Use another account" signs out and comes back to the same request's login page.
  const consentAgain = await client.get(authQuery({ response_type: 'code', scope: 'signature impersonation', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 'ghi' }));
  const switchForm = formFields(consentAgain.text, '/logout');
  const switched = await client.post('/logout', switchForm);
  assert.equal(switched.status, 303);
  const resumed = await client.get(String(switched.headers.location));
  assert.match(resumed.text, /type="password"/);
  assert.match(resumed.text, /state=ghi/);
  const relogin = await logIn(client, resumed.text, seed.email, seed.password);
  assert.equal(relogin.status, 303);

  // A wider scope than consented asks again.
  const wider = await client.get(authQuery({ response_type: 'code', scope: 'signature impersonation', client_id: seed.clientId, redirect_uri: seed.redirectUris[0] }));
  assert.equal(wider.status, 200);
  assert.match(wider.text, /impersonation/);
});

test('Deny redirects with error=access_denied and the state', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const to = await authorizeViaForms(h, seed, { state: 'keep me' }, 'deny');
  assert.equal(to.searchParams.get('error'), 'access_denied');
  assert.equal(to.searchParams.get('state'), 'keep me');
  assert.equal(to.searchParams.get('code'), null);
});

test('the consent and login forms are CSRF-protected', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const page = await client.get(authQuery({ response_type: 'code', client_id: seed.clientId, redirect_uri: seed.redirectUris[0] }));
  const noToken = await client.post('/login', { email: seed.email, password: seed.password, return_to: '/console' });
  assert.equal(noToken.status, 403);
  assert.match(noToken.text, /did not come from this site/);
  const login = await logIn(client, page.text, seed.email, seed.password);
  assert.equal(login.status, 303);
  const consent = await client.get(String(login.headers.location));
  const fields = formFields(consent.text, '/oauth/auth/decision');
  const forged = await client.post('/oauth/auth/decision', { ...fields, _csrf: 'A'.repeat(43), decision: 'allow' });
  assert.equal(forged.status, 403);
  assert.equal(forged.headers.location, undefined);
  // A fresh client (another browser: no cookie) cannot replay the form either.
  const other = await new FormClient(h.origin).post('/oauth/auth/decision', { ...fields, decision: 'allow' });
  assert.equal(other.status, 403);
});

test('login never redirects off-site, and redirect_uri may be omitted when only one is registered', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const page = await client.get('/login?return_to=//evil.example/x');
  const login = await logIn(client, page.text, seed.email, seed.password);
  assert.equal(login.headers.location, '/console');
  const res = await client.get(authQuery({ response_type: 'code', client_id: seed.clientId, state: 's' }));
  assert.equal(res.status, 200);
  assert.match(res.text, />Allow</);
  assert.equal(formFields(res.text, '/oauth/auth/decision').redirect_uri, seed.redirectUris[0]);
});

test('an app with several redirect URIs answers at the one that was asked for', async (t) => {
  const h = await startEsign(t);
  const seed = await seedUserAndApp(h, { redirectUris: ['http://localhost:3000/one', 'http://127.0.0.1:4000/two'] });
  const to = await authorizeViaForms(h, seed, { redirect_uri: 'http://127.0.0.1:4000/two' });
  assert.equal(`${to.origin}${to.pathname}`, 'http://127.0.0.1:4000/two');
  assert.ok(to.searchParams.get('code'));
  // A second app of the same user does not inherit the first one's consent.
  const other = await createApp(h.store, { userId: seed.userId, name: 'Other', redirectUris: ['http://localhost:3000/one'], withSecret: true, now: h.clock.now() });
  const client = new FormClient(h.origin);
  const page = await client.get(authQuery({ response_type: 'code', client_id: other.app.id }));
  const login = await logIn(client, page.text, seed.email, seed.password);
  const consent = await client.get(String(login.headers.location));
  assert.match(consent.text, />Allow</);
});
