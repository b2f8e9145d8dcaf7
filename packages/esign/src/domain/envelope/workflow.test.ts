import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dueWork, nextDueAt } from '../notification/notification-schedule.ts';
import type { Envelope, Recipient } from './envelope.ts';
import { advanceRouting } from './routing.ts';
import { resumeWorkflow } from './resume-workflow.ts';
import { sendDraft } from './send-envelope.ts';
import { newWorkflow, workflowStatus, type WorkflowDraft } from './workflow.ts';

const T0 = new Date('2026-03-04T05:06:07.000Z');
const later = (s: number) => new Date(T0.getTime() + s * 1000);

const signer = (id: string, order: number): Recipient => ({ recipientId: id, recipientIdGuid: `g${id}`, type: 'signer', email: `${id}@example.com`, name: id, routingOrder: order, status: 'created', tabs: [] });

function draft(workflow: WorkflowDraft): Envelope {
  const recipients = [signer('a', 1), signer('b', 2), signer('c', 3)];
  return {
    envelopeId: 'e', accountId: 'acc', senderUserId: 'u', status: 'created', emailSubject: 'S', createdAt: T0, statusChangedAt: T0,
    documents: [{ documentId: '1', name: 'D', fileExtension: 'pdf', order: 1, pageCount: 1, sha256: 'x' }],
    recipients, workflow: newWorkflow(workflow, recipients, () => 'step'), version: 1,
  };
}

const deps = {
  random: { uuid: () => 'u', secretToken: () => 'secret' },
  hashSecret: (s: string) => `h(${s})`,
  notifier: { compose: (n: { recipientId: string }) => ({ kind: 'envelope-sent', to: n.recipientId }) as never },
};

const finish = (e: Envelope, id: string): Envelope => ({ ...e, recipients: e.recipients.map((r) => (r.recipientId === id ? { ...r, status: 'completed' as const } : r)) });

test('a pause_before step stops routing before its order, and only resuming reaches it', () => {
  const sent = sendDraft(deps, draft({ steps: [{ routingOrder: 2 }] }), T0).envelope;
  assert.deepEqual(sent.recipients.map((r) => r.status), ['sent', 'created', 'created']);
  assert.equal(workflowStatus(sent.workflow), 'in_progress');
  const { envelope: paused, reached, pausedBefore } = advanceRouting(finish(sent, 'a'), later(10));
  assert.deepEqual([reached.length, pausedBefore, workflowStatus(paused.workflow)], [0, 2, 'paused']);
  assert.equal(dueWork(paused, later(1e6)).kind, 'none', 'a plain pause never resumes on its own');
  // Nothing moves while paused, whoever asks.
  assert.equal(advanceRouting(paused, later(20)).reached.length, 0);
  const resumed = resumeWorkflow(deps, paused, later(30), 'api');
  assert.ok(resumed);
  assert.deepEqual(resumed.envelope.recipients.map((r) => r.status), ['completed', 'sent', 'created']);
  assert.equal(resumed.envelope.workflow?.steps[0]?.status, 'completed');
  assert.equal(resumeWorkflow(deps, resumed.envelope, later(40), 'api'), undefined, 'resuming twice does nothing');
});

test('scheduled sending: sent, nobody reached, due at the rule\'s time; a time already past sends at once', () => {
  const held = sendDraft(deps, draft({ scheduledSending: { kind: 'delay', delayMs: 3_600_000 }, steps: [] }), T0);
  assert.deepEqual([held.envelope.status, held.mails.length, held.envelope.sentAt], ['sent', 0, undefined]);
  assert.deepEqual(held.envelope.recipients.map((r) => r.status), ['created', 'created', 'created']);
  assert.equal(nextDueAt(held.envelope)?.toISOString(), later(3600).toISOString());
  assert.equal(dueWork(held.envelope, later(3599)).kind, 'none');
  assert.equal(dueWork(held.envelope, later(3600)).kind, 'resume');
  const past = sendDraft(deps, draft({ scheduledSending: { kind: 'resumeDate', at: later(-60) }, steps: [] }), T0);
  assert.deepEqual([past.envelope.recipients[0]?.status, past.mails.length, past.envelope.workflow?.scheduledSending?.status], ['sent', 1, 'completed']);
});

test('delayed routing: the step starts when routing reaches it and ends its delay later', () => {
  const sent = sendDraft(deps, draft({ steps: [{ routingOrder: 3, delay: { kind: 'delay', delayMs: 60_000 } }] }), T0).envelope;
  const afterA = advanceRouting(finish(sent, 'a'), later(5)).envelope;
  assert.equal(workflowStatus(afterA.workflow), 'in_progress', 'order 2 has no step');
  const { envelope: held, pausedBefore } = advanceRouting(finish(afterA, 'b'), later(100));
  assert.equal(pausedBefore, 3);
  assert.equal(held.workflow?.steps[0]?.resumeAt?.toISOString(), later(160).toISOString());
  assert.equal(nextDueAt(held)?.toISOString(), later(160).toISOString());
  assert.equal(resumeWorkflow(deps, held, later(160), 'system')?.envelope.recipients[2]?.status, 'sent');
});

test('newWorkflow refuses a step before a routing order nobody has, and two steps for one order', () => {
  assert.throws(() => draft({ steps: [{ routingOrder: 9 }] }), /itemId 9 is not the routing order of any recipient/);
  assert.throws(() => draft({ steps: [{ routingOrder: 2 }, { routingOrder: 2, delay: { kind: 'delay', delayMs: 1 } }] }), /itemId 2 is repeated/);
});
