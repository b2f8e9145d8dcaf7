import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../errors.ts';
import { parseRecipientEdits, postedRecipientFields } from './parse-recipient-edits.ts';

test('the recipients page form: name, email, routingOrder and accessCode per recipient; any other recipient field is refused by name; a code is never shown again', () => {
  assert.deepEqual(parseRecipientEdits({ '_csrf': 't', 'recipient.a.b.name': 'Sam', 'recipient.a.b.accessCode': 'c0de', 'recipient.2.routingOrder': '3' }), [{ recipientId: 'a.b', name: 'Sam', accessCode: 'c0de' }, { recipientId: '2', routingOrder: '3' }]);
  for (const field of ['tabs', 'phoneAuthentication', 'note']) {
    assert.throws(() => parseRecipientEdits({ [`recipient.2.${field}`]: 'x' }), (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_PARAMETER' && err.message.includes(`recipient.2.${field}: a recipient's ${field} cannot be changed on this page`));
  }
  assert.throws(() => parseRecipientEdits({ 'recipient.2.accessCode': ['a', 'b'] }), (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_PARAMETER');
  assert.deepEqual([...postedRecipientFields({ 'recipient.2.name': 'Sam', 'recipient.2.accessCode': 'secret' }).keys()], ['recipient.2.name']);
});
