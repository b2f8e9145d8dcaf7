import { visibleDocuments } from '../../domain/envelope/document-visibility.ts';
import type { Envelope, EnvelopeDocument, Recipient } from '../../domain/envelope/envelope.ts';
import { EsignError } from '../../errors.ts';
import type { RawQuery } from './parse-status-changes-query.ts';

/**
 * DocuSign's `recipient_id` on listDocuments and getDocument: the documents as that recipient
 * sees them (domain/envelope/document-visibility.ts); without it, every document (the sender's view).
 */
export function documentsSeenBy(envelope: Envelope, query: RawQuery): EnvelopeDocument[] {
  const raw = query.recipient_id;
  const recipientId = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (recipientId === undefined || recipientId === '') return [...envelope.documents];
  return visibleDocuments(envelope, recipientNamed(envelope, recipientId));
}

/** The recipient a `recipient_id` query names, or undefined when it names none. */
export function queriedRecipient(envelope: Envelope, query: RawQuery): Recipient | undefined {
  const raw = query.recipient_id;
  const recipientId = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return recipientId === undefined || recipientId === '' ? undefined : recipientNamed(envelope, recipientId);
}

function recipientNamed(envelope: Envelope, recipientId: string): Recipient {
  const recipient = envelope.recipients.find((r) => r.recipientId === recipientId);
  if (!recipient) throw new EsignError('INVALID_REQUEST_PARAMETER', `recipient_id "${recipientId.slice(0, 100)}" is not a recipient of the envelope.`);
  return recipient;
}
