import type { Envelope, Recipient } from '../envelope/envelope.ts';
import { actsOnSigningPage } from '../envelope/recipient-kinds.ts';

/**
 * What a signing link may do right now. The checks run in this order because an envelope
 * that was voided or declined is closed for everyone, even for a signer who had finished.
 */
export type SignerAccess =
  | { readonly kind: 'sign'; readonly recipient: Recipient }
  /** A later routing order: the link works, but nobody has asked them yet. */
  | { readonly kind: 'not-your-turn'; readonly recipient: Recipient }
  /** They already signed (finish is idempotent: a second click lands here). */
  | { readonly kind: 'finished'; readonly recipient: Recipient }
  | { readonly kind: 'declined'; readonly recipient: Recipient; readonly byThisSigner: boolean }
  | { readonly kind: 'voided'; readonly recipient: Recipient; readonly reason: string }
  /** Everyone signed (the envelope is `signed` while it is being sealed, then `completed`). */
  | { readonly kind: 'completed'; readonly recipient: Recipient }
  | { readonly kind: 'unknown-recipient' };

/** Decides what `recipientId` may do on `envelope` (docs/esign-signing.md, "Statuses and routing"). */
export function signerAccess(envelope: Envelope, recipientId: string): SignerAccess {
  const recipient = envelope.recipients.find((r) => r.recipientId === recipientId && actsOnSigningPage(r));
  if (!recipient) return { kind: 'unknown-recipient' };
  if (envelope.status === 'voided') return { kind: 'voided', recipient, reason: envelope.voidedReason ?? '' };
  if (envelope.status === 'declined') return { kind: 'declined', recipient, byThisSigner: recipient.status === 'declined' };
  if (recipient.status === 'completed' || recipient.status === 'signed') return { kind: 'finished', recipient };
  if (envelope.status === 'completed' || envelope.status === 'signed') return { kind: 'completed', recipient };
  if (recipient.status === 'created' || envelope.status === 'created') return { kind: 'not-your-turn', recipient };
  return { kind: 'sign', recipient };
}
