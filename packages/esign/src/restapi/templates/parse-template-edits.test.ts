import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { parseRolePatches } from './parse-template-edits.ts';

const refusal = (body: unknown): string => {
  try {
    parseRolePatches(body);
  } catch (e) {
    if (e instanceof EsignError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
};

test('TemplatesApi.updateRecipients refuses by name what it does not change, rather than a 200 that dropped it', () => {
  assert.match(refusal({ signers: [{ recipientId: '1', accessCode: '1234' }] }), /^INVALID_REQUEST_BODY: .*Signer.*accessCode/);
  assert.match(refusal({ signers: [{ recipientId: '1', emailNotification: { supportedLanguage: 'de' } }] }), /emailNotification/);
  assert.match(refusal({ carbonCopies: [{ recipientId: '2', note: 'read this' }] }), /CarbonCopy.*note/);
  assert.match(refusal({ inPersonSigners: [{ recipientId: '3', accessCode: 'x' }] }), /InPersonSigner.*accessCode/);
  assert.match(refusal({ witnesses: [{ recipientId: '4', smsAuthentication: { senderProvidedNumbers: ['+1 555'] } }] }), /Witness.*smsAuthentication/);
  // What it reads, and the read-only fields a client sends back from listRecipients, pass.
  assert.deepEqual(parseRolePatches({ signers: [{ recipientId: '1', name: 'Ann', roleName: 'buyer', routingOrder: '2', status: 'created', recipientIdGuid: 'x' }] }),
    [{ recipientId: '1', roleName: 'buyer', name: 'Ann', routingOrder: 2 }]);
});
