// OAuth 2.0 and web security (RFC 9700 "Best Current Practice for OAuth 2.0
// Security"): redirect_uri tampering (§4.1), open redirects (§4.11), CSRF on forms (§4.7),
// session fixation, code replay (§4.2.4), brute force, secrets in logs, security headers, XSS
// in pages and mails, signing links (unguessable, scoped). Real HTTP against a real esign.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { buildConverter } from '@signet/pdf';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { authQuery, authorizeViaForms, logIn, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient, formFields, hiddenField } from '../support/form-client.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';
import { signedInIntegration, startEsignUnderTest } from '../reliability/esign-under-test.ts';

test('RFC 9700 §4.1: every tampered redirect_uri gets an error page, never a redirect', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h, { redirectUris: ['https://app.example.com/callback'] });
  const tampered = [
    'https://app.example.com/callback/',
    'https://app.example.com/callback/../evil',
    'https://app.example.com/callback?next=https://evil.example',
    'https://app.example.com/callback#frag',
    'https://app.example.com/callbackx',
    'https://app.example.com.evil.example/callback',
    'https://app.example.com@evil.example/callback',
    'https://evil.example/callback',
    'http://app.example.com/callback',
    'HTTPS://APP.EXAMPLE.COM/callback',
    'https://app.example.com:443/callback',
    'https://app.example.com%2F@evil.example/callback',
    '//evil.example/callback',
    'javascript:alert(1)//https://app.example.com/callback',
    'data:text/html,<script>alert(1)</script>',
    'https://app.example.com/Callback',
  ];
  for (const uri of tampered) {
    const res = await new FormClient(h.origin).get(authQuery({ response_type: 'code', client_id: seed.clientId, scope: 'signature', redirect_uri: uri, state: 's' }));
    assert.equal(res.headers.location, undefined, `${uri} redirected to ${String(res.headers.location)}`);
    assert.ok(res.status === 400, `${uri}: ${res.status}`);
    assert.doesNotMatch(res.text, /<script>alert/);
  }
});

test('RFC 9700 §4.11: login return_to never leaves the site (open redirect attempts)', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  const attempts = ['https://evil.example/', '//evil.example/', '/\\evil.example/', '/\t/evil.example/', '\\\\evil.example', 'javascript:alert(1)', '/%2F%2Fevil.example', 'http:evil.example', ' //evil.example', '/console\r\nLocation: https://evil.example'];
  for (const returnTo of attempts) {
    const client = new FormClient(h.origin);
    const page = await client.get(`/login?return_to=${encodeURIComponent(returnTo)}`);
    const answer = await client.post('/login', { _csrf: hiddenField(page.text, '_csrf'), return_to: returnTo, email: seed.email, password: seed.password });
    assert.equal(answer.status, 303, `${returnTo}: ${answer.text.slice(0, 200)}`);
    const location = String(answer.headers.location);
    const resolved = new URL(location, h.origin);
    assert.equal(resolved.origin, h.origin, `${JSON.stringify(returnTo)} → ${location}`);
    assert.ok(!/[\r\n]/.test(location));
  }
});

test('CSRF: login, consent and logout forms refuse a missing token and a token from another session', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  const victim = new FormClient(h.origin);
  const attacker = new FormClient(h.origin);
  const attackerPage = await attacker.get('/login');
  const attackerToken = hiddenField(attackerPage.text, '_csrf');
  await victim.get('/login');
  // Login CSRF (a victim logged into the attacker's account): missing or foreign token.
  assert.equal((await victim.post('/login', { email: seed.email, password: seed.password })).status, 403);
  assert.equal((await victim.post('/login', { _csrf: attackerToken, email: seed.email, password: seed.password })).status, 403);
  // Consent: a signed-in victim; the attacker's form posts an Allow with the attacker's token.
  const query = authQuery({ response_type: 'code', scope: 'signature', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 'x' });
  const login = await victim.get(query);
  await logIn(victim, login.text, seed.email, seed.password);
  const consent = await victim.get(query);
  assert.match(consent.text, />Allow</);
  const fields = formFields(consent.text, '/oauth/auth/decision');
  const forged = await victim.post('/oauth/auth/decision', { ...fields, _csrf: attackerToken, decision: 'allow' });
  assert.equal(forged.status, 403);
  assert.equal(forged.headers.location, undefined);
  const { _csrf: _dropped, ...withoutToken } = fields;
  assert.equal((await victim.post('/oauth/auth/decision', { ...withoutToken, decision: 'allow' })).status, 403);
  assert.equal((await victim.post('/logout', {})).status, 403);
});

test('session fixation: an attacker-chosen session cookie is never adopted; login issues a new id', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const fixed = 'attacker-chosen-session-id-0123456789abcdef';
  const page = await client.get('/login', { cookie: `signet_session=${fixed}` });
  const answer = await client.post('/login', { _csrf: hiddenField(page.text, '_csrf'), return_to: '/console', email: seed.email, password: seed.password });
  assert.equal(answer.status, 303);
  const issued = client.cookie('signet_session');
  assert.ok(issued !== undefined && issued !== fixed);
  // The fixed id is worth nothing after the victim's login.
  const asAttacker = await new FormClient(h.origin).get('/console', { cookie: `signet_session=${fixed}` });
  assert.notEqual(asAttacker.status, 200);
  // The issued cookie is HttpOnly and SameSite.
  const setCookie = String(answer.headers['set-cookie']);
  assert.match(setCookie, /HttpOnly/i);
  assert.match(setCookie, /SameSite=Lax/i);
});

test('RFC 9700 §4.2.4: a replayed code is refused, and a code is bound to its client and redirect_uri', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  const other = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const first = await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret });
  assert.equal(first.status, 200);
  const replay = await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret });
  assert.equal(replay.status, 400);
  assert.equal((replay.json() as { error: string }).error, 'invalid_grant');
  // The first token dies with the replay (RFC 6749 §4.1.2 SHOULD).
  const { access_token: token } = first.json() as { access_token: string };
  const info = await request(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  await info.body.text();
  assert.equal(info.statusCode, 401);
  const code2 = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const stolen = await tokenRequest(h, { grant_type: 'authorization_code', code: code2 }, { id: other.clientId, secret: other.secret });
  assert.equal(stolen.status, 400);
  const code3 = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const wrongUri = await tokenRequest(h, { grant_type: 'authorization_code', code: code3, redirect_uri: 'https://evil.example/cb' }, { id: seed.clientId, secret: seed.secret });
  assert.equal(wrongUri.status, 400);
});

test('brute force: the login form locks an address after 5 failures; guessed client secrets and tokens never succeed', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  let page = await client.get('/login');
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const answer = await client.post('/login', { _csrf: hiddenField(page.text, '_csrf'), email: seed.email, password: `guess-${i}-xxxx` });
    statuses.push(answer.status);
    page = answer;
  }
  assert.deepEqual(statuses.slice(-1), [429]);
  const locked = await client.post('/login', { _csrf: hiddenField(page.text, '_csrf'), email: seed.email, password: seed.password });
  assert.equal(locked.status, 429, 'the right password gets in while locked');
  // Token endpoint: 30 near misses (the secret with one character changed) are all invalid_client
  // (401); none is accepted. Each guess differs from the secret by construction: replacing the
  // last two characters with digits once hit the real secret (about 1 run in 110).
  for (let i = 0; i < 30; i++) {
    const at = i % seed.secret.length;
    const guess = `${seed.secret.slice(0, at)}${seed.secret[at] === 'A' ? 'B' : 'A'}${seed.secret.slice(at + 1)}`;
    assert.notEqual(guess, seed.secret);
    const answer = await tokenRequest(h, { grant_type: 'authorization_code', code: 'x' }, { id: seed.clientId, secret: guess });
    assert.equal(answer.status, 401);
  }
  // Guessed bearer tokens on the API: 401, DocuSign shape.
  for (const guess of ['', 'a', 'x'.repeat(43), `${'A'.repeat(42)}=`]) {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes?from_date=2000-01-01`, { headers: { authorization: `Bearer ${guess}` } });
    const body = (await res.body.json()) as { errorCode: string };
    assert.equal(res.statusCode, 401);
    assert.match(body.errorCode, /^[A-Z_]+$/);
  }
});

test('secrets and tokens never appear in the server log (passwords, client secrets, codes, tokens, session ids)', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  const client = new FormClient(h.origin);
  const redirect = await authorizeViaForms(h, seed, {}, 'allow', client);
  const code = redirect.searchParams.get('code') ?? '';
  const tokens = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string; refresh_token: string };
  const refreshed = (await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  // Errors are logged too: a bad grant, a failed login, a 404 with a token-looking path.
  await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret });
  const page = await new FormClient(h.origin).get('/login');
  await new FormClient(h.origin).post('/login', { _csrf: hiddenField(page.text, '_csrf'), email: seed.email, password: 'wrong password 123' });
  for (const token of [tokens.access_token, refreshed.access_token]) {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes?from_date=2000-01-01`, { headers: { authorization: `Bearer ${token}` } });
    await res.body.text();
  }
  const secrets = { password: seed.password, clientSecret: seed.secret, code, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, refreshedAccess: refreshed.access_token, session: client.cookie('signet_session') ?? 'none', wrongPassword: 'wrong password 123' };
  assert.ok(h.logs.length > 5, `only ${h.logs.length} log lines: is logging on?`);
  const all = h.logs.join('\n');
  for (const [name, value] of Object.entries(secrets)) assert.ok(!all.includes(value), `the log contains the ${name}`);
  assert.doesNotMatch(all, /authorization"\s*:\s*"(Bearer|Basic)/i);
});

test('security headers on pages, API answers and error pages', async (t) => {
  const h = await startEsignUnderTest(t);
  const seed = await seedUserAndApp(h);
  for (const path of ['/login', '/signup', '/console', authQuery({ response_type: 'code', client_id: seed.clientId, scope: 'signature' }), '/no-such-page', '/signing/not-a-token', `/restapi/v2.1/accounts/${seed.accountId}/envelopes`]) {
    const res = await request(`${h.origin}${path}`);
    await res.body.text();
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /frame-ancestors 'none'/, path);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|script-src [^;]*\*/, path);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
    assert.equal(res.headers['x-frame-options'], 'DENY', path);
    // Plain http here: HSTS must not be sent (RFC 6797 §7.2); server.test.ts covers https.
    assert.equal(res.headers['strict-transport-security'], undefined, path);
  }
});

test('XSS: names and subjects are escaped in the consent page, the mails and the signing page; signing links are unguessable, scoped and CSRF-protected', async (t) => {
  const smtp = await startSmtpListener(t);
  const converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
  t.after(() => converter.close());
  const h = await startEsignUnderTest(t, { converter, smtpUrl: smtp.url });
  const me = await signedInIntegration(h);
  const XSS = '<img src=x onerror=alert(1)><script>alert(2)</script>"\'&';
  const pdfDoc = await PDFDocument.create();
  pdfDoc.addPage([612, 792]);
  const pdf = Buffer.from(await pdfDoc.save()).toString('base64');
  const create = async (email: string) => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${me.accountId}/envelopes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        status: 'sent',
        emailSubject: `Subject ${XSS}`.slice(0, 100),
        emailBlurb: `Blurb ${XSS}`,
        documents: [{ documentId: '1', name: `Doc ${XSS}.pdf`, fileExtension: 'pdf', documentBase64: pdf }],
        recipients: { signers: [{ email, name: `Name ${XSS}`, recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] },
      }),
    });
    const text = await res.body.text();
    assert.equal(res.statusCode, 201, text);
    return (JSON.parse(text) as { envelopeId: string }).envelopeId;
  };
  const first = await create('alice@example.com');
  const second = await create('bob@example.com');
  await pollUntil(() => smtp.received.length >= 2 || undefined, { timeoutMs: 20_000, intervalMs: 50, what: 'two signing mails' });
  const links: string[] = [];
  for (const mail of smtp.received) {
    const html = String(mail.html);
    assert.doesNotMatch(html, /<script>alert|<img src=x/i, 'raw markup in the mail HTML');
    assert.match(html, /&lt;script&gt;|&lt;img/);
    assert.doesNotMatch(String(mail.subject), /[\r\n]/);
    const link = /https?:\/\/\S+\/signing\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
    assert.ok(link, `no signing link in ${mail.text}`);
    links.push(link);
  }
  const [alice, bob] = links as [string, string];
  for (const link of links) {
    const token = link.split('/signing/')[1] ?? '';
    // ≥ 128 bits: base64url of at least 16 random bytes.
    assert.ok(token.length >= 22, `signing token of ${token.length} characters`);
    const page = await request(link);
    const html = await page.body.text();
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(html, /<script>alert|<img src=x/i, 'raw markup in the signing page');
    assert.match(html, /Sign here/);
    // One changed character is an unknown link, not someone else's envelope.
    const flipped = link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A');
    const guessed = await request(flipped);
    const guessedText = await guessed.body.text();
    assert.ok(guessed.statusCode >= 400 && guessed.statusCode < 500, `${guessed.statusCode}`);
    assert.ok(!guessedText.includes(first) && !guessedText.includes(second));
  }
  // CSRF on the signing forms: Finish and Decline without the page's token, or with a token
  // from another browser session, are refused and change nothing.
  const alicePath = new URL(alice).pathname;
  const victim = new FormClient(h.origin);
  await victim.get(alicePath);
  const attacker = new FormClient(h.origin);
  const attackerToken = hiddenField((await attacker.get(alicePath)).text, '_csrf');
  for (const action of ['finish', 'decline']) {
    const form = { signatureKind: 'typed', signatureText: 'Forged', signedTabs: '', reason: 'forged' };
    assert.equal((await victim.post(`${alicePath}/${action}`, form)).status, 403, `${action} without a token`);
    assert.equal((await victim.post(`${alicePath}/${action}`, { ...form, _csrf: attackerToken })).status, 403, `${action} with another session's token`);
  }
  const stillOpen = await victim.get(alicePath);
  assert.match(stillOpen.text, /Sign here/);
  // Scoped: Alice's link shows Alice's envelope and not Bob's; links carry no envelope id.
  assert.ok(!alice.includes(first) && !bob.includes(second));
  const alicePage = await (await request(alice)).body.text();
  assert.ok(!alicePage.includes('bob@example.com'));
  // A signing link is not an API credential.
  const asBearer = await request(`${h.origin}/restapi/v2.1/accounts/${me.accountId}/envelopes/${first}`, { headers: { authorization: `Bearer ${alice.split('/signing/')[1] ?? ''}` } });
  await asBearer.body.text();
  assert.equal(asBearer.statusCode, 401);
  // The consent page escapes an app name chosen by a developer.
  const evil = await seedUserAndApp(h);
  await h.store.db.kysely.updateTable('apps').set({ name: XSS }).where('id', '=', evil.clientId).execute();
  const consent = await authorizeConsentPage(h.origin, evil);
  assert.doesNotMatch(consent, /<script>alert|<img src=x/i);
  assert.match(consent, /&lt;script&gt;alert\(2\)&lt;\/script&gt;/, 'the app name is not shown at all');
});

async function authorizeConsentPage(origin: string, seed: { clientId: string; email: string; password: string; redirectUris: string[] }): Promise<string> {
  const client = new FormClient(origin);
  const query = authQuery({ response_type: 'code', scope: 'signature', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 's' });
  const login = await client.get(query);
  await logIn(client, login.text, seed.email, seed.password);
  const consent = await client.get(query);
  assert.equal(consent.status, 200);
  return consent.text;
}
