import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OAuthError } from '../errors.ts';
import { parseAuthorizationParams, redirectWith } from './authorization-request.ts';

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

test('authorization parameters: response_type code, known scopes, optional S256 PKCE', () => {
  assert.deepEqual(parseAuthorizationParams({ response_type: 'code', scope: 'signature extended', state: 's' }), { scopes: ['extended', 'signature'], state: 's', codeChallenge: undefined });
  assert.deepEqual(parseAuthorizationParams({ response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' }), { scopes: ['signature'], state: undefined, codeChallenge: challenge });
  assert.deepEqual(parseAuthorizationParams({ response_type: 'code', scope: 'openid email profile' }).scopes, ['email', 'openid', 'profile']);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ response_type: 'code', scope: 'cors' }, 'invalid_scope'],
    [{ response_type: 'code', code_challenge: challenge }, 'invalid_request'],
    [{ response_type: 'code', code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request'],
    [{ response_type: 'code', code_challenge_method: 'S256' }, 'invalid_request'],
    [{ response_type: 'code', code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    [{ response_type: 'code', state: ['a', 'b'] }, 'invalid_request'],
  ];
  for (const [params, error] of cases) {
    assert.throws(() => parseAuthorizationParams(params), (e: unknown) => e instanceof OAuthError && e.error === error, JSON.stringify(params));
  }
});

test('redirectWith keeps the registered query and encodes the answer', () => {
  assert.equal(redirectWith('https://app.example/cb?keep=1', { code: 'a b', state: 'x/y', skip: undefined }), 'https://app.example/cb?keep=1&code=a+b&state=x%2Fy');
});
