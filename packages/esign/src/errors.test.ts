import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assertCatalog } from '@signet/kit';
import { ESIGN_ERRORS, EsignError, OAUTH_ERRORS, OAuthError } from './errors.ts';

test('both catalogs satisfy the house invariants', () => {
  assertCatalog(ESIGN_ERRORS);
  assertCatalog(OAUTH_ERRORS);
});

test('EsignError speaks DocuSign {errorCode, message}; 5xx never expose their detail', () => {
  assert.deepEqual(new EsignError('AUTHORIZATION_INVALID_TOKEN').toBody(), { errorCode: 'AUTHORIZATION_INVALID_TOKEN', message: 'The access token provided is expired, revoked or malformed.' });
  assert.deepEqual(new EsignError('INVALID_REQUEST_PARAMETER', 'accountId.').toBody(), { errorCode: 'INVALID_REQUEST_PARAMETER', message: 'The request contained at least one invalid parameter. accountId.' });
  const internal = new EsignError('UNSPECIFIED_ERROR', 'connection string postgres://secret');
  assert.equal(internal.status, 500);
  assert.deepEqual(internal.toBody(), { errorCode: 'UNSPECIFIED_ERROR', message: 'An unexpected error occurred.' });
});

test('OAuthError speaks RFC 6749 {error, error_description}; server errors are generic', () => {
  assert.deepEqual(new OAuthError('INVALID_GRANT', 'user_not_found').toBody(), { error: 'invalid_grant', error_description: 'user_not_found' });
  assert.equal(new OAuthError('INVALID_CLIENT').status, 401);
  assert.deepEqual(new OAuthError('SERVER_ERROR', 'stack here').toBody(), { error: 'server_error', error_description: 'An unexpected error occurred.' });
});

test('every OAuth error code is documented in docs/esign-oauth.md', () => {
  const doc = readFileSync(new URL('../../../docs/esign-oauth.md', import.meta.url), 'utf8');
  for (const code of Object.keys(OAUTH_ERRORS)) assert.ok(doc.includes(`\`${code.toLowerCase()}\``), `${code.toLowerCase()} is not in docs/esign-oauth.md`);
});
