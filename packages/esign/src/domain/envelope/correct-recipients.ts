import { EsignError } from '../../errors.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import type { PasscodeAskedAs, PasscodeRequest, RecipientPasscode } from '../signing/passcode.ts';
import type { Envelope, Recipient, RecipientType } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { actsOnSigningPage } from './recipient-kinds.ts';
import { routeOn } from './routing.ts';
import { assertWorkflowFits, stepsToCome } from './assert-workflow-fits.ts';
import { assertBlanksNamed } from './assert-blanks-named.ts';
import { assertWitnesses } from './witnesses.ts';
import { notifyReached } from './signing-links.ts';
import { updateEnvelope } from './update-envelope.ts';

/** What updateRecipients asks of one recipient (restapi/envelopes/parse-recipient-corrections.ts). */
export type RecipientCorrection = {
  readonly recipientId: string;
  /** The list it came in (signers, carbonCopies): a recipient's type does not change here. */
  readonly type: RecipientType;
  readonly name?: string;
  readonly email?: string;
  readonly routingOrder?: number;
  /** Sent back as read: accepted when it is the recipient's own, refused when it would change it. */
  readonly clientUserId?: string;
  /** A witness's new signer (witnesses.ts checks it with the rest). */
  readonly witnessFor?: string;
  /** A new access code as the sender typed it (hashed by correctRecipients before the change; never stored as typed). */
  readonly accessCode?: string;
  /** An in-person signer's host: who gets the mail and the link (recipient-kinds.ts mailTo). */
  readonly host?: { readonly name?: string; readonly email?: string };
  /** A one-time passcode check as sent back: accepted when it is the recipient's own, refused when it would add or change one. */
  readonly passcode?: PasscodeRequest;
};

/** DocuSign's RecipientUpdateResponse: one per recipient named, with errorDetails when it was not changed. */
export type RecipientCorrectionResult = {
  readonly recipientId: string;
  readonly recipientIdGuid?: string;
  readonly errorDetails?: { readonly errorCode: 'RECIPIENT_UPDATE_FAILED'; readonly message: string };
};

/** Statuses of a recipient who has acted: DocuSign corrects nobody past these. */
const ACTED: ReadonlySet<Recipient['status']> = new Set(['signed', 'completed', 'declined']);

/** The envelope statuses whose recipients can be corrected (DocuSign: Created, Sent, Delivered, Correct). */
export function assertCorrectable(envelope: Envelope): void {
  if (!['created', 'sent', 'delivered'].includes(envelope.status)) {
    throw new EsignError('ENVELOPE_INVALID_STATUS', `Envelope status is not one of: Created, Sent, Delivered, Correct. It is ${envelope.status}.`);
  }
  if (envelope.deletedAt) throw new EsignError('ENVELOPE_INVALID_STATUS', 'The envelope is in the recycle bin: restore it first.');
}

/** A recipient of the envelope, of the type the request listed it under; else a 400 naming it. */
export function recipientNamed(envelope: Envelope, recipientId: string, type?: RecipientType): Recipient {
  const r = envelope.recipients.find((x) => x.recipientId === recipientId);
  if (!r) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}" is not a recipient of the envelope (updateRecipients changes recipients; it adds none here).`);
  if (type !== undefined && r.type !== type) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${recipientId}" is a ${r.type}, listed as a ${type}: a recipient's type cannot be changed.`);
  return r;
}

/**
 * EnvelopesApi.updateRecipients as a change (DocuSign "EnvelopeRecipients: update"): each
 * named recipient's name, e-mail address and routing order corrected before they act.
 *
 * - A recipient who has already signed, completed (a reached carbon copy too) or declined is
 *   left as is, and its result carries DocuSign's RECIPIENT_UPDATE_FAILED ("Recipient not in
 *   state that allows correction"), as DocuSign answers for an active envelope; the others in
 *   the same request are corrected.
 * - A corrected address of a recipient the envelope has reached is, as DocuSign says, a new
 *   address even when it is the same text: their old signing link, recipient views, sessions
 *   and access-code grants stop working, and a signer reached by mail gets the signing mail
 *   again at the new address with a fresh link.
 * - `resend`: a corrected signer whose turn it is gets the mail again even without a new address.
 * - Routing order: an unreached recipient may move; moved to the order in progress (or before
 *   it) they are reached now. A reached recipient keeps theirs (RECIPIENT_UPDATE_FAILED).
 */
export function correctRecipientsChange(
  deps: Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>,
  envelope: Envelope,
  corrections: readonly RecipientCorrection[],
  now: Date,
  options: { readonly resend?: boolean; readonly codeHashes?: ReadonlyMap<string, string> } = {},
): { change: EnvelopeChange; results: RecipientCorrectionResult[] } {
  assertCorrectable(envelope);
  const inProcess = envelope.status !== 'created';
  const results: RecipientCorrectionResult[] = [];
  const renotify = new Set<string>();
  const revoke: string[] = [];
  const audit: AuditEvent[] = [];
  let recipients = [...envelope.recipients];
  for (const c of corrections) {
    const current = recipientNamed(envelope, c.recipientId, c.type);
    if (c.host !== undefined && current.host === undefined) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${c.recipientId}" is a ${current.type}: it has no host to correct.`);
    if (c.clientUserId !== undefined && c.clientUserId !== (current.clientUserId ?? '')) {
      throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${c.recipientId}": clientUserId cannot be changed (it ties the recipient to the embedding app's user).`);
    }
    if (c.passcode !== undefined && !isTheirCheck(current.passcode, c.passcode)) {
      throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${c.recipientId}": a one-time passcode check cannot be ${current.passcode ? 'changed' : 'added'} through updateRecipients yet; send it back as listRecipients answers it, or leave it out.`);
    }
    const refuse = (why: string) => results.push({ recipientId: c.recipientId, recipientIdGuid: current.recipientIdGuid, errorDetails: { errorCode: 'RECIPIENT_UPDATE_FAILED', message: `The recipient could not be updated. ${why}` } });
    if (ACTED.has(current.status)) {
      refuse(`Recipient not in state that allows correction (${current.status}).`);
      continue;
    }
    const reached = current.status !== 'created';
    // A new access code (DocuSign's updateRecipients takes one): only for who opens a page, where it is asked.
    const codeHash = c.accessCode === undefined ? undefined : options.codeHashes?.get(c.recipientId);
    if (c.accessCode !== undefined && !actsOnSigningPage(current)) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${c.recipientId}" is a ${current.type}: it opens no signing page, so an access code would guard nothing.`);
    if (c.accessCode !== undefined && codeHash === undefined) throw new TypeError(`no hash for recipientId ${c.recipientId}'s access code`);
    if (reached && c.routingOrder !== undefined && c.routingOrder !== current.routingOrder) {
      refuse(`The envelope has reached this recipient (${current.status}): their routingOrder ${current.routingOrder} cannot change.`);
      continue;
    }
    // An in-person signer given no address of their own has the host's: it follows a new host address.
    const hostEmail = c.host?.email !== undefined && c.host.email !== current.host?.email ? c.host.email : undefined;
    const email = c.email ?? (hostEmail !== undefined && current.email === current.host?.email ? hostEmail : undefined);
    const next: Recipient = {
      ...current,
      ...(c.name !== undefined ? { name: c.name } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(c.host !== undefined && current.host !== undefined ? { host: { name: c.host.name ?? current.host.name, email: c.host.email ?? current.host.email } } : {}),
      ...(c.routingOrder !== undefined ? { routingOrder: c.routingOrder } : {}),
      ...(c.witnessFor !== undefined ? { witnessFor: c.witnessFor } : {}),
      ...(codeHash !== undefined ? { accessCode: { hash: codeHash, failures: 0 } } : {}),
      // An e-mail passcode goes to the recipient's address: a corrected one moves it there, and
      // a code already sent to the old address is no longer good.
      ...(email !== undefined && current.passcode?.method === 'email' ? { passcode: emailPasscodeTo(current.passcode, email) } : {}),
    };
    recipients = recipients.map((r) => (r.recipientId === c.recipientId ? next : r));
    results.push({ recipientId: c.recipientId, recipientIdGuid: current.recipientIdGuid });
    // A new code is a new way in: the old link and any access already granted with the old code end, and a fresh link goes out.
    // A new host address is a new way in too: the link goes to the host (mailTo).
    const newAddress = c.email !== undefined || hostEmail !== undefined;
    if (reached && (newAddress || codeHash !== undefined)) revoke.push(c.recipientId);
    if (reached && actsOnSigningPage(current) && (newAddress || codeHash !== undefined || options.resend)) renotify.add(c.recipientId);
    const changes = [c.name !== undefined && c.name !== current.name ? `name "${current.name}" → "${c.name}"` : '', c.email !== undefined ? `e-mail ${current.email} → ${c.email}` : '', c.routingOrder !== undefined && c.routingOrder !== current.routingOrder ? `routing order ${current.routingOrder} → ${c.routingOrder}` : '', c.witnessFor !== undefined && c.witnessFor !== current.witnessFor ? `witness for ${current.witnessFor ?? '(nobody)'} → ${c.witnessFor}` : '', c.host?.name !== undefined && c.host.name !== current.host?.name ? `host "${current.host?.name ?? ''}" → "${c.host.name}"` : '', hostEmail !== undefined ? `host e-mail ${current.host?.email ?? ''} → ${hostEmail}` : '', codeHash !== undefined ? 'access code set' : ''].filter(Boolean);
    audit.push({ envelopeId: envelope.envelopeId, at: now, action: 'Corrected', envelopeStatus: envelope.status, source: 'api', name: next.name, email: next.email, recipientId: c.recipientId, message: changes.length > 0 ? `Recipient ${c.recipientId} corrected: ${changes.join(', ')}.` : `Recipient ${c.recipientId} corrected (nothing changed).` });
  }
  assertWorkflowFits(stepsToCome(envelope.workflow), recipients, 'this correction');
  assertBlanksNamed(recipients, envelope.workflow, 'this correction');
  assertWitnesses(recipients, 'the envelope after this correction');
  let next: Envelope = { ...envelope, recipients };
  // In process, recipients moved to the order in progress (or before it) are reached now, and
  // with nobody pending routing moves on as after a Finish (routing.ts); a hold stops both.
  const routed = inProcess ? routeOn(deps, next, now, 'api', ' (moved forward by a correction)') : undefined;
  next = { ...(routed?.envelope ?? next), version: envelope.version + 1 };
  const again = next.recipients.filter((r) => renotify.has(r.recipientId));
  const resent = notifyReached(deps, next, again, now);
  audit.push(...(routed?.audit ?? []));
  for (const r of again) audit.push({ envelopeId: envelope.envelopeId, at: now, action: 'Sent', envelopeStatus: next.status, source: 'api', name: r.name, email: r.email, recipientId: r.recipientId, message: `Sent again to ${r.name} <${r.email}> after a correction.` });
  return {
    // The mails sent again (a new address, a new code, a resend) are the sender's own; those of
    // routing moving on reach recipients counted when the envelope was sent.
    change: { envelope: next, signingTokens: [...resent.signingTokens, ...(routed?.signingTokens ?? [])], mails: [...resent.mails, ...(routed?.mails ?? [])], reach: { recipients: resent.mails.length, at: now }, audit, revokeSigningOf: revoke },
    results,
  };
}

/** EnvelopesApi.updateRecipients on the stored envelope, retried over concurrent changes. */
export async function correctRecipients(deps: EnvelopeDeps, accountId: string, envelopeId: string, corrections: readonly RecipientCorrection[], options: { readonly resend?: boolean } = {}): Promise<RecipientCorrectionResult[]> {
  let results: RecipientCorrectionResult[] = [];
  // Hashed once, before the (retried) change: the store keeps only the hash.
  const codeHashes = new Map(await Promise.all(corrections.filter((c) => c.accessCode !== undefined).map(async (c) => [c.recipientId, await deps.hashAccessCode(c.accessCode ?? '')] as const)));
  await updateEnvelope(deps, accountId, envelopeId, (current) => {
    const planned = correctRecipientsChange(deps, current, corrections, deps.clock(), { ...options, codeHashes });
    results = planned.results;
    return planned.change;
  });
  return results;
}

/**
 * The check sent back is the recipient's own: the same method, asked the same way, to the same
 * numbers (an e-mail passcode goes to the recipient's address, whatever was sent with it).
 */
function isTheirCheck(current: RecipientPasscode | undefined, sent: PasscodeRequest): boolean {
  if (!current || current.method !== sent.method || !sameAskedAs(current.askedAs, sent.askedAs)) return false;
  return current.method === 'email' || sameList(current.destinations, sent.destinations);
}

function sameAskedAs(a: PasscodeAskedAs, b: PasscodeAskedAs): boolean {
  if (a.kind === 'idCheck' || b.kind === 'idCheck') return a.kind === b.kind;
  return a.workflowId === b.workflowId && sameList(a.phoneNumbers.map((n) => `${n.countryCode} ${n.number}`), b.phoneNumbers.map((n) => `${n.countryCode} ${n.number}`));
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** An e-mail passcode sent to `email` from now on, with no code pending (one sent to the old address is dropped). */
function emailPasscodeTo(code: RecipientPasscode, email: string): RecipientPasscode {
  const { pending: _dropped, ...rest } = code;
  return { ...rest, destinations: [email] };
}
