/**
 * One line of an envelope's audit trail (DocuSign listAuditEvents, docusign-esign src/model/EnvelopeAuditEvent.js): stored
 * append-only, never updated. Actions use DocuSign's words where it has them.
 */
export type AuditAction = 'Sent' | 'Viewed' | 'Signed' | 'Declined' | 'Voided' | 'Completed'
  // The service could not stamp and seal a signed envelope; an operator asked for another try.
  | 'Completion Failed' | 'Completion Retried'
  // FoldersApi.moveEnvelopes into and out of the recycle bin.
  | 'Deleted' | 'Restored'
  // The envelope's workflow held routing back (scheduled sending, a pause, a delay), or let it go on.
  | 'Routing Paused' | 'Routing Resumed'
  // A certified delivery opened the documents and acknowledged them (they sign nothing).
  | 'Acknowledged'
  // An agent, editor or intermediary changed a later recipient, and finished (domain/envelope/manage-recipients.ts).
  | 'Recipient Changed' | 'Recipients Specified'
  // A signer typed their access code (domain/signing/access-code.ts).
  | 'Access Code Passed' | 'Access Code Failed'
  // The sender corrected or deleted a recipient before they acted (updateRecipients, deleteRecipient(s)), or added one (createRecipient).
  | 'Corrected' | 'Recipient Deleted' | 'Recipient Added'
  // A one-time passcode was sent to a signer, or typed (domain/signing/passcode.ts).
  | 'Passcode Sent' | 'Passcode Passed' | 'Passcode Failed'
  // A signer opened or accepted a supplemental document (domain/envelope/document-supplement.ts).
  | 'Supplement Viewed' | 'Supplement Accepted';

/** Who did it and from where; absent for the service's own steps (completion) and API calls without a browser. */
export type AuditActor = {
  readonly name?: string;
  readonly email?: string;
  readonly recipientId?: string;
  readonly ipAddress?: string;
  readonly userAgent?: string;
};

export type AuditEvent = AuditActor & {
  readonly envelopeId: string;
  readonly at: Date;
  readonly action: AuditAction;
  /** The envelope status right after the event. */
  readonly envelopeStatus: string;
  /** A sentence for people (the certificate of completion prints it). */
  readonly message: string;
  /** web (signing page), api (REST), system (the service). */
  readonly source: 'web' | 'api' | 'system';
  /** The document the line is about (a supplemental document viewed or accepted). */
  readonly documentId?: string;
};
