import { ACCOUNT, op, type NotSupportedOperation } from './not-supported-operation.ts';

const ENVELOPES = `${ACCOUNT}/envelopes`;
const ENVELOPE = `${ENVELOPES}/:envelopeId`;
const DOCUMENT = `${ENVELOPE}/documents/:documentId`;
const RECIPIENT = `${ENVELOPE}/recipients/:recipientId`;
const CHUNKED_UPLOAD = `${ACCOUNT}/chunked_uploads/:chunkedUploadId`;
const TEMPLATE_WORKFLOW = `${ACCOUNT}/templates/:templateId/workflow`;

// Each reason says what the operation would do, why it is not offered, and where the docs show
// what is offered instead; the message reads `EnvelopesApi.<name> is not supported: <reason>.`
const APPLY_TEMPLATES = 'adding templates to an envelope that exists is not offered here: an envelope takes its templates when it is created, with templateId and templateRoles or compositeTemplates (docs/esign-templates.md)';
const TEMPLATES_USED = 'an envelope made from templates is a copy of them and keeps no list of the templates it came from (docs/esign-templates.md)';
const CHUNKED_UPLOADS = 'chunked uploads (a document sent in parts before the envelope that uses it) are not offered here: a document comes whole with the request that adds it, as documentBase64 or a multipart part, up to 36 MB a request (docs/esign-envelopes.md, "Documents")';
const DOCUMENT_FIELDS = 'custom document fields (name-value pairs on one document) are not offered here; envelope custom fields are: listCustomFields, createCustomFields, updateCustomFields, deleteCustomFields (docs/esign-envelopes.md, "Envelope custom fields")';
const RESPONSIVE_HTML = 'responsive signing (documents shown as HTML) is not offered here: every document is converted to PDF and signed as a PDF (docs/esign-envelopes.md, "Documents")';
const DOCUMENT_TABS = 'tabs are read and changed per recipient here, not per document or page: listTabs, createTabs, updateTabs, deleteTabs on …/recipients/{recipientId}/tabs (docs/esign-tabs.md, "REST")';
const PAGES = 'page images and page edits (rotate, delete) are not offered through the API: getDocument answers each document as a PDF, and a draft\'s documents are replaced whole with updateDocuments (docs/esign-envelopes.md, "Documents")';
const EMAIL_SETTINGS = 'per-envelope e-mail settings (a reply-to address, BCC copies) are not offered here; the envelope\'s mails go out as docs/esign-envelopes.md ("Mail: the transactional outbox") describes';
const COMMENTS = 'envelope comments are not offered here; allowComments is refused at create (docs/esign-envelope-fields.md)';
const ATTACHMENTS = 'envelope attachments (files carried beside the documents) are not offered here; a signer attaches a file with a signerAttachment tab, and it becomes a document of the envelope (docs/esign-tabs.md, "Signer attachments")';
const LOCKS = 'locking an envelope for one editor is not offered here; an envelope\'s lockInformation is output only (docs/esign-envelope-fields.md)';
const SHARES = 'sharing single envelopes is not offered here; a user shares their envelopes with user authorizations (docs/esign-shared-access.md)';
const TRANSFER_RULES = 'envelope transfer rules (handing one user\'s envelopes to another) are not offered here; a user reaches another\'s envelopes through user authorizations (docs/esign-shared-access.md)';
const DOCUMENT_VISIBILITY = 'document visibility has no calls of its own here: it is set when the envelope is created, with the envelope\'s enforceSignerVisibility and each recipient\'s excludedDocuments, and read with listRecipients (docs/esign-envelopes.md, "Document visibility")';
const TEMPLATE_DOCUMENT_VISIBILITY = 'document visibility has no calls of its own here: a template has enforceSignerVisibility and each role its excludedDocuments, set with createTemplate, update and TemplatesApi.updateRecipients and read with TemplatesApi.listRecipients (docs/esign-templates.md)';
const CONSUMER_DISCLOSURE = 'the consumer disclosure (ERSD) is not offered here: recipients are not asked to accept one before signing (docs/esign-signing.md, "The signing page")';
const IDENTITY_PROOF = 'ID verification (IDV) is not offered here, so there is no identity proof or manual review to reach: a recipient proves who they are with an access code or a one-time passcode (docs/esign-signing.md, "Access codes", "One-time passcodes")';
const SIGNATURE_IMAGES = 'a recipient\'s signature and initials are adopted on the signing page and drawn into the completed documents (getDocument); they are not read or set apart from them (docs/esign-signing.md)';
const DOC_GEN = 'document generation (form fields filled into a Word template to make the document) is not offered here: documents arrive finished, as documentBase64 or multipart parts (docs/esign-envelopes.md, "Documents")';
const TABS_BLOB = 'the encrypted tabs blob is not offered here; tabs are read and changed per recipient: listTabs, updateTabs (docs/esign-tabs.md, "REST")';
const TEMPLATE_WORKFLOWS = 'templates keep no workflow (pauses, scheduled sending, delayed routing) here; an envelope gets one in its definition at create, or with the envelope workflow calls while it is a draft (docs/esign-workflow.md)';

/**
 * The operations of the SDK's EnvelopesApi (docusign-esign src/api/EnvelopesApi.js) that this
 * service does not do, each refused by name (docs/esign-envelope-operations.md). Some live outside
 * /envelopes (chunked uploads, a Connect republish, a template's workflow) because the SDK puts
 * them in EnvelopesApi. Static segments such as `transfer_rules`, `shared` and `status` take
 * precedence over the routes' `:envelopeId`, so these no longer read as an unknown envelope id.
 */
export const NOT_SUPPORTED_ENVELOPE_OPERATIONS: readonly NotSupportedOperation[] = [
  op('EnvelopesApi.listStatus', 'PUT', `${ENVELOPES}/status`, 'reading the status of the envelopes a body names is not offered as this PUT; listStatusChanges with envelope_ids (comma-separated) answers the same EnvelopesInformation (docs/esign-envelopes.md, "Routes")'),
  op('EnvelopesApi.getSharedEnvelopes', 'GET', `${ENVELOPES}/shared`, 'the list of envelopes other users share with the caller is not offered here; an agent lists a principal\'s envelopes with listStatusChanges and X-DocuSign-Act-On-Behalf (docs/esign-shared-access.md)'),
  op('EnvelopesApi.applyTemplate', 'POST', `${ENVELOPE}/templates`, APPLY_TEMPLATES),
  op('EnvelopesApi.applyTemplateToDocument', 'POST', `${DOCUMENT}/templates`, APPLY_TEMPLATES),
  op('EnvelopesApi.listTemplates', 'GET', `${ENVELOPE}/templates`, TEMPLATES_USED),
  op('EnvelopesApi.listTemplatesForDocument', 'GET', `${DOCUMENT}/templates`, TEMPLATES_USED),
  op('EnvelopesApi.deleteTemplatesFromDocument', 'DELETE', `${DOCUMENT}/templates/:templateId`, TEMPLATES_USED),
  op('EnvelopesApi.createChunkedUpload', 'POST', `${ACCOUNT}/chunked_uploads`, CHUNKED_UPLOADS),
  op('EnvelopesApi.getChunkedUpload', 'GET', CHUNKED_UPLOAD, CHUNKED_UPLOADS),
  op('EnvelopesApi.updateChunkedUpload', 'PUT', CHUNKED_UPLOAD, CHUNKED_UPLOADS),
  op('EnvelopesApi.updateChunkedUploadPart', 'PUT', `${CHUNKED_UPLOAD}/:chunkedUploadPartSeq`, CHUNKED_UPLOADS),
  op('EnvelopesApi.deleteChunkedUpload', 'DELETE', CHUNKED_UPLOAD, CHUNKED_UPLOADS),
  op('EnvelopesApi.listDocumentFields', 'GET', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('EnvelopesApi.createDocumentFields', 'POST', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('EnvelopesApi.updateDocumentFields', 'PUT', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('EnvelopesApi.deleteDocumentFields', 'DELETE', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('EnvelopesApi.createResponsiveHtmlPreview', 'POST', `${ENVELOPE}/responsive_html_preview`, RESPONSIVE_HTML),
  op('EnvelopesApi.createDocumentResponsiveHtmlPreview', 'POST', `${DOCUMENT}/responsive_html_preview`, RESPONSIVE_HTML),
  op('EnvelopesApi.getEnvelopeHtmlDefinitions', 'GET', `${ENVELOPE}/html_definitions`, RESPONSIVE_HTML),
  op('EnvelopesApi.getEnvelopeDocumentHtmlDefinitions', 'GET', `${DOCUMENT}/html_definitions`, RESPONSIVE_HTML),
  op('EnvelopesApi.getDocumentTabs', 'GET', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('EnvelopesApi.createDocumentTabs', 'POST', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('EnvelopesApi.updateDocumentTabs', 'PUT', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('EnvelopesApi.deleteDocumentTabs', 'DELETE', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('EnvelopesApi.getPageTabs', 'GET', `${DOCUMENT}/pages/:pageNumber/tabs`, DOCUMENT_TABS),
  op('EnvelopesApi.getPages', 'GET', `${DOCUMENT}/pages`, PAGES),
  op('EnvelopesApi.getDocumentPageImage', 'GET', `${DOCUMENT}/pages/:pageNumber/page_image`, PAGES),
  op('EnvelopesApi.rotateDocumentPage', 'PUT', `${DOCUMENT}/pages/:pageNumber/page_image`, PAGES),
  op('EnvelopesApi.deleteDocumentPage', 'DELETE', `${DOCUMENT}/pages/:pageNumber`, PAGES),
  op('EnvelopesApi.getEmailSettings', 'GET', `${ENVELOPE}/email_settings`, EMAIL_SETTINGS),
  op('EnvelopesApi.createEmailSettings', 'POST', `${ENVELOPE}/email_settings`, EMAIL_SETTINGS),
  op('EnvelopesApi.updateEmailSettings', 'PUT', `${ENVELOPE}/email_settings`, EMAIL_SETTINGS),
  op('EnvelopesApi.deleteEmailSettings', 'DELETE', `${ENVELOPE}/email_settings`, EMAIL_SETTINGS),
  op('EnvelopesApi.createEnvelopeComments', 'POST', `${ENVELOPE}/comments`, COMMENTS),
  op('EnvelopesApi.getCommentsTranscript', 'GET', `${ENVELOPE}/comments/transcript`, COMMENTS),
  op('EnvelopesApi.getAttachments', 'GET', `${ENVELOPE}/attachments`, ATTACHMENTS),
  op('EnvelopesApi.putAttachments', 'PUT', `${ENVELOPE}/attachments`, ATTACHMENTS),
  op('EnvelopesApi.deleteAttachments', 'DELETE', `${ENVELOPE}/attachments`, ATTACHMENTS),
  op('EnvelopesApi.getAttachment', 'GET', `${ENVELOPE}/attachments/:attachmentId`, ATTACHMENTS),
  op('EnvelopesApi.putAttachment', 'PUT', `${ENVELOPE}/attachments/:attachmentId`, ATTACHMENTS),
  op('EnvelopesApi.getLock', 'GET', `${ENVELOPE}/lock`, LOCKS),
  op('EnvelopesApi.createLock', 'POST', `${ENVELOPE}/lock`, LOCKS),
  op('EnvelopesApi.updateLock', 'PUT', `${ENVELOPE}/lock`, LOCKS),
  op('EnvelopesApi.deleteLock', 'DELETE', `${ENVELOPE}/lock`, LOCKS),
  op('EnvelopesApi.getEnvelopesShares', 'GET', `${ENVELOPE}/shares`, SHARES),
  op('EnvelopesApi.createEnvelopesShares', 'POST', `${ENVELOPE}/shares`, SHARES),
  op('EnvelopesApi.updateEnvelopesShares', 'PUT', `${ENVELOPE}/shares`, SHARES),
  op('EnvelopesApi.deleteEnvelopesShares', 'DELETE', `${ENVELOPE}/shares`, SHARES),
  op('EnvelopesApi.getEnvelopesShare', 'GET', `${ENVELOPE}/shares/:shareId`, SHARES),
  op('EnvelopesApi.updateEnvelopesShare', 'PUT', `${ENVELOPE}/shares/:shareId`, SHARES),
  op('EnvelopesApi.deleteEnvelopesShare', 'DELETE', `${ENVELOPE}/shares/:shareId`, SHARES),
  op('EnvelopesApi.getEnvelopeTransferRules', 'GET', `${ENVELOPES}/transfer_rules`, TRANSFER_RULES),
  op('EnvelopesApi.createEnvelopeTransferRules', 'POST', `${ENVELOPES}/transfer_rules`, TRANSFER_RULES),
  op('EnvelopesApi.updateEnvelopeTransferRules', 'PUT', `${ENVELOPES}/transfer_rules`, TRANSFER_RULES),
  op('EnvelopesApi.updateEnvelopeTransferRule', 'PUT', `${ENVELOPES}/transfer_rules/:envelopeTransferRuleId`, TRANSFER_RULES),
  op('EnvelopesApi.deleteEnvelopeTransferRules', 'DELETE', `${ENVELOPES}/transfer_rules/:envelopeTransferRuleId`, TRANSFER_RULES),
  op('EnvelopesApi.getRecipientDocumentVisibility', 'GET', `${RECIPIENT}/document_visibility`, DOCUMENT_VISIBILITY),
  op('EnvelopesApi.updateRecipientDocumentVisibility', 'PUT', `${RECIPIENT}/document_visibility`, DOCUMENT_VISIBILITY),
  op('EnvelopesApi.updateRecipientsDocumentVisibility', 'PUT', `${ENVELOPE}/recipients/document_visibility`, DOCUMENT_VISIBILITY),
  op('EnvelopesApi.getTemplateRecipientDocumentVisibility', 'GET', `${ACCOUNT}/templates/:templateId/recipients/:recipientId/document_visibility`, TEMPLATE_DOCUMENT_VISIBILITY),
  op('EnvelopesApi.updateTemplateRecipientDocumentVisibility', 'PUT', `${ACCOUNT}/templates/:templateId/recipients/:recipientId/document_visibility`, TEMPLATE_DOCUMENT_VISIBILITY),
  op('EnvelopesApi.updateTemplateRecipientsDocumentVisibility', 'PUT', `${ACCOUNT}/templates/:templateId/recipients/document_visibility`, TEMPLATE_DOCUMENT_VISIBILITY),
  op('EnvelopesApi.getConsumerDisclosureDefault', 'GET', `${RECIPIENT}/consumer_disclosure`, CONSUMER_DISCLOSURE),
  op('EnvelopesApi.getConsumerDisclosure', 'GET', `${RECIPIENT}/consumer_disclosure/:langCode`, CONSUMER_DISCLOSURE),
  op('EnvelopesApi.createRecipientManualReviewView', 'POST', `${RECIPIENT}/views/identity_manual_review`, IDENTITY_PROOF),
  op('EnvelopesApi.createRecipientProofFileLink', 'POST', `${RECIPIENT}/identity_proof`, IDENTITY_PROOF),
  op('EnvelopesApi.createRecipientProofFileResourceToken', 'POST', `${RECIPIENT}/identity_proof_token`, IDENTITY_PROOF),
  op('EnvelopesApi.getRecipientSignature', 'GET', `${RECIPIENT}/signature`, SIGNATURE_IMAGES),
  op('EnvelopesApi.getRecipientSignatureImage', 'GET', `${RECIPIENT}/signature_image`, SIGNATURE_IMAGES),
  op('EnvelopesApi.updateRecipientSignatureImage', 'PUT', `${RECIPIENT}/signature_image`, SIGNATURE_IMAGES),
  op('EnvelopesApi.getRecipientInitialsImage', 'GET', `${RECIPIENT}/initials_image`, SIGNATURE_IMAGES),
  op('EnvelopesApi.updateRecipientInitialsImage', 'PUT', `${RECIPIENT}/initials_image`, SIGNATURE_IMAGES),
  op('EnvelopesApi.createEnvelopeRecipientPreview', 'POST', `${ENVELOPE}/views/recipient_preview`, 'recipient preview views are not offered here; a sender or edit view opens a draft in the console (createSenderView, createEditView: docs/esign-views.md)'),
  op('EnvelopesApi.createEnvelopeRecipientSharedView', 'POST', `${ENVELOPE}/views/shared`, 'shared recipient views are not offered here; an agent acts for a principal with X-DocuSign-Act-On-Behalf under a user authorization (docs/esign-shared-access.md)'),
  op('EnvelopesApi.deleteEnvelopeCorrectView', 'DELETE', `${ENVELOPE}/views/correct`, 'a correct view has nothing to revoke here: its URL is good for one opening and for 5 minutes (docs/esign-views.md)'),
  op('EnvelopesApi.getEnvelopeDocGenFormFields', 'GET', `${ENVELOPE}/docGenFormFields`, DOC_GEN),
  op('EnvelopesApi.updateEnvelopeDocGenFormFields', 'PUT', `${ENVELOPE}/docGenFormFields`, DOC_GEN),
  op('EnvelopesApi.getTabsBlob', 'GET', `${ENVELOPE}/tabs_blob`, TABS_BLOB),
  op('EnvelopesApi.updateTabsBlob', 'PUT', `${ENVELOPE}/tabs_blob`, TABS_BLOB),
  op('EnvelopesApi.createHistoricalEnvelopePublishTransaction', 'POST', `${ACCOUNT}/connect/envelopes/publish/historical`, 'republishing past envelopes to a Connect configuration is not offered here; failed deliveries are retried, and ConnectApi.retryEventForEnvelope and retryEventForEnvelopes queue an envelope\'s again (docs/esign-connect.md)'),
  op('EnvelopesApi.getTemplateWorkflowDefinition', 'GET', TEMPLATE_WORKFLOW, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.updateTemplateWorkflowDefinition', 'PUT', TEMPLATE_WORKFLOW, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.deleteTemplateWorkflowDefinition', 'DELETE', TEMPLATE_WORKFLOW, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.getTemplateScheduledSendingDefinition', 'GET', `${TEMPLATE_WORKFLOW}/scheduledSending`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.updateTemplateScheduledSendingDefinition', 'PUT', `${TEMPLATE_WORKFLOW}/scheduledSending`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.deleteTemplateScheduledSendingDefinition', 'DELETE', `${TEMPLATE_WORKFLOW}/scheduledSending`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.createTemplateWorkflowStepDefinition', 'POST', `${TEMPLATE_WORKFLOW}/steps`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.getTemplateWorkflowStepDefinition', 'GET', `${TEMPLATE_WORKFLOW}/steps/:workflowStepId`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.updateTemplateWorkflowStepDefinition', 'PUT', `${TEMPLATE_WORKFLOW}/steps/:workflowStepId`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.deleteTemplateWorkflowStepDefinition', 'DELETE', `${TEMPLATE_WORKFLOW}/steps/:workflowStepId`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.getTemplateDelayedRoutingDefinition', 'GET', `${TEMPLATE_WORKFLOW}/steps/:workflowStepId/delayedRouting`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.updateTemplateDelayedRoutingDefinition', 'PUT', `${TEMPLATE_WORKFLOW}/steps/:workflowStepId/delayedRouting`, TEMPLATE_WORKFLOWS),
  op('EnvelopesApi.deleteTemplateDelayedRoutingDefinition', 'DELETE', `${TEMPLATE_WORKFLOW}/steps/:workflowStepId/delayedRouting`, TEMPLATE_WORKFLOWS),
];
