import type { WireRecipientAuthentication } from './to-wire-recipient-authentication.ts';
import type { WireNotification } from './to-wire-notification.ts';

/**
 * Response bodies in DocuSign's wire spelling (docusign-esign src/model/*.js). Every scalar is a string, as
 * the SDK's models declare; arrays are always present (possibly empty), never null
 * (convertToType in docusign-esign src/ApiClient.js throws on a null array).
 */
export type WireEnvelopeSummary = { envelopeId: string; status: string; statusDateTime: string; uri: string };

export type WireRecipient = WireRecipientAuthentication & {
  recipientId: string;
  recipientIdGuid: string;
  recipientType: 'signer' | 'carboncopy' | 'inpersonsigner' | 'certifieddelivery' | 'agent' | 'editor' | 'intermediary' | 'witness';
  email: string;
  name: string;
  routingOrder: string;
  status: string;
  deliveryMethod: 'email';
  clientUserId?: string;
  roleName?: string;
  /** The documents hidden from them (the envelope's enforceSignerVisibility). */
  excludedDocuments?: string[];
  /** RecipientEmailNotification: the recipient's own language, when they have one. */
  emailNotification?: { supportedLanguage: string };
  hostName?: string;
  hostEmail?: string;
  signerName?: string;
  signerEmail?: string;
  inPersonSigningType?: string;
  agentCanEditName?: 'true';
  agentCanEditEmail?: 'true';
  /** Witness.witnessFor: the recipientId of the signer they witness. */
  witnessFor?: string;
  sentDateTime?: string;
  deliveredDateTime?: string;
  signedDateTime?: string;
  declinedDateTime?: string;
  declinedReason?: string;
  completedCount?: string;
  /** DocuSign's Tabs: one list per tab type (wire/to-wire-tabs.ts). */
  tabs?: Record<string, Record<string, unknown>[]>;
};

export type WireRecipients = {
  signers: WireRecipient[];
  carbonCopies: WireRecipient[];
  certifiedDeliveries: WireRecipient[];
  agents: WireRecipient[];
  editors: WireRecipient[];
  intermediaries: WireRecipient[];
  inPersonSigners: WireRecipient[];
  seals: [];
  witnesses: WireRecipient[];
  notaries: [];
  recipientCount: string;
  currentRoutingOrder?: string;
};

export type WireEnvelopeDocument = {
  documentId: string;
  name: string;
  /** A document of the envelope, or DocuSign's "summary": the certificate of completion. */
  type: 'content' | 'summary';
  uri: string;
  order: string;
  /** The SDK's model is [Page], an array of objects: a string here breaks its parser. Not given for the summary. */
  pages?: { sequence: string }[];
  /** inline, or a supplemental document's modal/download (domain/envelope/document-supplement.ts). */
  display: string;
  includeInDownload: 'true' | 'false';
  signerMustAcknowledge: string;
  authoritativeCopy: 'false';
};

export type WireEnvelope = {
  envelopeId: string;
  status: string;
  emailSubject: string;
  emailBlurb?: string;
  /** "true" when each recipient sees only their documents (domain/envelope/document-visibility.ts). */
  enforceSignerVisibility?: 'true';
  envelopeIdStamping?: 'true';
  envelopeUri: string;
  documentsUri: string;
  recipientsUri: string;
  /** Where getNotificationSettings reads the reminders and expiration. */
  notificationUri: string;
  createdDateTime: string;
  lastModifiedDateTime: string;
  statusChangedDateTime: string;
  sentDateTime?: string;
  deliveredDateTime?: string;
  completedDateTime?: string;
  declinedDateTime?: string;
  voidedDateTime?: string;
  voidedReason?: string;
  /** Where listCustomFields reads them. */
  customFieldsUri?: string;
  /** include=custom_fields. */
  customFields?: WireCustomFields;
  /** When it went to the recycle bin; only while it is there. */
  deletedDateTime?: string;
  /** The Envelope model's expiry summary: always "true" here, every envelope expires. */
  expireEnabled: string;
  /** Days from sending, as in notification.expirations.expireAfter. */
  expireAfter: string;
  /** When it expires (or expired); only once sent. */
  expireDateTime?: string;
  sender: { userId: string; accountId: string };
  recipients?: WireRecipients;
  envelopeDocuments?: WireEnvelopeDocument[];
  notification?: WireNotification;
};

export type WireEnvelopesInformation = {
  resultSetSize: string;
  totalSetSize: string;
  startPosition: string;
  endPosition: string;
  nextUri: string;
  previousUri: string;
  envelopes: WireEnvelope[];
};

/** FoldersApi's Folder model: the fields a system folder has here. */
export type WireFolder = {
  folderId: string;
  name: string;
  type: string;
  uri: string;
  hasSubFolders: string;
  subFolderCount: string;
  itemCount?: string;
  folderItems?: WireFolderItem[];
};

/** FolderItemV2: one envelope as a folder lists it. */
export type WireFolderItem = {
  envelopeId: string;
  envelopeUri: string;
  status: string;
  subject: string;
  folderId: string;
  folderUri: string;
  senderUserId: string;
  createdDateTime: string;
  lastModifiedDateTime: string;
  sentDateTime?: string;
  completedDateTime?: string;
  expireDateTime?: string;
};

/** TextCustomField / ListCustomField, as DocuSign answers them. */
export type WireCustomField = { fieldId: string; name: string; value: string; show: string; required: string; listItems?: string[] };

/** CustomFields (CustomFieldsEnvelope in listCustomFields): the text and the list fields. */
export type WireCustomFields = { textCustomFields: WireCustomField[]; listCustomFields: WireCustomField[] };
