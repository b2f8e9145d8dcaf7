import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { buildNotifier } from '../../mail/compose-notification.ts';
import type { ConditionalRecipientRule } from './conditional-recipients.ts';
import { correctRecipientsChange } from './correct-recipients.ts';
import { deleteRecipientsChange } from './delete-recipients.ts';
import type { Envelope, Recipient } from './envelope.ts';
import type { PlacedTab } from './placed-tab.ts';
import { sendDraft } from './send-envelope.ts';
import { newWorkflow, type WorkflowDraft } from './workflow.ts';

// A workflow is checked against the recipients at create (newWorkflow), and again after every
// correction and deletion: a change that would leave a step before nobody, or a conditional rule
// naming a recipient who is gone or now acts too late, is refused with nothing changed.

const T0 = new Date('2026-03-04T05:06:07.000Z');
let n = 0;
const deps = { notifier: buildNotifier('https://esign.test'), random: { uuid: () => `id-${++n}`, secretToken: () => `token-${++n}` }, hashSecret: (s: string) => createHash('sha256').update(s).digest('hex') };

const choice: PlacedTab = { tabId: 't-choice', documentId: '1', pageNumber: 1, xPosition: 10, yPosition: 10, value: '', tab: { type: 'text', tabLabel: 'choice' } } as unknown as PlacedTab;
const signer = (id: string, order: number, tabs: PlacedTab[] = []): Recipient => ({ recipientId: id, recipientIdGuid: `g${id}`, type: 'signer', email: `${id}@example.com`, name: id, routingOrder: order, status: 'created', tabs });
const rule: ConditionalRecipientRule = { recipientId: 'c', order: 1, groupName: 'Approvers', options: [{ label: 'boss', name: 'Boss', email: 'boss@example.com' }], conditions: [{ order: 1, recipientLabel: 'boss', filters: [{ recipientId: 'a', tabLabel: 'choice', operator: 'equals', value: 'x' }] }] };

function draft(workflow: WorkflowDraft, extra: Recipient[] = []): Envelope {
  const recipients = [signer('a', 1, [choice]), signer('b', 2), signer('c', 3), ...extra];
  return {
    envelopeId: 'e', accountId: 'acc', senderUserId: 'u', status: 'created', emailSubject: 'S', createdAt: T0, statusChangedAt: T0,
    documents: [{ documentId: '1', name: 'D', fileExtension: 'pdf', order: 1, pageCount: 1, sha256: 'x' }],
    recipients, workflow: newWorkflow(workflow, recipients, () => 'step'), version: 1,
  };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof EsignError, String(err));
    return `${err.code}: ${err.message}`;
  }
  return assert.fail('expected a refusal');
}

test('create: a step before a routing order nobody has is refused (newWorkflow)', () => {
  assert.match(refusal(() => draft({ steps: [{ routingOrder: 9 }] })), /^INVALID_REQUEST_BODY: .*itemId 9 is not the routing order of any recipient\.$/);
});

test('correct: moving the only recipient of a paused order elsewhere is refused, on a draft and in process', () => {
  const d = draft({ steps: [{ routingOrder: 2 }] });
  for (const e of [d, sendDraft(deps, d, T0).envelope]) {
    assert.match(refusal(() => correctRecipientsChange(deps, e, [{ recipientId: 'b', type: 'signer', routingOrder: 3 }], T0)), /itemId 2 is not the routing order of any recipient \(after this correction; change or delete the step first\)/);
  }
  // Moving someone else into the order keeps it fitting.
  const { change } = correctRecipientsChange(deps, d, [{ recipientId: 'c', type: 'signer', routingOrder: 2 }], T0);
  assert.deepEqual(change.envelope.recipients.map((r) => r.routingOrder), [1, 2, 2]);
});

test('delete: deleting the only recipient of a paused order is refused, and nothing is deleted', () => {
  const sent = sendDraft(deps, draft({ steps: [{ routingOrder: 2, delay: { kind: 'delay', delayMs: 60_000 } }] }), T0).envelope;
  assert.match(refusal(() => deleteRecipientsChange(deps, sent, [{ recipientId: 'b' }], T0)), /itemId 2 is not the routing order .*after this deletion/);
});

test('conditional rules: deleting the placeholder or the recipient a filter reads, or moving that recipient past the step, is refused', () => {
  const d = draft({ steps: [{ routingOrder: 3, conditionalRecipients: [rule] }] }, [signer('d', 3)]);
  assert.match(refusal(() => deleteRecipientsChange(deps, d, [{ recipientId: 'a' }], T0)), /a filter names recipientId a, who does not act before routing order 3/);
  assert.match(refusal(() => correctRecipientsChange(deps, d, [{ recipientId: 'a', type: 'signer', routingOrder: 3 }], T0)), /a filter names recipientId a, who does not act before routing order 3/);
  assert.match(refusal(() => correctRecipientsChange(deps, d, [{ recipientId: 'c', type: 'signer', routingOrder: 2 }], T0)), /recipientId c is not a signer of routing order 3/);
  assert.match(refusal(() => deleteRecipientsChange(deps, d, [{ recipientId: 'c' }], T0)), /recipientId c is not a signer of routing order 3/);
  // A step routing has passed no longer constrains anything: its placeholder, once reached, can go.
  const passed: Envelope = { ...d, status: 'sent', workflow: { steps: [{ ...d.workflow!.steps[0]!, status: 'completed' }] }, recipients: d.recipients.map((r) => ({ ...r, status: r.routingOrder < 3 ? 'completed' as const : 'sent' as const })) };
  const { change } = deleteRecipientsChange(deps, passed, [{ recipientId: 'c' }], T0);
  assert.deepEqual(change.envelope.recipients.map((r) => r.recipientId), ['a', 'b', 'd']);
});
