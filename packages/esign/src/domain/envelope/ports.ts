import type { ConnectOccurrence } from '../connect/derive-connect-events.ts';
import type { EventSubscription } from '../connect/event-subscription.ts';
import type { MailMessage } from '../mail/mail-message.ts';
import type { AdoptedSignature } from '../signing/adopted-signature.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import type { AnchorSpec, Envelope } from './envelope.ts';
import type { PageSize } from './assert-tab-on-page.ts';
import type { FolderType } from './folders.ts';
import type { BrandStore } from '../brands/brand-ports.ts';
import type { AccountSettingsStore } from '../account/account-settings-ports.ts';
import type { AccountCustomFieldStore } from '../account/account-custom-fields.ts';
import type { PdfFormField } from '../tabs/pdf-form-field.ts';
import type { EnvelopeRelation } from './envelope-access.ts';

/** The clock; tests inject a fixed one. */
export type Clock = () => Date;

/** Randomness; tests inject a seeded one. */
export interface Random {
  /** A random UUID (envelope, recipient, tab ids). */
  uuid(): string;
  /** A bearer secret: 32 random bytes, base64url. */
  secretToken(): string;
}

/** One document to turn into PDF (the pdf package's Converter behind an adapter). */
export interface DocumentConverter {
  /**
   * PDF bytes and page sizes; throws EsignError (FORMAT_CONVERSION_ERROR, PDF_VALIDATION_FAILED) naming the document.
   * `accountId` is whose turn it takes in the converter's queues, which serve accounts in turn.
   */
  convert(document: { documentId: string; name: string; fileExtension: string; bytes: Uint8Array; transformPdfFields?: { readonly assignTabsToRecipientId: string } }, accountId: string): Promise<ConvertedDocument>;
}

/**
 * The PDF and the size of each of its pages (tab positions are checked against them). With
 * transformPdfFields, the form's fields (those not named IgnoreTransform) and a PDF without its form.
 */
export type ConvertedDocument = { pdf: Uint8Array; pages: readonly PageSize[]; formFields?: readonly PdfFormField[] };

/** Where an anchor matched, offsets and alignment already applied (the pdf package's geometry). */
export type AnchorPlacement = { documentIndex: number; pageNumber: number; xPosition: number; yPosition: number };

/** Anchor search across every document of the envelope (DocuSign "Auto-place (anchor tagging)"). */
export interface AnchorFinder {
  /** One placement per match, in document order; an empty list when there is none. */
  find(pdfs: readonly Uint8Array[], anchor: AnchorSpec): Promise<AnchorPlacement[]>;
}

/** What the domain asks to be told to a recipient; the mail module renders it. */
export type Notification =
  | { readonly kind: 'envelope-sent'; readonly recipientId: string; readonly signingToken?: string }
  | { readonly kind: 'envelope-voided'; readonly recipientId: string }
  /** An embedded recipient finished (signed, or acknowledged) in the sender's application. */
  | { readonly kind: 'finished-embedded'; readonly recipientId: string; readonly at: Date };

/** Turns a notification into a mail (mail/compose-notification.ts). */
export interface Notifier {
  compose(notification: Notification, envelope: Envelope): MailMessage;
}

/** A per-recipient signing link secret, stored only as its SHA-256 (single purpose: signing). */
export type SigningTokenRecord = {
  readonly tokenHash: string;
  readonly envelopeId: string;
  readonly recipientId: string;
  readonly purpose: 'signing';
  readonly createdAt: Date;
};

/**
 * What a use case decides one change does, all written in one transaction: the envelope (its
 * reminder and expiry settings and progress included), signing tokens, outbox mails, audit
 * lines, adopted signatures, a new envelope's own Connect webhook.
 */
export type EnvelopeChange = {
  readonly envelope: Envelope;
  readonly signingTokens: readonly SigningTokenRecord[];
  readonly mails: readonly MailMessage[];
  /**
   * How many recipients the sender's change commits the account to mailing: a send counts every
   * recipient who will get mail as routing goes on (not only the first order), a resend or a
   * correction the mails it sends. The store spends it from the account's send allowance in the
   * same transaction, or refuses the change (store/send-allowance.ts). Mail that routing sends
   * later, after a signer finishes, was counted when the envelope was sent. `at`: when the
   * change was made (the allowance's window is the 24 hours before it).
   */
  readonly reach?: { readonly recipients: number; readonly at: Date };
  /** Audit-trail lines of this change. */
  readonly audit?: readonly AuditEvent[];
  /** Signatures a Finish adopted: stored only if this change is (a Finish that lost a race leaves none). */
  readonly adoptedSignatures?: readonly { readonly recipientId: string; readonly signature: AdoptedSignature }[];
  /** A new envelope's own Connect webhook, stored with it (create only). */
  readonly eventNotification?: EventSubscription;
  /**
   * Recipients whose tabs this change rewrote (added, moved, removed or given values): the store
   * replaces their stored tabs with `envelope`'s. Absent: tabs are left as stored.
   */
  readonly tabsOf?: readonly string[];
  /**
   * A draft's documents and tabs changed (change-draft-documents.ts): the store makes the
   * stored documents and tabs those of `envelope`, with these PDFs for the added or replaced
   * documents (the others keep theirs).
   */
  readonly content?: { readonly pdfs: ReadonlyMap<string, Uint8Array> };
  /** The envelope's custom fields changed (custom_fields calls): the store writes them as `envelope` has them. */
  readonly customFieldsChanged?: boolean;
  /**
   * Recipients whose ways in stop working (correct-recipients.ts: a corrected e-mail address):
   * the store deletes their signing links, recipient views, signing sessions and access-code
   * grants before it stores this change's new links, so an old link opens nothing.
   */
  readonly revokeSigningOf?: readonly string[];
  /**
   * Recipients this change removed (delete-recipients.ts): the store deletes their rows, tabs,
   * access codes, adopted signatures and every way in they had.
   */
  readonly removedRecipients?: readonly string[];
  /** Recipients this change added (add-recipients.ts): the store inserts their rows and tabs. */
  readonly addedRecipients?: readonly string[];
};

/**
 * A change with every effect listed, as the store writes it: the Connect events it publishes,
 * derived from the envelope before and after it (domain/envelope/envelope-write.ts). The store
 * turns them into one delivery per subscription that wants them, in the same transaction.
 */
export type EnvelopeWrite = EnvelopeChange & {
  readonly connectEvents: readonly ConnectOccurrence[];
};

/** The listStatusChanges filter (restapi/envelopes parses the query). */
export type EnvelopeQuery = {
  readonly fromDate?: Date;
  readonly toDate?: Date;
  readonly statuses?: readonly string[];
  readonly envelopeIds?: readonly string[];
  readonly startPosition: number;
  readonly count: number;
  /** 'asc' (default: oldest or A first) or 'desc', along `orderBy`. */
  readonly order?: 'asc' | 'desc';
  /** The sort key (listStatusChanges' order_by); the status change time when absent. */
  readonly orderBy?: EnvelopeOrderBy;
  /** Only envelopes whose subject, or a recipient's name or email, contains this (ASCII case folded). */
  readonly searchText?: string;
  /**
   * Only envelopes in one of these folders (folder_ids, folder_types, FoldersApi.listItems);
   * inbox needs `viewerUserId`. Without folders and envelopeIds, the recycle bin is left out:
   * a deleted envelope leaves the lists until it is restored.
   */
  readonly folders?: readonly FolderType[];
  /** The caller, whose inbox `folders: ['inbox']` means (envelopes with a recipient of their e-mail). */
  readonly viewerUserId?: string;
  /** Only envelopes this user sent (listStatusChanges' user_id). */
  readonly senderUserId?: string;
  /**
   * Only envelopes this user sent or received: set for a member whose profile does not reach
   * the account's envelopes (domain/envelope/envelope-access.ts), on every listing.
   */
  readonly visibleTo?: string;
};

/** What listStatusChanges can sort by (restapi/envelopes/parse-status-changes-query.ts maps DocuSign's names). */
export type EnvelopeOrderBy = 'status_changed' | 'created' | 'sent' | 'completed' | 'subject' | 'status' | 'user_name' | 'expire';

/** Envelope persistence (store/ implements it over Kysely). */
export interface EnvelopeStore {
  /** Stores a new envelope with its PDFs and every effect of the write, all or nothing. */
  create(write: EnvelopeWrite, pdfs: ReadonlyMap<string, Uint8Array>): Promise<void>;
  /**
   * Saves a changed envelope and every effect of the write only if the stored version is still
   * `write.envelope.version - 1`; false when someone else changed it first.
   */
  update(write: EnvelopeWrite): Promise<boolean>;
  find(accountId: string, envelopeId: string): Promise<Envelope | undefined>;
  list(accountId: string, query: EnvelopeQuery): Promise<{ envelopes: Envelope[]; totalSetSize: number }>;
  /** The stored PDF of one document. */
  documentPdf(accountId: string, envelopeId: string, documentId: string): Promise<Uint8Array | undefined>;
  /** What the user is to the envelope (envelope-access.ts); undefined when the account has no such envelope. */
  relationOf(accountId: string, envelopeId: string, userId: string): Promise<EnvelopeRelation | undefined>;
}

/** What the envelope use cases run on. */
export type EnvelopeDeps = {
  readonly store: EnvelopeStore;
  readonly converter: DocumentConverter;
  readonly anchors: AnchorFinder;
  readonly notifier: Notifier;
  /** The account's brands: a new envelope takes its look from one (domain/brands/brand-use-cases.ts). */
  readonly brands: BrandStore;
  /** The account's language and date formats, which a new envelope's first mails already follow. */
  readonly accounts: Pick<AccountSettingsStore, 'look'>;
  /** The account's custom fields, which every new envelope starts with (absent: none). */
  readonly accountFields?: Pick<AccountCustomFieldStore, 'list'>;
  readonly clock: Clock;
  readonly random: Random;
  /** SHA-256 hex of a secret (security/secret-token.ts); injected so the domain stays pure. */
  readonly hashSecret: (secret: string) => string;
  /** SHA-256 hex of bytes (document fingerprints). */
  readonly hashBytes: (bytes: Uint8Array) => string;
  /** A slow salted hash of a signer's access code (security/password-hash.ts): codes are short. */
  readonly hashAccessCode: (code: string) => Promise<string>;
};
