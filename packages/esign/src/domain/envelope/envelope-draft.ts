import type { EventSubscription } from '../connect/event-subscription.ts';
import type { NotificationSettings } from '../notification/envelope-notification.ts';
import type { Tab } from '../tabs/tab.ts';
import type { RecipientType } from './envelope.ts';
import type { WorkflowDraft } from './workflow.ts';
import type { CustomFieldDraft } from './custom-fields.ts';
import type { PasscodeRequest } from '../signing/passcode.ts';
import type { Language } from '../language/languages.ts';
import type { DocumentSupplement } from './document-supplement.ts';

/**
 * A validated create request, in domain terms: what restapi/envelopes makes of a wire
 * EnvelopeDefinition once every field has been checked. Bytes are decoded, numbers are numbers.
 */
export type EnvelopeDraft = {
  readonly status: 'created' | 'sent';
  readonly emailSubject: string;
  readonly emailBlurb?: string;
  readonly documents: readonly DocumentDraft[];
  readonly recipients: readonly RecipientDraft[];
  /** The envelope's own Connect webhook (`eventNotification`). */
  readonly eventNotification?: EventSubscription;
  /** Reminders and expiration (`notification`); absent = DocuSign's API defaults. */
  readonly notification?: NotificationSettings;
  /** Scheduled sending, pauses and delayed routing (`workflow`); absent = routing never waits. */
  readonly workflow?: WorkflowDraft;
  /** Envelope custom fields (`customFields`). */
  readonly customFields?: readonly CustomFieldDraft[];
  /** `brandId`: a brand of the account (absent: the template's, else the account's signing default). */
  readonly brandId?: string;
  /** enforceSignerVisibility (domain/envelope/document-visibility.ts). */
  readonly enforceSignerVisibility?: boolean;
  /** envelopeIdStamping "true" (domain/envelope/envelope.ts). */
  readonly envelopeIdStamping?: boolean;
};

export type DocumentDraft = {
  readonly documentId: string;
  readonly name: string;
  /** Lower-case, without the dot. */
  readonly fileExtension: string;
  readonly bytes: Uint8Array;
  /** DocuSign transformPdfFields: the PDF's form fields become tabs of this recipient (docs/esign-tabs.md "PDF form fields"). */
  readonly transformPdfFields?: { readonly assignTabsToRecipientId: string };
  /** display modal or download, with what a signer must do (document-supplement.ts); absent: inline. */
  readonly supplement?: DocumentSupplement;
  /** DocuSign's Document.order: where the document goes among the others (document-order.ts); absent: where it is listed. */
  readonly order?: number;
};

export type RecipientDraft = {
  readonly type: RecipientType;
  readonly recipientId: string;
  readonly email: string;
  readonly name: string;
  readonly routingOrder: number;
  readonly clientUserId?: string;
  /** Signer.roleName: a label on an envelope's recipient; a bulk send list's copies name recipients by it (domain/bulk-send). */
  readonly roleName?: string;
  /** An in-person signer's host (InPersonSigner.hostName/hostEmail). */
  readonly host?: { readonly name: string; readonly email: string };
  /** A witness's signer (Witness.witnessFor; domain/envelope/witnesses.ts). */
  readonly witnessFor?: string;
  /** emailNotification.supportedLanguage, a supported code (wire/parse-recipient-language.ts). */
  readonly language?: Language;
  /** Signer.agentCanEditName / agentCanEditEmail (domain/signing/manage-recipients.ts). */
  readonly agentCanEditName?: boolean;
  readonly agentCanEditEmail?: boolean;
  /** Every tab of the recipient, as parseTabs read them; placed when the documents are converted (place-tabs.ts). */
  readonly tabs: readonly Tab[];
  /** Signer.accessCode as the sender typed it; hashed before it is stored (create-envelope.ts). */
  readonly accessCode?: string;
  /** The one-time passcode check the sender asked for (wire/parse-recipient-authentication.ts). */
  readonly passcode?: PasscodeRequest;
  /** excludedDocuments, read only with enforceSignerVisibility (document-visibility.ts). */
  readonly excludedDocuments?: readonly string[];
};
