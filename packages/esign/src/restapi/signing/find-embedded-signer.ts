import type { Envelope, Recipient } from '../../domain/envelope/envelope.ts';
import { EsignError } from '../../errors.ts';
import type { RecipientViewRequest } from './parse-recipient-view-request.ts';

/**
 * The embedded signer a recipient view is for: a signer with the same clientUserId, and the
 * same recipientId, or else the same name and e-mail (e-mail compared case-insensitively, as
 * addresses are). Anything else is DocuSign's UNKNOWN_ENVELOPE_RECIPIENT.
 */
export function findEmbeddedSigner(envelope: Envelope, request: RecipientViewRequest): Recipient {
  const signer = envelope.recipients.find((r) =>
    r.type === 'signer' &&
    r.clientUserId === request.clientUserId &&
    (request.recipientId !== undefined
      ? r.recipientId === request.recipientId
      : r.name === request.userName && r.email.toLowerCase() === request.email?.toLowerCase()));
  if (!signer) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT');
  return signer;
}
