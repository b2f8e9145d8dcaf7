import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../errors.ts';
import { normalizeEmail } from './email-address.ts';
import { expiryAfter, LIFETIMES } from './lifetimes.ts';
import { assertPasswordAcceptable } from './password-policy.ts';
import { isS256Challenge, pkceVerifies, s256Challenge } from './pkce.ts';
import { validateRedirectUri } from './redirect-uri.ts';
import { parseScopes, scopesCovered } from './scopes.ts';

test('PKCE S256 matches RFC 7636 Appendix B', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  assert.equal(s256Challenge(verifier), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  assert.equal(pkceVerifies(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'), true);
  assert.equal(pkceVerifies(`${verifier}x`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'), false);
  assert.equal(pkceVerifies('short', s256Challenge('short')), false, 'verifiers shorter than 43 characters are refused');
  assert.equal(isS256Challenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'), true);
  assert.equal(isS256Challenge('not a challenge'), false);
});

test('scopes: DocuSign\'s three plus openid; sorted and de-duplicated; unknown → undefined', () => {
  assert.deepEqual(parseScopes(undefined), ['signature']);
  assert.deepEqual(parseScopes(''), ['signature']);
  assert.deepEqual(parseScopes('signature  impersonation signature'), ['impersonation', 'signature']);
  assert.deepEqual(parseScopes('openid extended'), ['extended', 'openid']);
  assert.equal(parseScopes('signature admin'), undefined);
  assert.equal(scopesCovered(['signature'], ['impersonation', 'signature']), true);
  assert.equal(scopesCovered(['signature', 'extended'], ['signature']), false);
});

test('redirect URIs: absolute, no fragment, https except loopback', () => {
  const cases: Array<[string, boolean]> = [
    ['https://app.example/cb?x=1', true],
    ['http://localhost:3000/cb', true],
    ['http://127.0.0.1:8080/cb', true],
    ['http://[::1]/cb', true],
    ['com.example.app:/oauth', true],
    ['http://app.example/cb', false],
    ['https://app.example/cb#frag', false],
    ['/relative', false],
    ['javascript:alert(1)', false],
    ['data:text/html,x', false],
  ];
  for (const [uri, ok] of cases) {
    if (ok) assert.equal(validateRedirectUri(uri), uri);
    else assert.throws(() => validateRedirectUri(uri), (e: unknown) => e instanceof EsignError && e.code === 'INVALID_REDIRECT_URI', uri);
  }
});

test('e-mail addresses are trimmed and lower-cased; malformed ones refused', () => {
  assert.equal(normalizeEmail('  Ada@Example.COM '), 'ada@example.com');
  for (const good of ['first.last+tag@mail.example.co.uk', "o'brien@example.com", 'é@exämple.com', 'x@127.example']) assert.equal(normalizeEmail(good), good);
  // The second row came from the bad-input corpus (test/reliability): header and markup characters,
  // empty or hyphen-edged domain labels.
  for (const bad of ['ada', 'ada@', '@example.com', 'a b@example.com', 'ada@example',
    '<script>@example.com', 'a@example..com', 'a@-example.com', 'a..b@example.com', '.a@example.com', '"q"@example.com', 'a,b@example.com', 'a@exa_mple.com']) {
    assert.throws(() => normalizeEmail(bad), (e: unknown) => e instanceof EsignError && e.code === 'INVALID_EMAIL_ADDRESS', bad);
  }
});

test('password policy: 8 to 256 characters', () => {
  assert.throws(() => assertPasswordAcceptable('1234567'), /at least 8/);
  assertPasswordAcceptable('12345678');
  assert.throws(() => assertPasswordAcceptable('x'.repeat(257)), /at most 256/);
});

test('lifetimes are DocuSign\'s and expiries are ISO text', () => {
  assert.deepEqual([LIFETIMES.accessToken, LIFETIMES.refreshToken, LIFETIMES.jwtAccessToken], [28800, 2592000, 3600]);
  assert.equal(expiryAfter(new Date('2026-01-01T00:00:00.000Z'), 120), '2026-01-01T00:02:00.000Z');
});
