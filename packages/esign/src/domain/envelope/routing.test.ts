import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope, Recipient, RecipientType } from './envelope.ts';
import { advanceRouting, currentRoutingOrder } from './routing.ts';

const T0 = new Date('2026-01-02T03:04:05.000Z');

function recipient(recipientId: string, type: RecipientType, routingOrder: number, status: Recipient['status'] = 'created'): Recipient {
  return { recipientId, recipientIdGuid: `g-${recipientId}`, type, email: `${recipientId}@example.com`, name: recipientId, routingOrder, status, tabs: [] };
}

function envelope(recipients: Recipient[]): Envelope {
  return { envelopeId: 'e', accountId: 'a', senderUserId: 'u', status: 'sent', emailSubject: 's', createdAt: T0, statusChangedAt: T0, documents: [], recipients, version: 1 };
}

test('the lowest routing order is reached together: signers sent, carbon copies completed', () => {
  const { envelope: next, reached } = advanceRouting(envelope([
    recipient('1', 'signer', 1), recipient('2', 'signer', 2), recipient('3', 'carbonCopy', 1), recipient('4', 'signer', 1),
  ]), T0);
  assert.deepEqual(reached.map((r) => [r.recipientId, r.status]), [['1', 'sent'], ['3', 'completed'], ['4', 'sent']]);
  assert.equal(next.recipients.find((r) => r.recipientId === '2')?.status, 'created');
  assert.deepEqual(reached.map((r) => r.sentAt), [T0, T0, T0]);
  assert.equal(currentRoutingOrder(next.recipients), 1);
});

test('an order of only carbon copies does not stop routing', () => {
  const { reached } = advanceRouting(envelope([recipient('cc', 'carbonCopy', 1), recipient('s', 'signer', 5), recipient('late', 'signer', 9)]), T0);
  assert.deepEqual(reached.map((r) => r.recipientId), ['cc', 's']);
});

test('nothing moves while a signer of the current order is pending', () => {
  const { reached } = advanceRouting(envelope([recipient('1', 'signer', 1, 'delivered'), recipient('2', 'signer', 2)]), T0);
  assert.deepEqual(reached, []);
});

test('when the current order has finished the next one is reached', () => {
  const { reached, envelope: next } = advanceRouting(envelope([recipient('1', 'signer', 1, 'completed'), recipient('2', 'signer', 2), recipient('3', 'carbonCopy', 3)]), T0);
  assert.deepEqual(reached.map((r) => r.recipientId), ['2']);
  assert.equal(currentRoutingOrder(next.recipients), 2);
});

test('no one left: no current routing order', () => {
  assert.equal(currentRoutingOrder([recipient('1', 'signer', 1, 'completed')]), undefined);
});
