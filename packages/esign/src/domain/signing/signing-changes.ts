import { EsignError } from '../../errors.ts';
import { assertEnvelopeTransition, assertRecipientTransition } from '../envelope/envelope-transitions.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import type { EnvelopeChange, EnvelopeDeps, SigningTokenRecord } from '../envelope/ports.ts';
import { routeOn } from '../envelope/routing.ts';
import { isEmbedded } from '../envelope/recipient-kinds.ts';
import type { AuditActor, AuditEvent } from './audit-event.ts';
import { signerAccess } from './signer-access.ts';
import { signerTabsOf, withTabValues } from './signer-tabs.ts';
import { signerTabValues } from '../tabs/values/signer-tab-values.ts';
import { attachmentDocuments, type SignerUpload } from './signer-attachments.ts';
import { acknowledgementsDue, assertAcknowledged } from '../envelope/document-supplement.ts';

/** The supplemental documents a signer viewed (their audit lines) and accepted (the Finish form). */
export type Acknowledged = { readonly viewed: ReadonlySet<string>; readonly accepted: ReadonlySet<string> };
const NOTHING_ACKNOWLEDGED: Acknowledged = { viewed: new Set(), accepted: new Set() };

/** What composing the next order's mails needs (the same ports sendDraft uses). */
export type RoutingDeps = Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>;

/** DocuSign caps the decline reason; a bounded column keeps the certificate readable. */
export const MAX_DECLINE_REASON = 2000;

function replaceRecipient(envelope: Envelope, next: Recipient): Envelope {
  return { ...envelope, recipients: envelope.recipients.map((r) => (r.recipientId === next.recipientId ? next : r)) };
}

function audit(envelope: Envelope, recipient: Recipient, actor: AuditActor, at: Date, action: AuditEvent['action'], message: string): AuditEvent {
  return { ...actor, name: recipient.name, email: recipient.email, recipientId: recipient.recipientId, envelopeId: envelope.envelopeId, at, action, envelopeStatus: envelope.status, message, source: 'web' };
}

/**
 * First view of the signing page: the recipient becomes `delivered`, and so does the envelope
 * on its first view by anyone ("sent → delivered (first viewed)"). Later views change
 * nothing, so they write nothing; undefined means "no change".
 */
export function recordView(envelope: Envelope, recipientId: string, now: Date, actor: AuditActor): EnvelopeChange | undefined {
  const access = signerAccess(envelope, recipientId);
  if (access.kind !== 'sign' || access.recipient.status !== 'sent') return undefined;
  assertRecipientTransition(access.recipient.status, 'delivered');
  let next = replaceRecipient(envelope, { ...access.recipient, status: 'delivered', deliveredAt: now });
  if (next.status === 'sent') {
    assertEnvelopeTransition(next.status, 'delivered');
    next = { ...next, status: 'delivered', deliveredAt: now, statusChangedAt: now };
  }
  next = { ...next, version: envelope.version + 1 };
  return { envelope: next, signingTokens: [], mails: [], audit: [audit(next, access.recipient, actor, now, 'Viewed', `${access.recipient.name} opened the envelope.`)] };
}

/**
 * The signer finished: they are `completed`, and routing moves on in the same change. When
 * every signer of the current routing order is done, the next order is reached: its signers get
 * a mail with a fresh link, its carbon copies their copy (routing.ts). When nobody is left the
 * envelope becomes `signed`, DocuSign's transient state, which the completion worker turns into
 * `completed` once the sealed PDF exists. Undefined when the signer had already finished
 * (idempotent); throws for a signer who may not sign.
 *
 * The signer's tab values (`posted`: tabId → value, as the signing page sent them) are judged
 * here, against the envelope as stored, and saved with the recipient in the same change:
 * signerTabValues refuses a locked tab changed, a value breaking its tab's rule or a required
 * tab left blank (INVALID_TAB_OPERATION, INVALID_TAB_VALUE), so nothing is written; the
 * auto-filled tabs and formulas get their values now.
 */
export function finishSigning(deps: RoutingDeps, envelope: Envelope, recipientId: string, now: Date, actor: AuditActor, posted: ReadonlyMap<string, string> = new Map(), uploads: readonly SignerUpload[] = [], acknowledged: Acknowledged = NOTHING_ACKNOWLEDGED): EnvelopeChange | undefined {
  const access = signerAccess(envelope, recipientId);
  if (access.kind === 'finished') return undefined;
  if (access.kind !== 'sign') throw notAllowed(access.kind);
  const signer = access.recipient;
  assertRecipientTransition(signer.status, 'completed');
  // Every supplemental document the signer owes a view or an acceptance (DocuSign signerMustAcknowledge, a View tab's requiredRead).
  const due = acknowledgementsDue(envelope, signer);
  assertAcknowledged(due, acknowledged);
  const tabs = signerTabsOf(signer);
  const values = signerTabValues(tabs, posted, { name: signer.name, email: signer.email }, now, envelope.account?.signDateFormat);
  const attached = attachmentDocuments(envelope.documents, tabs, values, uploads);
  // A certified delivery signs nothing: completed, with no signedDateTime.
  const done: Recipient = withTabValues({ ...signer, status: 'completed', deliveredAt: signer.deliveredAt ?? now, ...(signer.type === 'certifiedDelivery' ? {} : { signedAt: now }), completedAt: now }, values);
  const routed = routeOn(deps, replaceRecipient(attached.pdfs.size > 0 ? { ...envelope, documents: attached.documents } : envelope, done), now, 'system');
  const next = { ...routed.envelope, version: envelope.version + 1 };
  const own = signer.type === 'certifiedDelivery'
    ? audit(next, signer, actor, now, 'Acknowledged', `${signer.name} viewed and acknowledged the documents (certified delivery).`)
    : audit(next, signer, actor, now, 'Signed', `${signer.name} signed the envelope.`);
  const accepted = due.filter((d) => d.accept).map((d): AuditEvent => ({ ...audit(next, signer, actor, now, 'Supplement Accepted', `${signer.name} accepted the supplemental document "${d.name}".`), documentId: d.documentId }));
  const events = [...accepted, own, ...routed.audit];
  // The signer's tab values are stored with the Finish (tabsOf: the store rewrites their tabs), and
  // their attachments as new documents in the same transaction (content).
  // An embedded recipient is mailed nothing else, but is told they finished (recipient-kinds.ts isEmbedded).
  const mails = isEmbedded(signer) ? [...routed.mails, deps.notifier.compose({ kind: 'finished-embedded', recipientId, at: now }, next)] : routed.mails;
  return { envelope: next, signingTokens: routed.signingTokens, mails, audit: events, tabsOf: [recipientId], ...(attached.pdfs.size > 0 ? { content: { pdfs: attached.pdfs } } : {}) };
}

/**
 * A signer opened a supplemental document (its pages in the dialog, or the file): one audit
 * line, which Finish reads back as the view DocuSign's `view` asks for. Undefined (nothing
 * written) when the document is no supplement, the recipient cannot sign now, or the view
 * is already recorded.
 */
export function recordSupplementView(envelope: Envelope, recipientId: string, documentId: string, alreadyViewed: boolean, now: Date, actor: AuditActor): EnvelopeChange | undefined {
  const access = signerAccess(envelope, recipientId);
  const document = envelope.documents.find((d) => d.documentId === documentId);
  if (alreadyViewed || access.kind !== 'sign' || !document?.supplement) return undefined;
  const next = { ...envelope, version: envelope.version + 1 };
  const event: AuditEvent = { ...audit(next, access.recipient, actor, now, 'Supplement Viewed', `${access.recipient.name} viewed the supplemental document "${document.name}".`), documentId };
  return { envelope: next, signingTokens: [], mails: [], audit: [event] };
}

/** The signer declined with a reason: they and the envelope are `declined` (DocuSign "Envelope status codes"). Undefined when they had already declined. */
export function declineSigning(envelope: Envelope, recipientId: string, reason: string, now: Date, actor: AuditActor): EnvelopeChange | undefined {
  const access = signerAccess(envelope, recipientId);
  if (access.kind === 'declined' && access.byThisSigner) return undefined;
  if (access.kind !== 'sign') throw notAllowed(access.kind);
  const trimmed = reason.trim();
  if (trimmed === '' || trimmed.length > MAX_DECLINE_REASON) throw new EsignError('INVALID_REQUEST_PARAMETER', `A reason for declining of 1 to ${MAX_DECLINE_REASON} characters is required.`);
  const signer = access.recipient;
  assertRecipientTransition(signer.status, 'declined');
  assertEnvelopeTransition(envelope.status, 'declined');
  let next = replaceRecipient(envelope, { ...signer, status: 'declined', declinedAt: now, declinedReason: trimmed });
  next = { ...next, status: 'declined', declinedAt: now, statusChangedAt: now, version: envelope.version + 1 };
  return { envelope: next, signingTokens: [], mails: [], audit: [audit(next, signer, actor, now, 'Declined', `${signer.name} declined to sign: ${trimmed}`)] };
}

/** The pages show a friendly page for each access kind before acting; this guards the rest. */
function notAllowed(kind: string): EsignError {
  return new EsignError('ENVELOPE_INVALID_STATUS', `The recipient cannot sign now (${kind}).`);
}

/**
 * The sealed PDF exists: the envelope leaves DocuSign's transient `signed` state for
 * `completed`, with the completion mails in the same change. Undefined when it is not `signed`
 * (another instance completed it first).
 */
export function markCompleted(envelope: Envelope, now: Date, completion: { mails: EnvelopeChange['mails']; signingTokens: readonly SigningTokenRecord[] }): EnvelopeChange | undefined {
  if (envelope.status !== 'signed') return undefined;
  assertEnvelopeTransition(envelope.status, 'completed');
  const next: Envelope = { ...envelope, status: 'completed', completedAt: now, statusChangedAt: now, version: envelope.version + 1 };
  const event: AuditEvent = { envelopeId: envelope.envelopeId, at: now, action: 'Completed', envelopeStatus: 'completed', source: 'system', message: 'Every signer has signed; the documents were stamped and sealed.' };
  return { envelope: next, signingTokens: completion.signingTokens, mails: completion.mails, audit: [event] };
}
