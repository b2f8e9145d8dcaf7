import type { ModelFieldRule as FieldRule } from './check-model-fields.ts';

/**
 * How this service treats each field of DocuSign's EnvelopeDefinition, Recipients, Signer,
 * CarbonCopy and Document models (node_modules/docusign-esign/src/model/*.js; a test keeps these
 * tables equal to the SDK's): honoured, output (written by the service, such as ids, dates and
 * URIs, so a client that sends back what it read is not refused), or refused with the reason.
 * A refused field is refused only when it asks for something (absent, blank, false and empty
 * lists are accepted): a sender who asks for an access code must never get a signer who was
 * not asked for one. Fields outside the models are ignored, as DocuSign ignores them.
 */
const honoured: FieldRule = { rule: 'honoured' };
const output: FieldRule = { rule: 'output' };
const refused = (why: string): FieldRule => ({ rule: 'refused', why });

const rules = (table: Record<string, FieldRule>, outputs: readonly string[]): Readonly<Record<string, FieldRule>> => ({
  ...Object.fromEntries(outputs.map((f) => [f, output])),
  ...table,
});

const TEMPLATES = 'templates are not supported yet';
const CUSTOM_METADATA = 'envelope metadata is not supported';
const AUTHENTICATION = 'recipient authentication is not supported yet: the signer would sign without it';
const SIGNING_GROUPS = 'signing groups are not supported';
// Bulk sending is done with bulk send lists (BulkEnvelopesApi, docs/esign-bulk-send.md), not with bulk recipients on an envelope.
const BULK = 'bulk recipients on an envelope are not supported: send a bulk send list over a draft (docs/esign-bulk-send.md)';
const NOTARY = 'notarization is not supported';

export const ENVELOPE_DEFINITION_FIELDS = rules({
  documents: honoured, recipients: honoured, emailSubject: honoured, emailBlurb: honoured, status: honoured,
  eventNotification: honoured, notification: honoured,
  // Scheduled sending, pauses, delayed routing (wire/parse-workflow.ts refuses the rest by name).
  workflow: honoured,
  // What this service's signing page does anyway: guided from tab to tab, usable on a phone.
  autoNavigation: honoured, signerCanSignOnMobile: honoured,
  // Envelopes from templates (restapi/templates/parse-templated-envelope.ts).
  templateId: honoured, templateRoles: honoured, compositeTemplates: honoured,
  // A brand of the account (domain/brands/brand-use-cases.ts resolveEnvelopeBrand). Nothing here
  // changes an envelope's brand once created, so the lock DocuSign's sender UI honours always holds.
  brandId: honoured, brandLock: honoured,
  // Envelope custom fields (wire/parse-custom-fields.ts); metadata is another, unsupported feature.
  customFields: honoured, envelopeCustomMetadata: refused(CUSTOM_METADATA), envelopeMetadata: refused(CUSTOM_METADATA),
  eventNotifications: refused('only one eventNotification per envelope is supported'),
  accessControlListBase64: refused('access control lists are not supported'),
  accessibility: refused('accessibility settings are not supported'),
  allowComments: refused('comments are not supported'), allowMarkup: refused('document markup is not supported'),
  allowReassign: refused('reassigning is not supported'), allowRecipientRecursion: refused('recipient recursion is not supported'),
  allowViewHistory: refused('view history is not supported'), asynchronous: refused('asynchronous creation is not supported'),
  attachments: refused('envelope attachments are not supported'), envelopeAttachments: refused('envelope attachments are not supported'),
  authoritativeCopy: refused('authoritative copies are not supported'), authoritativeCopyDefault: refused('authoritative copies are not supported'),
  burnDefaultTabData: refused('burning default tab data is not supported'), copyRecipientData: refused('copying recipient data is not supported'),
  disableResponsiveDocument: refused('responsive documents are not supported'),
  documentBase64: refused('send documents in documents[].documentBase64'),
  emailSettings: refused('per-envelope e-mail settings (reply-to, BCC) are not supported'),
  enableWetSign: refused('signing on paper is not supported'),
  // Document visibility (domain/envelope/document-visibility.ts).
  enforceSignerVisibility: honoured,
  // The id stamped on every page of the completed documents (completion/build-completed-pdfs.ts).
  envelopeIdStamping: honoured,
  expireAfter: refused('set expiry with notification.expirations'), expireEnabled: refused('set expiry with notification.expirations'),
  externalEnvelopeId: refused('external envelope ids are not supported'),
  messageLock: refused('message locks are not supported'), recipientsLock: refused('recipient locks are not supported'),
  password: refused('document passwords are not supported'),
  recipientViewRequest: refused('ask for a recipient view with EnvelopesApi.createRecipientView'),
  signingLocation: refused('in-person signing is not supported yet'),
  transactionId: refused('transaction ids are not supported'),
  useDisclosure: refused('the electronic record and signature disclosure is not supported'),
  is21CFRPart11: refused('21 CFR Part 11 signing is not supported'),
}, [
  'envelopeId', 'createdDateTime', 'sentDateTime', 'statusChangedDateTime', 'completedDateTime', 'declinedDateTime', 'deletedDateTime',
  'deliveredDateTime', 'voidedDateTime', 'initialSentDateTime', 'lastModifiedDateTime', 'expireDateTime', 'voidedReason',
  'certificateUri', 'customFieldsUri', 'documentsCombinedUri', 'documentsUri', 'envelopeUri', 'notificationUri', 'recipientsUri',
  'templatesUri', 'attachmentsUri', 'purgeState', 'purgeCompletedDate', 'purgeRequestDate', 'hasComments', 'hasFormDataChanged',
  'hasWavFile', 'isSignatureProviderEnvelope', 'isTicketRelatedEnvelope', 'isDynamicEnvelope', 'sender', 'envelopeLocation', 'holder',
  'location', 'uSigState', 'anySigner', 'envelopeDocuments', 'folders', 'lockInformation', 'powerForm',
]);

export const RECIPIENTS_FIELDS = rules({
  signers: honoured, carbonCopies: honoured,
  // Say who the later recipients are, on the recipients page, before routing reaches them (domain/signing/manage-recipients.ts).
  agents: honoured, editors: honoured, intermediaries: honoured,
  // Must open and acknowledge the documents; routing waits for them (domain/envelope/recipient-kinds.ts).
  certifiedDeliveries: honoured,
  // The host gets the mail and the link and hands their device to the signer (restapi/envelopes/parse-in-person-signer.ts).
  inPersonSigners: honoured,
  // Sign after the signer they witness (domain/envelope/witnesses.ts).
  witnesses: honoured,
  seals: refused('electronic seals as recipients are not supported'),
  notaries: refused(NOTARY), notaryWitnesses: refused(NOTARY),
  participants: refused('participants are not supported'),
  authorizedSignatories: refused('authorized signatories are not supported'),
}, ['recipientCount', 'currentRoutingOrder', 'errorDetails']);

/** The fields Signer and CarbonCopy share, with their rules. */
const RECIPIENT_COMMON: Record<string, FieldRule> = {
  email: honoured, name: honoured, firstName: honoured, lastName: honoured, fullName: honoured, recipientId: honoured,
  routingOrder: honoured, clientUserId: honoured, tabs: honoured,
  // A role's name only labels the recipient of an envelope not made from a template.
  roleName: honoured,
  // Mail is the one delivery method.
  deliveryMethod: { rule: 'limited', why: 'only e-mail delivery is supported', allow: ['email'] },
  // Asked for on the signing page before anything shows (domain/signing/access-code.ts).
  accessCode: honoured, addAccessCodeToEmail: refused('the access code is never mailed: give it to the signer another way'),
  // One-time passcodes by text, call or e-mail (domain/signing/passcode.ts); KBA and ID
  // verification products are refused by name in wire/parse-recipient-authentication.ts.
  identityVerification: honoured, idCheckConfigurationName: honoured, phoneAuthentication: honoured, smsAuthentication: honoured, requireIdLookup: honoured,
  idCheckInformationInput: refused('knowledge-based authentication (ID Check) is not supported: the signer would sign without it'),
  socialAuthentications: refused(AUTHENTICATION),
  lockedRecipientPhoneAuthEditable: refused(AUTHENTICATION), lockedRecipientSmsEditable: refused(AUTHENTICATION),
  additionalNotifications: refused('SMS and other additional notifications are not supported'),
  phoneNumber: refused('SMS delivery is not supported'), faxNumber: refused('fax delivery is not supported'),
  // What an earlier agent or intermediary may change of what the sender gave (domain/signing/manage-recipients.ts).
  agentCanEditEmail: honoured, agentCanEditName: honoured,
  allowSystemOverrideForLockedRecipient: refused('recipient locks are not supported'),
  bulkSendV2Recipient: refused(BULK),
  customFields: refused('recipient custom fields are not supported'),
  documentTemplateId: refused(TEMPLATES), templateLocked: refused(TEMPLATES), templateRequired: refused(TEMPLATES),
  documentVisibility: refused('a per-document visibility list is not supported; use excludedDocuments with enforceSignerVisibility'),
  // Hidden documents with the envelope's enforceSignerVisibility (domain/envelope/document-visibility.ts).
  excludedDocuments: honoured,
  // The language is honoured, a subject or message of the recipient's own refused (wire/parse-recipient-language.ts).
  emailNotification: honoured,
  inheritEmailNotificationConfiguration: refused('per-recipient e-mail settings are not supported yet'),
  emailRecipientPostSigningURL: refused('post-signing URLs in e-mails are not supported'),
  embeddedRecipientStartURL: refused('embedded start URLs are not supported; use createRecipientView'),
  note: refused('private notes to recipients are not supported yet'),
  proofFile: refused('proof files are not supported'),
  recipientAttachments: refused('recipient attachments are not supported'),
  signingGroupId: refused(SIGNING_GROUPS), signingGroupName: refused(SIGNING_GROUPS), signingGroupType: refused(SIGNING_GROUPS), signingGroupUsers: refused(SIGNING_GROUPS),
  suppressEmails: refused('suppressing e-mails is not supported; use clientUserId for embedded signing'),
  webFormRecipientViewId: refused('web forms are not supported'),
};

const RECIPIENT_OUTPUTS = [
  'recipientIdGuid', 'status', 'statusCode', 'sentDateTime', 'deliveredDateTime', 'signedDateTime', 'declinedDateTime', 'declinedReason',
  'autoRespondedReason', 'completedCount', 'totalTabCount', 'errorDetails', 'recipientType', 'userId', 'recipientAuthenticationStatus',
  'consentDetailsList', 'designatorId', 'designatorIdGuid', 'recipientFeatureMetadata',
];

export const SIGNER_FIELDS = rules({
  ...RECIPIENT_COMMON,
  autoNavigation: honoured,
  bulkRecipientsUri: refused(BULK), isBulkRecipient: refused(BULK),
  canSignOffline: refused('offline signing is not supported'), offlineAttributes: refused('offline signing is not supported'),
  defaultRecipient: refused('default recipients are not supported'),
  notaryId: refused(NOTARY), notarySignerEmailSent: refused(NOTARY),
  recipientSignatureProviders: refused('signature providers (standards-based signatures) are not supported'),
  recipientSuppliesTabs: refused('recipient-supplied tabs are not supported'),
  requireSignOnPaper: refused('signing on paper is not supported'),
  requireSignerCertificate: refused('signer certificates are not supported'),
  requireUploadSignature: refused('uploaded signatures are not supported'),
  signInEachLocation: refused('signing in each location is not supported'),
  signatureInfo: refused('preset signature fonts and names are not supported'),
}, [...RECIPIENT_OUTPUTS, 'creationReason', 'delegatedBy', 'delegatedTo']);

/** Witness (docusign-esign src/model/Witness.js): a signer's fields, and whom they witness. */
export const WITNESS_FIELDS = rules({ ...SIGNER_FIELDS, witnessFor: honoured }, ['witnessForGuid']);

// A carbon copy opens no signing page, so a check asked for it would guard nothing.
const NO_PAGE = refused('a carbon copy opens no signing page, so nothing would ask for it');

/** Signer fields InPersonSigner does not have (docusign-esign src/model/InPersonSigner.js). */
const NOT_IN_PERSON = new Set(['additionalNotifications', 'agentCanEditEmail', 'agentCanEditName', 'bulkRecipientsUri', 'consentDetailsList', 'delegatedBy', 'delegatedTo', 'emailRecipientPostSigningURL', 'firstName', 'fullName', 'isBulkRecipient', 'lastName', 'notarySignerEmailSent', 'phoneNumber']);

export const IN_PERSON_SIGNER_FIELDS = rules({
  ...Object.fromEntries(Object.entries(SIGNER_FIELDS).filter(([field]) => !NOT_IN_PERSON.has(field))),
  // The host is who the mail goes to; the signer signs on the host's device.
  hostName: honoured, hostEmail: honoured, signerName: honoured, signerEmail: honoured, signerFirstName: honoured, signerLastName: honoured,
  inPersonSigningType: { rule: 'limited', why: 'notary signing is not supported', allow: ['inpersonsigner'] },
  notaryHost: refused(NOTARY),
  excludedDocuments: refused('document visibility is not supported for in-person signers yet: they would see every document'),
  // name stands for signerName when that is absent; email is answered (the signer's, or the host's).
  name: honoured, email: output,
}, []);

export const CARBON_COPY_FIELDS = rules({
  ...RECIPIENT_COMMON,
  accessCode: NO_PAGE, identityVerification: NO_PAGE, idCheckConfigurationName: NO_PAGE, phoneAuthentication: NO_PAGE, smsAuthentication: NO_PAGE, requireIdLookup: NO_PAGE,
  linkedAccountConfigurationId: refused('linked accounts are not supported'),
}, RECIPIENT_OUTPUTS);

/**
 * CertifiedDelivery (docusign-esign src/model/CertifiedDelivery.js): a carbon copy's fields
 * without tabs, and, since they open the signing page to acknowledge, the checks a signer's
 * page asks for (access code, one-time passcodes) honoured as for a signer.
 */
export const CERTIFIED_DELIVERY_FIELDS = rules(Object.fromEntries(Object.entries(RECIPIENT_COMMON).filter(([field]) => field !== 'tabs')), RECIPIENT_OUTPUTS);

/**
 * Agent, Editor and Intermediary (docusign-esign src/model/Agent.js, Editor.js,
 * Intermediary.js): a certified delivery's fields (no tabs; the page's checks honoured, since
 * they open the recipients page), less what their models lack: the agentCanEdit flags, which
 * are about the recipients they change, and (Editor) excludedDocuments.
 */
const managerFields = (lacks: readonly string[]) => rules(Object.fromEntries(Object.entries(RECIPIENT_COMMON).filter(([field]) => field !== 'tabs' && !lacks.includes(field))), RECIPIENT_OUTPUTS);
const NOT_MANAGER = ['agentCanEditEmail', 'agentCanEditName'];
export const AGENT_FIELDS = managerFields(NOT_MANAGER);
export const EDITOR_FIELDS = managerFields([...NOT_MANAGER, 'excludedDocuments']);
export const INTERMEDIARY_FIELDS = managerFields(NOT_MANAGER);

export const DOCUMENT_FIELDS = rules({
  documentId: honoured, name: honoured, documentBase64: honoured, fileExtension: honoured,
  // Anchors are searched in every document, PDFs included.
  applyAnchorTabs: honoured,
  remoteUrl: refused('send documentBase64'), htmlDefinition: refused('responsive documents are not supported; send documentBase64'),
  // Where the document goes among the others (domain/envelope/document-order.ts).
  order: honoured,
  // PDF form field transformation (domain/tabs/transform-pdf-fields.ts); the per-field options are another feature.
  assignTabsToRecipientId: honoured, transformPdfFields: honoured,
  pdfFormFieldOption: refused('per-field PDF form options are not supported; fields are transformed by DocuSign\'s naming rule'),
  matchBoxes: refused('match boxes are not supported'),
  tabs: refused('place tabs on recipients (recipients.signers[].tabs)'),
  authoritativeCopy: refused('authoritative copies are not supported'),
  // Supplemental documents (wire/parse-document-supplement.ts, domain/envelope/document-supplement.ts).
  display: honoured, includeInDownload: honoured, signerMustAcknowledge: honoured,
  signerMustAcknowledgeUseAccountDefault: refused('accounts keep no default acknowledgement: set signerMustAcknowledge'),
  password: refused('password-protected documents are not supported'),
  encryptedWithKeyManager: refused('documents encrypted with a key manager are not supported'),
  fileFormatHint: refused('file format hints are not supported; set fileExtension'),
  documentFields: refused('document fields are not supported'),
  documentTemplateId: refused(TEMPLATES), templateLocked: refused(TEMPLATES), templateRequired: refused(TEMPLATES),
  isDocGenDocument: refused('document generation is not supported'), docGenFormFields: refused('document generation is not supported'),
  // `pages` (an output, below) is the page count DocuSign writes: the converted document's own
  // count is what holds, so one sent back (as listDocuments gives it) is accepted and changes nothing.
}, ['uri', 'pages', 'docGenDocumentStatus']);

/** The SDK's Envelope model: the body of Envelopes::update (PUT …/envelopes/{envelopeId}). */
const ENVELOPE_MODEL = ['accessControlListBase64', 'allowComments', 'allowMarkup', 'allowReassign', 'allowViewHistory', 'anySigner', 'asynchronous', 'attachmentsUri', 'authoritativeCopy', 'authoritativeCopyDefault', 'autoNavigation', 'brandId', 'brandLock', 'burnDefaultTabData', 'certificateUri', 'completedDateTime', 'copyRecipientData', 'createdDateTime', 'customFields', 'customFieldsUri', 'declinedDateTime', 'deletedDateTime', 'deliveredDateTime', 'disableResponsiveDocument', 'documentBase64', 'documentsCombinedUri', 'documentsUri', 'emailBlurb', 'emailSettings', 'emailSubject', 'enableWetSign', 'enforceSignerVisibility', 'envelopeAttachments', 'envelopeCustomMetadata', 'envelopeDocuments', 'envelopeId', 'envelopeIdStamping', 'envelopeLocation', 'envelopeMetadata', 'envelopeUri', 'expireAfter', 'expireDateTime', 'expireEnabled', 'externalEnvelopeId', 'folders', 'hasComments', 'hasFormDataChanged', 'hasWavFile', 'holder', 'initialSentDateTime', 'is21CFRPart11', 'isDynamicEnvelope', 'isSignatureProviderEnvelope', 'isTicketRelatedEnvelope', 'lastModifiedDateTime', 'location', 'lockInformation', 'messageLock', 'notification', 'notificationUri', 'powerForm', 'purgeCompletedDate', 'purgeRequestDate', 'purgeState', 'recipients', 'recipientsLock', 'recipientsUri', 'sender', 'sentDateTime', 'signerCanSignOnMobile', 'signingLocation', 'status', 'statusChangedDateTime', 'templatesUri', 'transactionId', 'uSigState', 'useDisclosure', 'voidedDateTime', 'voidedReason', 'workflow'] as const;

const UPDATE_RULES: Readonly<Record<string, FieldRule>> = {
  status: honoured, voidedReason: honoured, emailSubject: honoured, emailBlurb: honoured,
  // Only the unpause (wire/parse-workflow.ts parseWorkflowUpdate refuses the rest by name).
  workflow: honoured,
  recipients: refused('change recipients with EnvelopesApi.updateRecipients, deleteRecipient or deleteRecipients'),
  notification: refused('change reminders and expiry with EnvelopesApi.updateNotificationSettings'),
  documentBase64: refused('documents cannot be changed through Envelopes::update here'),
  customFields: refused('change custom fields with EnvelopesApi.updateCustomFields'),
  brandId: refused('an envelope keeps the brand it was created with'),
  enforceSignerVisibility: refused('document visibility is set when the envelope is created'),
};

/**
 * Envelopes::update: it sends a draft, voids, or changes the subject and message. Any other
 * field of the Envelope model that asks for something is refused as at create, rather than a
 * 200 that changed nothing (DocuSign's pause/resume example sets workflow.workflowStatus).
 */
export const ENVELOPE_UPDATE_FIELDS: Readonly<Record<string, FieldRule>> = Object.fromEntries(
  ENVELOPE_MODEL.map((field) => [field, UPDATE_RULES[field] ?? ENVELOPE_DEFINITION_FIELDS[field] ?? refused('cannot be changed through Envelopes::update here')]),
);

/**
 * EnvelopesApi.updateRecipients: a recipient's name, e-mail address, routing order and access
 * code are corrected (domain/envelope/correct-recipients.ts); the rest of what a create honours is
 * refused here by name rather than a 200 that changed nothing. clientUserId and the one-time
 * passcode check are read to be compared (a client sends back what listRecipients gave it).
 */
const CORRECTION_RULES: Record<string, FieldRule> = {
  tabs: refused('change tabs with EnvelopesApi.createTabs, updateTabs and deleteTabs'),
  // accessCode keeps its model's rule: a new code for who opens a page (domain/envelope/correct-recipients.ts), refused for a carbon copy.
  // The one-time passcode check's fields (identityVerification, idCheckConfigurationName,
  // phoneAuthentication, smsAuthentication, requireIdLookup) keep theirs too: set at create
  // (wire/parse-recipient-authentication.ts), sent back as listRecipients answers them they are
  // accepted, and a check that differs is refused by correctRecipients.
  roleName: refused('a role name cannot be changed through updateRecipients'),
  autoNavigation: refused('autoNavigation cannot be changed through updateRecipients'),
  emailNotification: refused('a recipient\'s language is set when the envelope is created, not through updateRecipients yet'),
  agentCanEditName: refused('what an agent may change is set when the envelope is created, not through updateRecipients yet'),
  agentCanEditEmail: refused('what an agent may change is set when the envelope is created, not through updateRecipients yet'),
  excludedDocuments: refused('excludedDocuments is set when the envelope is created, not through updateRecipients yet'),
};

/** A model's create rules with the correction's over them, for the fields the model has (a test walks them against the SDK's). */
const correcting = (fields: Readonly<Record<string, FieldRule>>, extra: Record<string, FieldRule> = {}): Readonly<Record<string, FieldRule>> => ({
  ...fields,
  ...Object.fromEntries(Object.entries({ ...CORRECTION_RULES, ...extra }).filter(([field]) => field in fields)),
});
export const SIGNER_CORRECTION_FIELDS = correcting(SIGNER_FIELDS);
export const CARBON_COPY_CORRECTION_FIELDS = correcting(CARBON_COPY_FIELDS);
export const CERTIFIED_DELIVERY_CORRECTION_FIELDS = correcting(CERTIFIED_DELIVERY_FIELDS);
/**
 * An in-person signer: the host (hostName, hostEmail: who gets the mail and the link) and the
 * signer (signerName, or name, or signerFirstName + signerLastName; signerEmail) are corrected
 * as a signer's name and e-mail are.
 */
export const IN_PERSON_SIGNER_CORRECTION_FIELDS = correcting(IN_PERSON_SIGNER_FIELDS);
/**
 * Agents, editors and intermediaries are corrected as a carbon copy is (name, e-mail, routing
 * order; domain/envelope/correct-recipients.ts keeps every still-unnamed recipient behind one of
 * them). A witness also takes a new witnessFor, checked as at create (domain/envelope/witnesses.ts).
 */
export const AGENT_CORRECTION_FIELDS = correcting(AGENT_FIELDS);
export const EDITOR_CORRECTION_FIELDS = correcting(EDITOR_FIELDS);
export const INTERMEDIARY_CORRECTION_FIELDS = correcting(INTERMEDIARY_FIELDS);
export const WITNESS_CORRECTION_FIELDS = correcting(WITNESS_FIELDS, { witnessFor: honoured });
