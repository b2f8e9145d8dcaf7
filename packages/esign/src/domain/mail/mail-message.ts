/** A file attached to a mail (the completed PDF, ≤ 5 MB: docs/esign-signing.md, "Completion"). */
export type MailAttachment = { readonly filename: string; readonly contentType: string; readonly contentBase64: string };

/**
 * One e-mail, fully rendered: what the outbox stores and a transport sends. Plain data (JSON
 * round-trips), so it survives in a database row until delivered.
 */
export type MailMessage = {
  readonly to: { readonly email: string; readonly name: string };
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments?: readonly MailAttachment[];
  /** Which notification this is (envelope-sent, envelope-voided, envelope-completed). */
  readonly kind: string;
  /** The envelope it is about, for the dev mailbox and operators. */
  readonly envelopeId?: string;
};
