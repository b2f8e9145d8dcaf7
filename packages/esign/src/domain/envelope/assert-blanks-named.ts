import { EsignError } from '../../errors.ts';
import type { Recipient } from './envelope.ts';
import { managesRecipients } from './recipient-kinds.ts';
import { stepsToCome } from './assert-workflow-fits.ts';
import type { EnvelopeWorkflow } from './workflow.ts';

/**
 * A recipient still without a name or e-mail must have someone to name them before routing
 * reaches them: an agent, editor or intermediary at an earlier routing order who has not
 * finished (domain/signing/manage-recipients.ts), or a conditional rule of a workflow step to
 * come. A change that would leave one unnamed in routing's way (a sender's correction moving
 * them before their agent) is refused, rather than routing mailing nobody.
 */
export function assertBlanksNamed(recipients: readonly Recipient[], workflow: EnvelopeWorkflow | undefined, after: string): void {
  const conditional = new Set(stepsToCome(workflow).flatMap((step) => (step.conditionalRecipients ?? []).map((rule) => rule.recipientId)));
  for (const r of recipients) {
    if ((r.name !== '' && r.email !== '') || r.status !== 'created' || conditional.has(r.recipientId)) continue;
    const namer = recipients.some((m) => managesRecipients(m) && m.routingOrder < r.routingOrder && m.status !== 'completed');
    if (!namer) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${r.recipientId}" has no name or e-mail address yet, and no agent, editor or intermediary before it would give them (after ${after}).`);
  }
}
