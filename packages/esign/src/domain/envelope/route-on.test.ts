import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { buildNotifier } from '../../mail/compose-notification.ts';
import { finishSigning } from '../signing/signing-changes.ts';
import { correctRecipientsChange } from './correct-recipients.ts';
import { deleteRecipientsChange } from './delete-recipients.ts';
import type { Envelope, Recipient, RecipientType } from './envelope.ts';
import { resumeWorkflow } from './resume-workflow.ts';
import { sendDraft } from './send-envelope.ts';
import { newWorkflow, workflowStatus, type WorkflowDraft } from './workflow.ts';

// Every path that moves routing on (a Finish, a resume, a deletion, a send, a correction) goes
// through routeOn (routing.ts); each test below pins one way the copies it replaced had drifted.

const T0 = new Date('2026-03-04T05:06:07.000Z');
const T1 = new Date('2026-03-04T06:00:00.000Z');
let n = 0;
const deps = { notifier: buildNotifier('https://esign.test'), random: { uuid: () => `id-${++n}`, secretToken: () => `token-${++n}` }, hashSecret: (s: string) => createHash('sha256').update(s).digest('hex') };

function recipient(recipientId: string, type: RecipientType, routingOrder: number, status: Recipient['status'] = 'created'): Recipient {
  return { recipientId, recipientIdGuid: `g-${recipientId}`, type, email: `r${recipientId}@example.com`, name: `R${recipientId}`, routingOrder, status, tabs: [], ...(type === 'inPersonSigner' ? { host: { name: 'Host', email: 'host@example.com' } } : {}) };
}

function draft(recipients: Recipient[], workflow?: WorkflowDraft): Envelope {
  return {
    envelopeId: 'e', accountId: 'acc', senderUserId: 'u', status: 'created', emailSubject: 'S', createdAt: T0, statusChangedAt: T0,
    documents: [{ documentId: '1', name: 'D', fileExtension: 'pdf', order: 1, pageCount: 1, sha256: 'x' }],
    recipients, ...(workflow ? { workflow: newWorkflow(workflow, recipients, () => 'step') } : {}), version: 1,
  };
}

const actions = (audit: readonly { action: string }[] | undefined) => (audit ?? []).map((a) => a.action);

test('a Finish that routing pauses after says so in the audit trail, as a send does', () => {
  const sent = sendDraft(deps, draft([recipient('1', 'signer', 1), recipient('2', 'signer', 2)], { steps: [{ routingOrder: 2 }] }), T0).envelope;
  const finished = finishSigning(deps, sent, '1', T1, {});
  assert.ok(finished);
  assert.equal(workflowStatus(finished.envelope.workflow), 'paused');
  assert.deepEqual(actions(finished.audit), ['Signed', 'Routing Paused']);
  assert.match(finished.audit?.[1]?.message ?? '', /before routing order 2: it resumes when the sender unpauses it/);
});

test('deleting the pending signer, when routing then pauses, says so in the audit trail', () => {
  const sent = sendDraft(deps, draft([recipient('1', 'signer', 1), recipient('1b', 'signer', 1), recipient('2', 'signer', 2)], { steps: [{ routingOrder: 2 }] }), T0).envelope;
  const done = { ...sent, recipients: sent.recipients.map((r) => (r.recipientId === '1b' ? { ...r, status: 'completed' as const } : r)) };
  const { change } = deleteRecipientsChange(deps, done, [{ recipientId: '1' }], T1);
  assert.equal(workflowStatus(change.envelope.workflow), 'paused');
  assert.deepEqual(actions(change.audit), ['Recipient Deleted', 'Routing Paused']);
});

test('deleting the recipients of a paused envelope leaves it paused, not signed; resuming then completes it', () => {
  const sent = sendDraft(deps, draft([recipient('1', 'signer', 1), recipient('2', 'signer', 2), recipient('3', 'carbonCopy', 2)], { steps: [{ routingOrder: 2 }] }), T0).envelope;
  const paused = finishSigning(deps, sent, '1', T1, {})!.envelope;
  assert.equal(workflowStatus(paused.workflow), 'paused');
  const { change } = deleteRecipientsChange(deps, paused, [{ recipientId: '2' }, { recipientId: '3' }], T1);
  assert.deepEqual([change.envelope.status, workflowStatus(change.envelope.workflow)], ['sent', 'paused']);
  const resumed = resumeWorkflow(deps, change.envelope, T1, 'api');
  assert.ok(resumed);
  assert.deepEqual([resumed.envelope.status, resumed.envelope.statusChangedAt], ['signed', T1]);
  assert.deepEqual(resumed.envelope.recipients.map((r) => [r.recipientId, r.status]), [['1', 'completed']]);
});

test('a send that leaves nobody to wait for is `signed` through the lifecycle, stamped with its time', () => {
  const change = sendDraft(deps, draft([recipient('1', 'carbonCopy', 1), recipient('2', 'carbonCopy', 2)]), T1);
  assert.deepEqual([change.envelope.status, change.envelope.statusChangedAt, change.envelope.sentAt], ['signed', T1, T1]);
  assert.deepEqual(actions(change.audit), ['Sent', 'Sent']);
  assert.deepEqual(change.mails.map((m) => m.to.email), ['r1@example.com', 'r2@example.com']);
});

test('deleting the pending signer when only carbon copies are left signs the envelope, stamped, with their copies mailed', () => {
  const sent = sendDraft(deps, draft([recipient('1', 'signer', 1), recipient('2', 'inPersonSigner', 1), recipient('3', 'carbonCopy', 2)]), T0).envelope;
  const afterHost = finishSigning(deps, sent, '2', T0, {})!.envelope;
  const { change } = deleteRecipientsChange(deps, afterHost, [{ recipientId: '1' }], T1);
  assert.deepEqual([change.envelope.status, change.envelope.statusChangedAt], ['signed', T1]);
  assert.deepEqual(change.mails.map((m) => m.to.email), ['r3@example.com']);
  assert.deepEqual(actions(change.audit), ['Recipient Deleted', 'Sent']);
});

test('a correction that moves recipients after a pending pause reaches the order in progress and pauses as routing does', () => {
  // Order 1 pending; the order-3 signer moves to order 1 and is reached; order 2 keeps its pause.
  const sent = sendDraft(deps, draft([recipient('1', 'signer', 1), recipient('2', 'signer', 2), recipient('3', 'signer', 3)], { steps: [{ routingOrder: 2 }] }), T0).envelope;
  const { change } = correctRecipientsChange(deps, sent, [{ recipientId: '3', type: 'signer', routingOrder: 1 }], T1);
  assert.deepEqual(change.envelope.recipients.map((r) => r.status), ['sent', 'created', 'sent']);
  assert.equal(workflowStatus(change.envelope.workflow), 'in_progress');
  const both = finishSigning(deps, finishSigning(deps, change.envelope, '1', T1, {})!.envelope, '3', T1, {});
  assert.deepEqual([workflowStatus(both?.envelope.workflow), actions(both?.audit)], ['paused', ['Signed', 'Routing Paused']]);
});
