import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { buildNotifier } from '../../mail/compose-notification.ts';
import { correctRecipientsChange } from './correct-recipients.ts';
import { deleteRecipientsChange } from './delete-recipients.ts';
import type { Envelope, Recipient } from './envelope.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const NOW = new Date('2026-05-06T07:08:09.000Z');
let n = 0;
const deps = { notifier: buildNotifier('https://esign.test'), random: { uuid: () => `id-${++n}`, secretToken: () => `token-${++n}` }, hashSecret: sha };

function recipient(recipientId: string, routingOrder: number, status: Recipient['status'], over: Partial<Recipient> = {}): Recipient {
  return { recipientId, recipientIdGuid: `guid-${recipientId}`, type: 'signer', email: `r${recipientId}@example.com`, name: `R${recipientId}`, routingOrder, status, tabs: [], ...(status !== 'created' ? { sentAt: NOW } : {}), ...over };
}

function envelope(status: Envelope['status'], recipients: Recipient[]): Envelope {
  return { envelopeId: 'env-1', accountId: 'acc', senderUserId: 'u', status, emailSubject: 'S', createdAt: NOW, statusChangedAt: NOW, documents: [], recipients, version: 3 };
}

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof EsignError, String(err));
    return err.code;
  }
  return assert.fail('expected a refusal');
};

test('a corrected address of a reached signer revokes their ways in and mails a fresh link there; an unreached one is only changed', () => {
  const e = envelope('sent', [recipient('1', 1, 'delivered'), recipient('2', 2, 'created')]);
  const { change, results } = correctRecipientsChange(deps, e, [{ recipientId: '1', type: 'signer', email: 'new@example.com' }, { recipientId: '2', type: 'signer', email: 'later@example.com', name: 'Later' }], NOW);
  assert.deepEqual(results, [{ recipientId: '1', recipientIdGuid: 'guid-1' }, { recipientId: '2', recipientIdGuid: 'guid-2' }]);
  assert.deepEqual(change.revokeSigningOf, ['1']);
  assert.deepEqual(change.mails.map((m) => m.to.email), ['new@example.com']);
  assert.deepEqual(change.signingTokens.map((t) => t.recipientId), ['1']);
  assert.deepEqual(change.envelope.recipients.map((r) => [r.email, r.name, r.status]), [['new@example.com', 'R1', 'delivered'], ['later@example.com', 'Later', 'created']]);
  assert.equal(change.envelope.version, 4);
});

test('who has acted is left as is, with RECIPIENT_UPDATE_FAILED in their result; a reached recipient keeps their routing order', () => {
  const e = envelope('sent', [recipient('1', 1, 'completed'), recipient('2', 1, 'sent'), recipient('3', 2, 'created')]);
  const { change, results } = correctRecipientsChange(deps, e, [{ recipientId: '1', type: 'signer', name: 'X' }, { recipientId: '2', type: 'signer', routingOrder: 5 }, { recipientId: '3', type: 'signer', name: 'Three' }], NOW);
  assert.deepEqual(results.map((r) => [r.recipientId, r.errorDetails?.errorCode]), [['1', 'RECIPIENT_UPDATE_FAILED'], ['2', 'RECIPIENT_UPDATE_FAILED'], ['3', undefined]]);
  assert.deepEqual(change.envelope.recipients.map((r) => [r.name, r.routingOrder]), [['R1', 1], ['R2', 1], ['Three', 2]]);
  assert.deepEqual(change.mails, []);
});

test('moved to the order in progress, an unreached recipient is reached now; a paused workflow holds them', () => {
  const e = envelope('sent', [recipient('1', 1, 'sent'), recipient('2', 3, 'created'), recipient('3', 4, 'created', { type: 'carbonCopy' })]);
  const { change } = correctRecipientsChange(deps, e, [{ recipientId: '2', type: 'signer', routingOrder: 1 }, { recipientId: '3', type: 'carbonCopy', routingOrder: 1 }], NOW);
  assert.deepEqual(change.envelope.recipients.map((r) => r.status), ['sent', 'sent', 'completed']);
  assert.deepEqual(change.mails.map((m) => m.to.email).sort(), ['r2@example.com', 'r3@example.com']);
  const held: Envelope = { ...e, recipients: [recipient('1', 1, 'completed'), recipient('2', 3, 'created')], workflow: { steps: [{ workflowStepId: 'w1', routingOrder: 2, status: 'in_progress', triggeredAt: NOW }] } };
  assert.deepEqual(correctRecipientsChange(deps, held, [{ recipientId: '2', type: 'signer', routingOrder: 1 }], NOW).change.envelope.recipients.map((r) => r.status), ['completed', 'created']);
});

test('refusals: a finished envelope, an unknown recipient, another type, a changed clientUserId', () => {
  assert.equal(code(() => correctRecipientsChange(deps, envelope('completed', [recipient('1', 1, 'completed')]), [{ recipientId: '1', type: 'signer', name: 'X' }], NOW)), 'ENVELOPE_INVALID_STATUS');
  assert.equal(code(() => correctRecipientsChange(deps, envelope('sent', [recipient('1', 1, 'sent')]), [{ recipientId: '7', type: 'signer', name: 'X' }], NOW)), 'UNKNOWN_ENVELOPE_RECIPIENT');
  assert.equal(code(() => correctRecipientsChange(deps, envelope('sent', [recipient('1', 1, 'sent')]), [{ recipientId: '1', type: 'carbonCopy', name: 'X' }], NOW)), 'INVALID_REQUEST_BODY');
  assert.equal(code(() => correctRecipientsChange(deps, envelope('sent', [recipient('1', 1, 'sent', { clientUserId: 'a' })]), [{ recipientId: '1', type: 'signer', clientUserId: 'b' }], NOW)), 'INVALID_REQUEST_BODY');
});

test('deleting: who has acted is refused whole; the last pending signer deleted routes on, and with nobody left the envelope is signed', () => {
  const e = envelope('sent', [recipient('1', 1, 'completed'), recipient('2', 2, 'sent'), recipient('3', 3, 'created', { type: 'carbonCopy' })]);
  assert.equal(code(() => deleteRecipientsChange(deps, e, [{ recipientId: '1' }, { recipientId: '2' }], NOW)), 'RECIPIENT_UPDATE_FAILED');
  const { change, deleted } = deleteRecipientsChange(deps, e, [{ recipientId: '2' }], NOW);
  assert.deepEqual(deleted.map((r) => r.recipientId), ['2']);
  assert.deepEqual(change.removedRecipients, ['2']);
  assert.deepEqual(change.envelope.recipients.map((r) => [r.recipientId, r.status]), [['1', 'completed'], ['3', 'completed']]);
  assert.equal(change.envelope.status, 'signed');
  assert.deepEqual(change.mails.map((m) => m.to.email), ['r3@example.com']);
  assert.equal(code(() => deleteRecipientsChange(deps, envelope('sent', [recipient('1', 1, 'sent'), recipient('3', 2, 'created', { type: 'carbonCopy' })]), [{ recipientId: '1' }], NOW)), 'ENVELOPE_IS_INCOMPLETE');
  // A draft may lose everyone; nothing routes.
  const draft = deleteRecipientsChange(deps, envelope('created', [recipient('1', 1, 'created')]), [{ recipientId: '1' }], NOW);
  assert.deepEqual([draft.change.envelope.recipients, draft.change.envelope.status, draft.change.mails], [[], 'created', []]);
});

test('a corrected address moves an e-mail passcode there and drops the code sent to the old one; an SMS passcode keeps its number', () => {
  const pending = { hash: 'h', expiresAt: new Date(NOW.getTime() + 60_000) };
  const e = envelope('sent', [
    recipient('1', 1, 'delivered', { passcode: { method: 'email', destinations: ['r1@example.com'], askedAs: { kind: 'identityVerification', workflowId: 'w', phoneNumbers: [] }, failures: 1, sends: 1, pending } }),
    recipient('2', 1, 'sent', { passcode: { method: 'sms', destinations: ['+15550100'], askedAs: { kind: 'idCheck' }, failures: 0, sends: 1, pending } }),
  ]);
  const { change } = correctRecipientsChange(deps, e, [{ recipientId: '1', type: 'signer', email: 'new@example.com' }, { recipientId: '2', type: 'signer', email: 'two@example.com' }], NOW);
  const [one, two] = change.envelope.recipients;
  assert.deepEqual(one?.passcode, { method: 'email', destinations: ['new@example.com'], askedAs: { kind: 'identityVerification', workflowId: 'w', phoneNumbers: [] }, failures: 1, sends: 1 });
  assert.deepEqual(two?.passcode, { method: 'sms', destinations: ['+15550100'], askedAs: { kind: 'idCheck' }, failures: 0, sends: 1, pending });
});

test('an in-person signer: a new host address is a new way in (old link ended, the mail again to the new host); an address of the host\'s own follows it; a signer has no host to correct', () => {
  const host = { name: 'Hal', email: 'hal@example.com' };
  const e = envelope('sent', [recipient('1', 1, 'sent', { type: 'inPersonSigner', email: 'hal@example.com', host }), recipient('2', 1, 'sent', { type: 'inPersonSigner', email: 'own@example.com', host })]);
  const { change } = correctRecipientsChange(deps, e, [
    { recipientId: '1', type: 'inPersonSigner', name: 'Sue', host: { name: 'Hana', email: 'hana@example.com' } },
    { recipientId: '2', type: 'inPersonSigner', host: { email: 'hana@example.com' } },
  ], NOW);
  const [one, two] = change.envelope.recipients;
  assert.deepEqual([one?.name, one?.email, one?.host], ['Sue', 'hana@example.com', { name: 'Hana', email: 'hana@example.com' }]);
  assert.deepEqual([two?.email, two?.host], ['own@example.com', { name: 'Hal', email: 'hana@example.com' }], 'their own address stays');
  assert.deepEqual(change.revokeSigningOf, ['1', '2']);
  assert.deepEqual(change.mails.map((m) => m.to.email), ['hana@example.com', 'hana@example.com']);
  assert.equal(code(() => correctRecipientsChange(deps, envelope('sent', [recipient('3', 1, 'sent')]), [{ recipientId: '3', type: 'signer', host: { name: 'X' } }], NOW)), 'INVALID_REQUEST_BODY');
});

test('a recipient its agent is to name cannot be moved before the agent: routing would reach nobody', () => {
  const e = envelope('sent', [recipient('1', 1, 'delivered', { type: 'agent' }), recipient('2', 2, 'created', { name: '', email: '' }), recipient('3', 1, 'delivered')]);
  assert.equal(code(() => correctRecipientsChange(deps, e, [{ recipientId: '2', type: 'signer', routingOrder: 1 }], NOW)), 'INVALID_REQUEST_BODY');
  // Named by the sender first, it may move.
  const { change } = correctRecipientsChange(deps, e, [{ recipientId: '2', type: 'signer', routingOrder: 1, name: 'Sam', email: 'sam@example.com' }], NOW);
  assert.deepEqual(change.envelope.recipients.map((r) => [r.recipientId, r.status]), [['1', 'delivered'], ['2', 'sent'], ['3', 'delivered']]);
});

test('the sender sets a new access code: hashed before the change, a reached recipient\'s old link and grants end and a fresh link goes out; a carbon copy has no page to guard', () => {
  const e = envelope('sent', [recipient('1', 1, 'delivered', { accessCode: { hash: 'old', failures: 2 } }), recipient('2', 2, 'created'), recipient('3', 3, 'created', { type: 'carbonCopy' })]);
  const codeHashes = new Map([['1', 'h-new'], ['2', 'h-two']]);
  const { change } = correctRecipientsChange(deps, e, [{ recipientId: '1', type: 'signer', accessCode: 'new' }, { recipientId: '2', type: 'signer', accessCode: 'two' }], NOW, { codeHashes });
  assert.deepEqual(change.envelope.recipients.slice(0, 2).map((r) => r.accessCode), [{ hash: 'h-new', failures: 0 }, { hash: 'h-two', failures: 0 }]);
  assert.deepEqual([change.revokeSigningOf, change.signingTokens.map((t) => t.recipientId)], [['1'], ['1']]);
  assert.ok(change.audit?.every((a) => !a.message.includes('new@') && !/\bnew\b/.test(a.message.replace('access code set', ''))), 'the code is never audited');
  assert.match(change.audit?.[0]?.message ?? '', /access code set/);
  assert.equal(code(() => correctRecipientsChange(deps, e, [{ recipientId: '3', type: 'carbonCopy', accessCode: 'x' }], NOW, { codeHashes: new Map([['3', 'h']]) })), 'INVALID_REQUEST_BODY');
});

test('agents, editors, intermediaries and witnesses are corrected and deleted like the others; a done manager is not; no change leaves a blank recipient without a manager before it', () => {
  const blank = { name: '', email: '' };
  const e = envelope('sent', [
    recipient('1', 1, 'completed', { type: 'agent' }),
    recipient('2', 2, 'sent', { type: 'editor' }),
    recipient('3', 3, 'created', blank),
    recipient('4', 3, 'created', { type: 'witness', witnessFor: '5' }),
    recipient('5', 2, 'sent'),
  ]);
  const { change, results } = correctRecipientsChange(deps, e, [{ recipientId: '1', type: 'agent', name: 'Late' }, { recipientId: '2', type: 'editor', email: 'ed@example.com' }, { recipientId: '4', type: 'witness', witnessFor: '5', name: 'Wes' }], NOW);
  assert.deepEqual(results.map((r) => [r.recipientId, r.errorDetails?.errorCode]), [['1', 'RECIPIENT_UPDATE_FAILED'], ['2', undefined], ['4', undefined]]);
  assert.deepEqual(change.envelope.recipients.map((r) => r.name), ['R1', 'R2', '', 'Wes', 'R5']);
  assert.deepEqual(change.revokeSigningOf, ['2'], 'the editor\'s corrected address gets a fresh link');
  // The blank moved before its editor, the editor deleted, or a done agent deleted: refused, nothing changed.
  assert.equal(code(() => correctRecipientsChange(deps, e, [{ recipientId: '3', type: 'signer', routingOrder: 1 }], NOW)), 'INVALID_REQUEST_BODY');
  assert.equal(code(() => deleteRecipientsChange(deps, e, [{ recipientId: '2', type: 'editor' }], NOW)), 'INVALID_REQUEST_BODY');
  assert.equal(code(() => deleteRecipientsChange(deps, e, [{ recipientId: '1', type: 'agent' }], NOW)), 'RECIPIENT_UPDATE_FAILED');
  // A witness moved to watch someone who does not exist.
  assert.equal(code(() => correctRecipientsChange(deps, e, [{ recipientId: '4', type: 'witness', witnessFor: '99' }], NOW)), 'INVALID_REQUEST_BODY');
  assert.deepEqual(deleteRecipientsChange(deps, e, [{ recipientId: '4', type: 'witness' }], NOW).deleted.map((r) => r.recipientId), ['4']);
});
