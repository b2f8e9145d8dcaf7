import { ACCOUNT, op, type NotSupportedOperation } from './not-supported-operation.ts';

const TEMPLATES = `${ACCOUNT}/templates`;
const TEMPLATE = `${TEMPLATES}/:templateId`;
const DOCUMENT = `${TEMPLATE}/documents/:documentId`;

// Each reason says what the operation would do, why it is not offered, and where the docs show
// what is offered instead; the message reads `TemplatesApi.<name> is not supported: <reason>.`
const DOCUMENT_FIELDS = 'custom document fields (name-value pairs on one document) are not offered here; template custom fields are: listCustomFields, createCustomFields, updateCustomFields, deleteCustomFields (docs/esign-templates.md)';
const RESPONSIVE_HTML = 'responsive signing (documents shown as HTML) is not offered here: a template\'s documents are converted to PDF and stored as PDF (docs/esign-templates.md)';
const DOCUMENT_TABS = 'tabs are read and changed per role here, not per document or page: listTabs, createTabs, updateTabs, deleteTabs on …/recipients/{recipientId}/tabs (docs/esign-templates.md)';
const PAGES = 'page images and page edits (rotate, delete) are not offered through the API: getDocument answers each document as a PDF, updateDocuments replaces one whole, and the console\'s Templates pages show the pages (docs/esign-templates.md)';
const LOCKS = 'locking a template for one editor is not offered here: concurrent edits of a template are applied in turn, each over the version it read (docs/esign-templates.md, "Recipient types")';
const GROUP_SHARES = 'sharing a template with groups is not offered here: every template is visible to its whole account (docs/esign-templates.md)';
const INSIGHTS = 'template insights (completion rates) are not offered here; listStatusChanges lists envelopes with their status (docs/esign-envelopes.md, "Routes")';
const AUTO_MATCH = 'template auto-match (suggesting a template for an uploaded document) is not offered here; an envelope names its templates with templateId or compositeTemplates (docs/esign-templates.md)';

/**
 * The operations of the SDK's TemplatesApi (docusign-esign src/api/TemplatesApi.js) that this
 * service does not do, each refused by name (docs/esign-envelope-operations.md). The group share
 * calls' `:templatePart` takes only what no served template route does: a static segment of a
 * served route (recipients, documents, custom_fields, notification) takes precedence over it.
 */
export const NOT_SUPPORTED_TEMPLATE_OPERATIONS: readonly NotSupportedOperation[] = [
  op('TemplatesApi.listDocumentFields', 'GET', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('TemplatesApi.createDocumentFields', 'POST', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('TemplatesApi.updateDocumentFields', 'PUT', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('TemplatesApi.deleteDocumentFields', 'DELETE', `${DOCUMENT}/fields`, DOCUMENT_FIELDS),
  op('TemplatesApi.createTemplateResponsiveHtmlPreview', 'POST', `${TEMPLATE}/responsive_html_preview`, RESPONSIVE_HTML),
  op('TemplatesApi.createTemplateDocumentResponsiveHtmlPreview', 'POST', `${DOCUMENT}/responsive_html_preview`, RESPONSIVE_HTML),
  op('TemplatesApi.getTemplateHtmlDefinitions', 'GET', `${TEMPLATE}/html_definitions`, RESPONSIVE_HTML),
  op('TemplatesApi.getTemplateDocumentHtmlDefinitions', 'GET', `${DOCUMENT}/html_definitions`, RESPONSIVE_HTML),
  op('TemplatesApi.getDocumentTabs', 'GET', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('TemplatesApi.createTemplateDocumentTabs', 'POST', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('TemplatesApi.updateTemplateDocumentTabs', 'PUT', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('TemplatesApi.deleteTemplateDocumentTabs', 'DELETE', `${DOCUMENT}/tabs`, DOCUMENT_TABS),
  op('TemplatesApi.getPageTabs', 'GET', `${DOCUMENT}/pages/:pageNumber/tabs`, DOCUMENT_TABS),
  op('TemplatesApi.getPages', 'GET', `${DOCUMENT}/pages`, PAGES),
  op('TemplatesApi.getDocumentPageImage', 'GET', `${DOCUMENT}/pages/:pageNumber/page_image`, PAGES),
  op('TemplatesApi.rotateDocumentPage', 'PUT', `${DOCUMENT}/pages/:pageNumber/page_image`, PAGES),
  op('TemplatesApi.deleteDocumentPage', 'DELETE', `${DOCUMENT}/pages/:pageNumber`, PAGES),
  op('TemplatesApi.getLock', 'GET', `${TEMPLATE}/lock`, LOCKS),
  op('TemplatesApi.createLock', 'POST', `${TEMPLATE}/lock`, LOCKS),
  op('TemplatesApi.updateLock', 'PUT', `${TEMPLATE}/lock`, LOCKS),
  op('TemplatesApi.deleteLock', 'DELETE', `${TEMPLATE}/lock`, LOCKS),
  op('TemplatesApi.updateGroupShare', 'PUT', `${TEMPLATE}/:templatePart`, GROUP_SHARES),
  op('TemplatesApi.deleteGroupShare', 'DELETE', `${TEMPLATE}/:templatePart`, GROUP_SHARES),
  op('TemplatesApi.getCompletionRateForTemplate', 'GET', `${TEMPLATE}/insights/completionRate`, INSIGHTS),
  op('TemplatesApi.getCompletionRateForTemplateOwner', 'GET', `${TEMPLATES}/insights/completionRate`, INSIGHTS),
  op('TemplatesApi.updateTemplatesAutoMatch', 'PUT', TEMPLATES, AUTO_MATCH),
  op('TemplatesApi.updateTemplatesAutoMatch_0', 'PUT', `${TEMPLATES}/auto_match`, AUTO_MATCH),
  op('TemplatesApi.createEditView', 'POST', `${TEMPLATE}/views/edit`, 'template edit views are not offered here; the console\'s Templates pages edit a template (docs/esign-templates.md, "Console")'),
  op('TemplatesApi.createTemplateRecipientPreview', 'POST', `${TEMPLATE}/views/recipient_preview`, 'recipient preview views are not offered here; the console\'s Templates pages show every page of a template (docs/esign-templates.md, "Console")'),
];
