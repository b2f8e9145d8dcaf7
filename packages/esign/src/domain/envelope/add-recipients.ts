import { EsignError } from '../../errors.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import { assertWorkflowFits, stepsToCome } from './assert-workflow-fits.ts';
import { assertCorrectable } from './correct-recipients.ts';
import { placeOnEnvelope } from './edit-envelope-tabs.ts';
import type { RecipientDraft } from './envelope-draft.ts';
import type { Envelope, Recipient } from './envelope.ts';
import { getEnvelope } from './get-envelope.ts';
import type { PlacedTab } from './placed-tab.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { mailedCount } from './recipient-kinds.ts';
import { routeOn } from './routing.ts';
import { notifyReached } from './signing-links.ts';
import { updateEnvelope } from './update-envelope.ts';
import { assertWitnesses } from './witnesses.ts';
import { assertBlanksNamed } from './assert-blanks-named.ts';
import { assertVisibility } from './document-visibility.ts';
import { assertEnvelopeSize } from './envelope-limits.ts';
import { newPasscode } from '../signing/passcode.ts';

/** The create's bound (restapi/envelopes/parse-envelope-definition.ts). */

/** A new recipient as the envelope holds it: not reached yet, its tabs placed, its access code hashed. */
function newRecipient(deps: Pick<EnvelopeDeps, 'random'>, d: RecipientDraft, tabs: readonly PlacedTab[], codeHash: string | undefined): Recipient {
  return {
    recipientId: d.recipientId, recipientIdGuid: deps.random.uuid(), type: d.type, email: d.email, name: d.name, routingOrder: d.routingOrder, status: 'created',
    ...(d.clientUserId !== undefined ? { clientUserId: d.clientUserId } : {}),
    ...(d.host ? { host: d.host } : {}),
    ...(d.witnessFor !== undefined ? { witnessFor: d.witnessFor } : {}),
    ...(d.agentCanEditName === true ? { agentCanEditName: true } : {}),
    ...(d.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
    ...(d.excludedDocuments && d.excludedDocuments.length > 0 ? { excludedDocuments: d.excludedDocuments } : {}),
    ...(d.language !== undefined ? { language: d.language } : {}),
    ...(codeHash !== undefined ? { accessCode: { hash: codeHash, failures: 0 } } : {}),
    ...(d.passcode ? { passcode: newPasscode(d.passcode) } : {}),
    tabs,
  };
}

/**
 * EnvelopesApi.createRecipient as a change (DocuSign "EnvelopeRecipients: create"): recipients
 * added to a draft, or to an envelope in process. In process, a new recipient whose routing
 * order is later than the one in progress is mailed when routing reaches them; one at or before
 * it is reached now, and, as DocuSign documents, mailed only when `resend` (resend_envelope=true)
 * asks for it: without it they are `sent` with no mail yet, and a later resend mails them.
 */
export function addRecipientsChange(deps: Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>, envelope: Envelope, added: readonly Recipient[], now: Date, options: { resend: boolean }): EnvelopeChange {
  assertCorrectable(envelope);
  if (added.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'Name at least one recipient to add (recipients.signers, carbonCopies, certifiedDeliveries, inPersonSigners, agents, editors, intermediaries or witnesses).');
  for (const r of added) {
    if (envelope.recipients.some((x) => x.recipientId === r.recipientId)) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${r.recipientId}" is already a recipient of the envelope: change it with updateRecipients.`);
  }
  const recipients = [...envelope.recipients, ...added];
  assertEnvelopeSize({ recipients: recipients.length }, 'An envelope');
  assertWitnesses(recipients, 'the envelope');
  // A recipient added without a name or e-mail needs an agent, editor or intermediary still to come before it.
  assertBlanksNamed(recipients, envelope.workflow, 'this addition');
  // Hidden documents as at create (document-visibility.ts): only where the envelope enforces visibility, never a document with their tabs.
  const excluding = added.find((r) => r.excludedDocuments !== undefined);
  if (excluding && !envelope.enforceSignerVisibility) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${excluding.recipientId}'s excludedDocuments is read only on an envelope with enforceSignerVisibility "true".`);
  assertVisibility(envelope.documents, added);
  assertWorkflowFits(stepsToCome(envelope.workflow), recipients, 'this addition');
  const audit: AuditEvent[] = added.map((r) => ({ envelopeId: envelope.envelopeId, at: now, action: 'Recipient Added', envelopeStatus: envelope.status, source: 'api', name: r.name, email: r.email, recipientId: r.recipientId, message: `Recipient ${r.recipientId} (${r.name} <${r.email}>) added by the sender, routing order ${r.routingOrder}.` }));
  const base: Envelope = { ...envelope, recipients };
  const addedIds = added.map((r) => r.recipientId);
  if (envelope.status === 'created') return { envelope: { ...base, version: envelope.version + 1 }, signingTokens: [], mails: [], audit, addedRecipients: addedIds };
  const routed = routeOn(deps, base, now, 'api', ' (added by the sender)');
  const next = { ...routed.envelope, version: envelope.version + 1 };
  // Only new recipients can be reached here (routing had reached everyone up to the order in progress).
  const told = options.resend ? routed.reached : routed.reached.filter((r) => !addedIds.includes(r.recipientId));
  const { mails, signingTokens } = notifyReached(deps, next, told, now);
  // Added to an envelope in process, they were not counted at its send: each one who will get mail counts now.
  const reach = { recipients: mailedCount(added), at: now };
  return { envelope: next, signingTokens, mails, reach, audit: [...audit, ...routed.audit], addedRecipients: addedIds };
}

/** Places the new recipients' tabs on the envelope's stored PDFs, then adds them in one change; returns them as stored. */
export async function addRecipients(deps: EnvelopeDeps, accountId: string, envelopeId: string, drafts: readonly RecipientDraft[], options: { resend: boolean }): Promise<Recipient[]> {
  const before = await getEnvelope(deps, accountId, envelopeId);
  // Refused before the (expensive) placing when the envelope takes no recipients.
  assertCorrectable(before);
  const placed = await placeOnEnvelope(deps, before, drafts);
  const codeHashes = await Promise.all(drafts.map((d) => (d.accessCode !== undefined ? deps.hashAccessCode(d.accessCode) : Promise.resolve(undefined))));
  const added = drafts.map((d, i) => newRecipient(deps, d, placed[i] ?? [], codeHashes[i]));
  const after = await updateEnvelope(deps, accountId, envelopeId, (current) => addRecipientsChange(deps, current, added, deps.clock(), options));
  return after.recipients.filter((r) => added.some((a) => a.recipientId === r.recipientId));
}
