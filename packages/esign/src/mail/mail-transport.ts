import type { MailMessage } from '../domain/mail/mail-message.ts';

/** Sends one mail; SMTP (smtp-transport.ts) or the dev mailbox (dev-mailbox-transport.ts). */
export interface MailTransport {
  /**
   * Resolves once the peer accepted the message; throws MailDeliveryError otherwise.
   * `messageId` is its Message-ID header (outbox-message-id.ts): every attempt at one outbox
   * row carries the same one, so a copy sent twice is one message to the receiver.
   */
  send(message: MailMessage, messageId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A failed delivery. `permanent` (an SMTP 5xx reply, RFC 5321 §4.2.1) means retrying cannot
 * help; anything else (4xx, connection refused, timeouts) is retried with backoff.
 */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  constructor(message: string, readonly permanent: boolean, options?: ErrorOptions) {
    super(message, options);
  }
}
