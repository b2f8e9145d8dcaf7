import type { EnvelopeNotification } from '../notification/envelope-notification.ts';
import type { PlacedTab } from './placed-tab.ts';
import type { EnvelopeWorkflow } from './workflow.ts';
import type { RecipientAccessCode } from '../signing/access-code.ts';
import type { CustomField } from './custom-fields.ts';
import type { RecipientPasscode } from '../signing/passcode.ts';
import type { EnvelopeBrand } from '../brands/brand.ts';
import type { AccountLook } from '../account/account-settings.ts';
import type { Language } from '../language/languages.ts';
import type { DocumentSupplement } from './document-supplement.ts';

/**
 * The envelope model, in DocuSign's vocabulary (docusign-esign src/model/*.js;
 * docs/esign-signing.md, "Statuses and routing"). Pure data: ids are strings as on the wire, times
 * are Dates, positions are PDF points (1/72 inch, which DocuSign calls pixels) measured from the
 * page's top-left corner.
 */

/** Envelope statuses as DocuSign spells them on the wire (DocuSign "Envelope status codes"). */
export type EnvelopeStatus = 'created' | 'sent' | 'delivered' | 'signed' | 'completed' | 'declined' | 'voided';

/** Recipient statuses (DocuSign "Recipient status codes"); `completed` is also where a carbon copy ends once reached. */
export type RecipientStatus = 'created' | 'sent' | 'delivered' | 'signed' | 'completed' | 'declined' | 'autoresponded';

/** The recipient types this service supports (DocuSign's wire names). */
export type RecipientType = 'signer' | 'carbonCopy' | 'inPersonSigner' | 'certifiedDelivery' | 'agent' | 'editor' | 'intermediary' | 'witness';

/** DocuSign's anchorUnits. */
export type AnchorUnits = 'pixels' | 'inches' | 'mms' | 'cms';

/** How a SignHere tab was asked to be placed by anchor text (DocuSign "Auto-place (anchor tagging)"). */
export type AnchorSpec = {
  readonly anchorString: string;
  readonly units: AnchorUnits;
  readonly xOffset: number;
  readonly yOffset: number;
  readonly ignoreIfNotPresent: boolean;
  readonly caseSensitive: boolean;
  readonly matchWholeWord: boolean;
  readonly horizontalAlignment: 'left' | 'right';
  /** anchorAllowWhiteSpaceInCharacters: the pdf search honours it (absent: false). */
  readonly allowWhiteSpaceInCharacters?: boolean;
};

/** A document as stored: always a PDF after conversion, in the order given. */
export type EnvelopeDocument = {
  readonly documentId: string;
  readonly name: string;
  /** The extension the client sent (the stored bytes are PDF). */
  readonly fileExtension: string;
  /** 1-based position in the envelope. */
  readonly order: number;
  readonly pageCount: number;
  /** Hex SHA-256 of the stored PDF (the certificate of completion lists it). */
  readonly sha256: string;
  /** Set for a supplemental document (display modal or download; document-supplement.ts); absent: an inline document to sign. */
  readonly supplement?: DocumentSupplement;
};

/** A recipient of any type (recipient-kinds.ts says what each type does). */
export type Recipient = {
  readonly recipientId: string;
  readonly recipientIdGuid: string;
  readonly type: RecipientType;
  readonly email: string;
  readonly name: string;
  readonly routingOrder: number;
  readonly status: RecipientStatus;
  /** Set for embedded (captive) signers. */
  readonly clientUserId?: string;
  /** The role name the sender gave (Signer.roleName); bulk send copies name recipients by it. */
  readonly roleName?: string;
  /** An in-person signer's host, who gets the mail and the link and hands over the device (recipient-kinds.ts). */
  readonly host?: { readonly name: string; readonly email: string };
  /** A witness's signer: the recipientId whose signing they witness (Witness.witnessFor; witnesses.ts). */
  readonly witnessFor?: string;
  /** emailNotification.supportedLanguage: the language of this recipient's mails (domain/language/languages.ts). */
  readonly language?: Language;
  /**
   * agentCanEditName / agentCanEditEmail: an earlier agent or intermediary may change this
   * recipient's name / e-mail as given (domain/envelope/manage-recipients.ts); absent = false.
   */
  readonly agentCanEditName?: boolean;
  readonly agentCanEditEmail?: boolean;
  readonly sentAt?: Date;
  readonly deliveredAt?: Date;
  readonly signedAt?: Date;
  readonly completedAt?: Date;
  readonly declinedAt?: Date;
  readonly declinedReason?: string;
  /** The access code the signing page asks for first (domain/signing/access-code.ts). */
  readonly accessCode?: RecipientAccessCode;
  /** The one-time passcode (SMS, phone, e-mail) the signing page asks for next (domain/signing/passcode.ts). */
  readonly passcode?: RecipientPasscode;
  /** excludedDocuments: documents hidden from them when the envelope enforces visibility (document-visibility.ts). */
  readonly excludedDocuments?: readonly string[];
  /** Every tab of every type, placed (placed-tab.ts); a carbon copy has none. */
  readonly tabs: readonly PlacedTab[];
};

/** The aggregate: everything the REST API and the mails say about one envelope. */
export type Envelope = {
  readonly envelopeId: string;
  readonly accountId: string;
  readonly senderUserId: string;
  readonly status: EnvelopeStatus;
  readonly emailSubject: string;
  readonly emailBlurb?: string;
  readonly createdAt: Date;
  readonly statusChangedAt: Date;
  readonly sentAt?: Date;
  readonly deliveredAt?: Date;
  readonly completedAt?: Date;
  readonly declinedAt?: Date;
  readonly voidedAt?: Date;
  readonly voidedReason?: string;
  /** The sender's envelope custom fields (text and list), in the order given. */
  readonly customFields?: readonly CustomField[];
  /** When it was moved to the recycle bin (FoldersApi.moveEnvelopes); absent once restored. */
  readonly deletedAt?: Date;
  readonly documents: readonly EnvelopeDocument[];
  readonly recipients: readonly Recipient[];
  /** Reminders and expiration: settings and the schedule's progress; absent = DocuSign's API defaults. */
  readonly notification?: EnvelopeNotification;
  /** Scheduled sending, pauses and delayed routing (workflow.ts); absent = routing never waits. */
  readonly workflow?: EnvelopeWorkflow;
  /** The look its recipients get (logo, colours, company), fixed when it was created (domain/brands/brand.ts). */
  readonly brand?: EnvelopeBrand;
  /**
   * The account's settings that shape what the parties see (language fallback, date formats),
   * read with the envelope so it follows the account's current choice; absent: none set.
   */
  readonly account?: AccountLook;
  /** enforceSignerVisibility: each recipient sees only the documents document-visibility.ts gives them. */
  readonly enforceSignerVisibility?: boolean;
  /** envelopeIdStamping: the envelope id is stamped on every page of the completed documents (completion/build-completed-pdfs.ts). */
  readonly envelopeIdStamping?: boolean;
  /** Optimistic-concurrency counter: every saved change increments it. */
  readonly version: number;
};
