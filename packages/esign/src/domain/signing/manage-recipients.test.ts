import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draft, recipient, routingDeps, T0 } from './signing-changes.fixture.ts';
import { EsignError } from '../../errors.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import { sendDraft } from '../envelope/send-envelope.ts';
import { finishManaging, recipientsManagedBy, type RecipientEdit } from './manage-recipients.ts';
import type { RoutingDeps } from './signing-changes.ts';
import { finishSigning } from './signing-changes.ts';

// Agents, editors and intermediaries (DocuSign's Agent, Editor and Intermediary models): pure
// changes on an injected clock; each attack is refused with nothing changed.
const T1 = new Date('2026-01-02T03:10:00.000Z');
const actor = { ipAddress: '203.0.113.9' };


function sent(recipients: Recipient[], d: RoutingDeps): Envelope {
  return sendDraft(d, draft(recipients, 'S'), T0).envelope;
}


const byId = (e: Envelope, id: string) => e.recipients.find((r) => r.recipientId === id)!;

function refused(f: () => unknown, code: string, message: RegExp) {
  assert.throws(f, (err: unknown) => err instanceof EsignError && err.code === code && message.test(err.message), `${code} ${message}`);
}

test('an agent fills in the blank signer after it, changes a given address only where agentCanEditEmail says so, and routing goes on to the signer', () => {
  const d = routingDeps();
  const e = sent([
    recipient('1', 'agent', 1),
    recipient('2', 'signer', 2, { name: '', email: '' }),
    recipient('3', 'carbonCopy', 2, { agentCanEditEmail: true }),
    recipient('4', 'signer', 3),
  ], d);
  assert.deepEqual(e.recipients.map((r) => r.status), ['sent', 'created', 'created', 'created']);
  const scope = recipientsManagedBy(e, byId(e, '1'));
  assert.deepEqual(scope.map((m) => [m.recipient.recipientId, [...m.editable].sort()]), [['2', ['email', 'name']], ['3', ['email']], ['4', []]]);

  const change = finishManaging(d, e, '1', [{ recipientId: '2', name: ' Sam Signer ', email: 'Sam@Example.com' }, { recipientId: '3', email: 'cc2@example.com', name: 'R3' }], T1, actor);
  assert.ok(change);
  const next = change.envelope;
  assert.deepEqual([byId(next, '2').name, byId(next, '2').email, byId(next, '3').email], ['Sam Signer', 'sam@example.com', 'cc2@example.com']);
  assert.deepEqual([byId(next, '1').status, byId(next, '1').signedAt, byId(next, '1').completedAt], ['completed', undefined, T1]);
  // Order 2 is reached: the filled-in signer gets a link, the copy is sent.
  assert.deepEqual([byId(next, '2').status, byId(next, '3').status, byId(next, '4').status], ['sent', 'completed', 'created']);
  assert.deepEqual(change.signingTokens.map((t) => t.recipientId), ['2']);
  assert.deepEqual((change.audit ?? []).map((a) => a.action), ['Recipient Changed', 'Recipient Changed', 'Recipients Specified', 'Sent', 'Sent']);
  assert.match(change.audit?.[0]?.message ?? '', /R1 \(agent\) changed recipient 2: name set to "Sam Signer", e-mail set to sam@example\.com\./);
  assert.equal(change.audit?.[0]?.ipAddress, '203.0.113.9');
  assert.equal(next.version, e.version + 1);
  // Acting twice: the second Finish changes nothing.
  assert.equal(finishManaging(d, next, '1', [{ recipientId: '4', name: 'Late' }], T1, actor), undefined);
});

test('attacks on an agent\'s Finish are refused and change nothing: its own order or earlier, forbidden fields, unknown recipients, blanks left, bad values', () => {
  const d = routingDeps();
  const e = sent([
    recipient('0', 'signer', 1),
    recipient('1', 'agent', 1),
    recipient('p', 'signer', 1),
    recipient('2', 'signer', 2, { name: '', email: '' }),
    recipient('3', 'signer', 2),
  ], d);
  const fill: RecipientEdit = { recipientId: '2', name: 'Sam', email: 'sam@example.com' };
  const tryEdits = (edits: RecipientEdit[]) => () => finishManaging(d, e, '1', edits, T1, actor);
  // A recipient at its own routing order (parallel), or before it, or itself.
  refused(tryEdits([fill, { recipientId: 'p', email: 'evil@example.com' }]), 'RECIPIENT_UPDATE_FAILED', /recipientId "p": not a recipient this agent may change/);
  refused(tryEdits([fill, { recipientId: '0', name: 'Evil' }]), 'RECIPIENT_UPDATE_FAILED', /recipientId "0"/);
  refused(tryEdits([fill, { recipientId: '1', email: 'evil@example.com' }]), 'RECIPIENT_UPDATE_FAILED', /recipientId "1"/);
  // One of another envelope (its ids mean nothing here).
  refused(tryEdits([fill, { recipientId: '77', email: 'evil@example.com' }]), 'RECIPIENT_UPDATE_FAILED', /recipientId "77"/);
  // A given name or e-mail whose flags forbid it.
  refused(tryEdits([fill, { recipientId: '3', email: 'evil@example.com' }]), 'RECIPIENT_UPDATE_FAILED', /agentCanEditEmail is not true/);
  refused(tryEdits([fill, { recipientId: '3', name: 'Evil' }]), 'RECIPIENT_UPDATE_FAILED', /agentCanEditName is not true/);
  // Only an editor moves a recipient.
  refused(tryEdits([{ ...fill, routingOrder: '5' }]), 'RECIPIENT_UPDATE_FAILED', /only by an editor/);
  // Validation: e-mail rules, name length and control characters, a blank left.
  refused(tryEdits([{ ...fill, email: 'not-an-address' }]), 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', /recipientId 2/);
  refused(tryEdits([{ ...fill, email: 'a@b.c\r\nBcc: x@example.com' }]), 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', /recipientId 2/);
  refused(tryEdits([{ ...fill, name: 'x'.repeat(101) }]), 'INVALID_REQUEST_PARAMETER', /1 to 100 characters/);
  refused(tryEdits([{ ...fill, name: 'Sam\nBcc' }]), 'INVALID_REQUEST_PARAMETER', /1 to 100 characters/);
  refused(tryEdits([{ recipientId: '2', name: 'Sam' }]), 'INVALID_REQUEST_PARAMETER', /Give a name and an e-mail address to recipient 2/);
  refused(tryEdits([fill, fill]), 'INVALID_REQUEST_BODY', /listed twice/);
  // Not its turn yet: an agent at order 2 cannot act while order 1 signs.
  const later = sent([recipient('1', 'signer', 1), recipient('2', 'agent', 2), recipient('3', 'signer', 3)], d);
  refused(() => finishManaging(d, later, '2', [], T1, actor), 'ENVELOPE_INVALID_STATUS', /not-your-turn/);
  // A signer's link is no agent's.
  refused(() => finishManaging(d, e, '0', [], T1, actor), 'INVALID_REQUEST_BODY', /does not manage recipients/);
});

test('an agent speaks for the recipients up to the next agent, editor or intermediary; that one speaks for the rest once reached', () => {
  const d = routingDeps();
  let e = sent([recipient('1', 'agent', 1), recipient('2', 'signer', 2), recipient('3', 'intermediary', 3), recipient('4', 'signer', 4, { name: '', email: '' })], d);
  assert.deepEqual(recipientsManagedBy(e, byId(e, '1')).map((m) => m.recipient.recipientId), ['2']);
  refused(() => finishManaging(d, e, '1', [{ recipientId: '4', name: 'X', email: 'x@example.com' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /recipientId "4"/);
  e = finishManaging(d, e, '1', [], T1, actor)!.envelope;
  e = finishSigning(d, e, '2', T1, actor)!.envelope;
  assert.equal(byId(e, '3').status, 'sent');
  // The intermediary may leave given values alone, but not a blank.
  refused(() => finishManaging(d, e, '3', [], T1, actor), 'INVALID_REQUEST_PARAMETER', /recipient 4/);
  e = finishManaging(d, e, '3', [{ recipientId: '4', name: 'Ivy', email: 'ivy@example.com' }], T1, actor)!.envelope;
  assert.deepEqual([byId(e, '4').status, byId(e, '4').email], ['sent', 'ivy@example.com']);
});

test('an editor changes given names, addresses and routing orders of later recipients, flags or not, but never to its own order or before', () => {
  const d = routingDeps();
  const e = sent([recipient('1', 'editor', 1), recipient('2', 'signer', 2), recipient('3', 'signer', 3)], d);
  assert.deepEqual([...recipientsManagedBy(e, byId(e, '1'))[0]!.editable].sort(), ['accessCode', 'email', 'name', 'routingOrder']);
  refused(() => finishManaging(d, e, '1', [{ recipientId: '3', routingOrder: '1' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /routingOrder 1 is not after the editor's own \(1\)/);
  refused(() => finishManaging(d, e, '1', [{ recipientId: '3', routingOrder: 'two' }], T1, actor), 'INVALID_REQUEST_PARAMETER', /whole number/);
  const change = finishManaging(d, e, '1', [{ recipientId: '2', name: 'New Name', email: 'new@example.com', routingOrder: '4' }, { recipientId: '3', routingOrder: '3' }], T1, actor)!;
  assert.deepEqual([byId(change.envelope, '2').routingOrder, byId(change.envelope, '2').email, byId(change.envelope, '2').status, byId(change.envelope, '3').status], [4, 'new@example.com', 'created', 'sent']);
  assert.match(change.audit?.[0]?.message ?? '', /R1 \(editor\) changed recipient 2: name "R2" → "New Name", e-mail 2@example\.com → new@example\.com, routing order 2 → 4\./);
  assert.match((change.audit ?? []).find((a) => a.action === 'Recipients Specified')!.message, /1 recipient changed/);
});

test('an editor cannot move away the recipient a workflow step to come pauses before', () => {
  const d = routingDeps();
  const e = sent([recipient('1', 'editor', 1), recipient('2', 'signer', 2), recipient('3', 'signer', 3)], d);
  const paused: Envelope = { ...e, workflow: { steps: [{ workflowStepId: 's1', routingOrder: 3, status: 'pending' }] } };
  refused(() => finishManaging(d, paused, '1', [{ recipientId: '3', routingOrder: '4' }], T1, actor), 'INVALID_REQUEST_BODY', /itemId 3 is not the routing order of any recipient \(after this editor's change/);
});

test('an editor sets an access code for a later recipient who opens a page, as a sender may; the audit never holds the code; agents and copies may not', () => {
  const d = routingDeps();
  const e = sent([recipient('1', 'editor', 1), recipient('2', 'signer', 2), recipient('3', 'carbonCopy', 3), recipient('4', 'certifiedDelivery', 4)], d);
  assert.deepEqual(recipientsManagedBy(e, byId(e, '1')).map((m) => [m.recipient.recipientId, m.editable.has('accessCode')]), [['2', true], ['3', false], ['4', true]]);
  const change = finishManaging(d, e, '1', [{ recipientId: '2', accessCode: 'open sesame', accessCodeHash: 'h(open sesame)' }, { recipientId: '4', accessCode: '', accessCodeHash: undefined }], T1, actor)!;
  assert.deepEqual([byId(change.envelope, '2').accessCode, byId(change.envelope, '4').accessCode], [{ hash: 'h(open sesame)', failures: 0 }, undefined]);
  assert.match(change.audit?.[0]?.message ?? '', /R1 \(editor\) changed recipient 2: access code set\./);
  assert.ok((change.audit ?? []).every((a) => !a.message.includes('open sesame')), 'the code is never audited');
  refused(() => finishManaging(d, e, '1', [{ recipientId: '3', accessCode: '1234', accessCodeHash: 'h' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /carbonCopy opens no signing page/);
  refused(() => finishManaging(d, e, '1', [{ recipientId: '2', accessCode: 'x'.repeat(51), accessCodeHash: 'h' }], T1, actor), 'INVALID_REQUEST_PARAMETER', /access code of 1 to 50 characters/);
  const agent = sent([recipient('1', 'agent', 1), recipient('2', 'signer', 2, { name: '', email: '' })], d);
  refused(() => finishManaging(d, agent, '1', [{ recipientId: '2', name: 'Sam', email: 'sam@example.com', accessCode: '1234', accessCodeHash: 'h' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /access code may be set only by an editor, not an agent/);
});

test('an editor never changes a recipient routed before itself, one already done, or one of another envelope', () => {
  const d = routingDeps();
  let e = sent([recipient('0', 'signer', 1), recipient('1', 'editor', 2), recipient('2', 'signer', 3)], d);
  e = finishSigning(d, e, '0', T1, actor)!.envelope;
  assert.equal(byId(e, '1').status, 'sent');
  refused(() => finishManaging(d, e, '1', [{ recipientId: '0', email: 'evil@example.com' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /recipientId "0": not a recipient this editor may change/);
  refused(() => finishManaging(d, e, '1', [{ recipientId: '0', accessCode: '1', accessCodeHash: 'h' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /recipientId "0"/);
  refused(() => finishManaging(d, e, '1', [{ recipientId: '1', routingOrder: '9' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /recipientId "1"/);
  refused(() => finishManaging(d, e, '1', [{ recipientId: 'other-envelope', name: 'X' }], T1, actor), 'RECIPIENT_UPDATE_FAILED', /other-envelope/);
  assert.equal(byId(e, '0').email, '0@example.com');
});
