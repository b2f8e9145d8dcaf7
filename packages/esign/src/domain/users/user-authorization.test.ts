import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLive, mayAdminister, onBehalfAllows } from './user-authorization.ts';

const T = new Date('2026-11-27T10:00:00Z');
const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000);

test('an authorization is live from its start until (not at) its end', () => {
  assert.equal(isLive({ startDate: at(0) }, at(0)), true);
  assert.equal(isLive({ startDate: at(1) }, at(0)), false);
  assert.equal(isLive({ startDate: at(-10), endDate: at(10) }, at(9)), true);
  assert.equal(isLive({ startDate: at(-10), endDate: at(10) }, at(10)), false);
});

test('what each permission reaches through X-DocuSign-Act-On-Behalf, and what none does', () => {
  const table: [string, string, boolean, boolean][] = [
    // method, route, manage, send
    ['GET', '/envelopes', true, false],
    ['POST', '/envelopes', true, true],
    ['PUT', '/envelopes/:envelopeId', true, false],
    ['POST', '/envelopes/:envelopeId/views/recipient', true, false],
    // Console views sign the opener in as the view's user: never on behalf.
    ['POST', '/envelopes/:envelopeId/views/sender', false, false],
    ['POST', '/envelopes/:envelopeId/views/edit', false, false],
    ['POST', '/envelopes/:envelopeId/views/correct', false, false],
    ['POST', '/views/console', false, false],
    ['PUT', '/folders/:folderId', true, false],
    ['GET', '/search_folders/:searchFolderId', true, false],
    ['GET', '/users', false, false],
    ['POST', '/users/:userId/authorization', false, false],
    ['PUT', '/settings', false, false],
    ['POST', '/permission_profiles', false, false],
    ['GET', '/templates', false, false],
    ['POST', '/connect', false, false],
    ['POST', '/bulk_send_lists', false, false],
    ['GET', '', false, false],
  ];
  for (const [method, route, manage, send] of table) {
    assert.equal(onBehalfAllows('manage', method, route), manage, `manage ${method} ${route}`);
    assert.equal(onBehalfAllows('send', method, route), send, `send ${method} ${route}`);
  }
});

test('the principal or an administrator administers a principal\'s authorizations', () => {
  const rights = { send: true, templates: 'edit', manageAccount: false, api: true, allEnvelopes: false } as const;
  assert.equal(mayAdminister({ userId: 'p', rights }, 'p'), true);
  assert.equal(mayAdminister({ userId: 'a', rights }, 'p'), false);
  assert.equal(mayAdminister({ userId: 'a', rights: { ...rights, manageAccount: true } }, 'p'), true);
});
