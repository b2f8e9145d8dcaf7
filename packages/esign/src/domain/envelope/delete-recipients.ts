import { EsignError } from '../../errors.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import { assertCorrectable, recipientNamed } from './correct-recipients.ts';
import type { Envelope, Recipient, RecipientType } from './envelope.ts';
import { actsOnSigningPage } from './recipient-kinds.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { routeOn, type RoutedOn } from './routing.ts';
import { assertWorkflowFits, stepsToCome } from './assert-workflow-fits.ts';
import { assertWitnesses } from './witnesses.ts';
import { assertBlanksNamed } from './assert-blanks-named.ts';
import { updateEnvelope } from './update-envelope.ts';

/** A recipient to delete, and the list it was named in (absent: deleteRecipient's URL names only the id). */
export type RecipientRemoval = { readonly recipientId: string; readonly type?: RecipientType };

/**
 * EnvelopesApi.deleteRecipient / deleteRecipients as a change (DocuSign "EnvelopeRecipients:
 * delete": a draft's or an envelope in process's recipients, except those who have completed
 * their actions). A recipient who has signed, completed (a reached carbon copy) or declined is
 * refused with RECIPIENT_UPDATE_FAILED and nothing is deleted. The deleted recipients go with
 * their tabs, access codes and every way in (signing links, views, sessions, grants).
 *
 * In process, routing goes on without them: when the deleted were the last signers of the order
 * in progress, the next order is reached now; when nobody is left to act, the envelope is
 * `signed` and completion seals it, as after the last Finish. Deleting every signer of an
 * envelope in process is refused (ENVELOPE_IS_INCOMPLETE): void it instead.
 */
export function deleteRecipientsChange(deps: Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>, envelope: Envelope, removals: readonly RecipientRemoval[], now: Date): { change: EnvelopeChange; deleted: Recipient[] } {
  assertCorrectable(envelope);
  if (removals.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'Name at least one recipient to delete (each in its type\'s list, with its recipientId).');
  const ids = new Set(removals.map((r) => r.recipientId));
  const deleted = removals.map((r) => recipientNamed(envelope, r.recipientId, r.type)).filter((r, i, all) => all.indexOf(r) === i);
  for (const r of deleted) {
    if (r.status === 'signed' || r.status === 'completed' || r.status === 'declined') {
      throw new EsignError('RECIPIENT_UPDATE_FAILED', `recipientId "${r.recipientId}" has ${r.status === 'declined' ? 'declined' : 'completed their actions'} (${r.status}) and cannot be deleted; nothing was deleted.`);
    }
  }
  let next: Envelope = { ...envelope, recipients: envelope.recipients.filter((r) => !ids.has(r.recipientId)) };
  const audit: AuditEvent[] = deleted.map((r) => ({ envelopeId: envelope.envelopeId, at: now, action: 'Recipient Deleted', envelopeStatus: envelope.status, source: 'api', name: r.name, email: r.email, recipientId: r.recipientId, message: `Recipient ${r.recipientId} (${r.name} <${r.email}>) deleted by the sender.` }));
  assertWorkflowFits(stepsToCome(envelope.workflow), next.recipients, 'this deletion');
  assertWitnesses(next.recipients, 'the envelope after this deletion');
  // Deleting an agent, editor or intermediary must leave someone to name the blanks they would have filled.
  assertBlanksNamed(next.recipients, envelope.workflow, 'this deletion');
  let routed: RoutedOn | undefined;
  if (envelope.status !== 'created') {
    if (!next.recipients.some(actsOnSigningPage)) throw new EsignError('ENVELOPE_IS_INCOMPLETE', 'Deleting these recipients would leave the envelope in process with nobody to sign or acknowledge it; void it instead.');
    routed = routeOn(deps, next, now, 'api');
    next = routed.envelope;
  }
  next = { ...next, version: envelope.version + 1 };
  return { change: { envelope: next, signingTokens: routed?.signingTokens ?? [], mails: routed?.mails ?? [], audit: [...audit, ...(routed?.audit ?? [])], removedRecipients: deleted.map((r) => r.recipientId) }, deleted };
}

/** deleteRecipient(s) on the stored envelope, retried over concurrent changes; the deleted recipients as they were. */
export async function deleteRecipients(deps: EnvelopeDeps, accountId: string, envelopeId: string, removals: readonly RecipientRemoval[]): Promise<Recipient[]> {
  let deleted: Recipient[] = [];
  await updateEnvelope(deps, accountId, envelopeId, (current) => {
    const planned = deleteRecipientsChange(deps, current, removals, deps.clock());
    deleted = planned.deleted;
    return planned.change;
  });
  return deleted;
}
