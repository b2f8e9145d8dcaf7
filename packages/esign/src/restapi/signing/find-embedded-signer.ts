import type { Envelope, Recipient } from '../../domain/envelope/envelope.ts';
import { EsignError } from '../../errors.ts';
import { actsOnSigningPage } from '../../domain/envelope/recipient-kinds.ts';
import type { RecipientViewRequest } from './parse-recipient-view-request.ts';

/** The view names this person: the same name, the same e-mail in any case. An in-person signer is named by the host. */
function namedBy(person: { readonly name: string; readonly email: string }, request: RecipientViewRequest): boolean {
  return person.name === request.userName && person.email.toLowerCase() === request.email?.toLowerCase();
}

/**
 * The embedded signer a recipient view is for: a signer with the same clientUserId, and the
 * same recipientId, or else the same name and e-mail (e-mail compared case-insensitively, as
 * addresses are; an in-person signer's host's). Anything else is DocuSign's UNKNOWN_ENVELOPE_RECIPIENT.
 */
export function findEmbeddedSigner(envelope: Envelope, request: RecipientViewRequest): Recipient {
  if (request.clientUserId === undefined) return inPersonHostView(envelope, request);
  const signer = envelope.recipients.find((r) =>
    actsOnSigningPage(r) &&
    r.clientUserId === request.clientUserId &&
    (request.recipientId !== undefined
      ? r.recipientId === request.recipientId
      : namedBy(r.host ?? r, request)));
  if (!signer) {
    // A carbon copy has nothing to do on a page, and DocuSign's embedding guide says carbon copies
    // cannot act as embedded recipients: its clientUserId only keeps the service's mails from it.
    const copy = envelope.recipients.find((r) => r.type === 'carbonCopy' && r.clientUserId === request.clientUserId);
    if (copy) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId ${copy.recipientId} is a carbon copy: a carbon copy signs nothing and has no recipient view; get the documents with EnvelopesApi.getDocument.`);
    throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT');
  }
  return signer;
}

/**
 * A view without clientUserId: only for an in-person signer, named by recipientId or by its
 * host's name and e-mail, as DocuSign's signingInPerson example asks (userName = hostName,
 * email = hostEmail). The caller is the sender's own API client; the view is the host's session.
 */
function inPersonHostView(envelope: Envelope, request: RecipientViewRequest): Recipient {
  const found = envelope.recipients.find((r) =>
    r.host !== undefined && r.clientUserId === undefined &&
    (request.recipientId !== undefined
      ? r.recipientId === request.recipientId
      : namedBy(r.host, request)));
  if (!found) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', "'clientUserId' is required for embedded signing (only an in-person signer's host may open a view without it).");
  return found;
}
