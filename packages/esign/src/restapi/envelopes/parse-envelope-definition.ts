import { normalizeExtension, SUPPORTED_EXTENSIONS } from '@signet/pdf';
import { parseEventNotification } from '../../wire/parse-event-notification.ts';
import { API_DEFAULT_SETTINGS } from '../../domain/notification/envelope-notification.ts';
import { applyNotificationRequest } from '../../domain/notification/notification-request.ts';
import { parseNotificationRequest } from '../../wire/parse-notification.ts';
import { parseWorkflow } from '../../wire/parse-workflow.ts';
import { conditionalPlaceholders } from '../../wire/parse-recipient-routing.ts';
import { parseCustomFields } from '../../wire/parse-custom-fields.ts';
import { normalizeEmail } from '../../domain/email-address.ts';
import type { DocumentDraft, EnvelopeDraft, RecipientDraft } from '../../domain/envelope/envelope-draft.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseTabs } from '../../domain/tabs/parse-tabs.ts';
import type { Tab } from '../../domain/tabs/tab.ts';
import { checkModelFields } from '../../wire/check-model-fields.ts';
import { parseRecipientAuthentication } from '../../wire/parse-recipient-authentication.ts';
import { parseRecipientLanguage } from '../../wire/parse-recipient-language.ts';
import { parseInPersonSigner } from './parse-in-person-signer.ts';
import { parseDocumentSupplement } from '../../wire/parse-document-supplement.ts';
import { parseExcludedDocuments } from '../../wire/parse-excluded-documents.ts';
import { AGENT_FIELDS, CARBON_COPY_FIELDS, CERTIFIED_DELIVERY_FIELDS, DOCUMENT_FIELDS, EDITOR_FIELDS, ENVELOPE_DEFINITION_FIELDS, INTERMEDIARY_FIELDS, RECIPIENTS_FIELDS, SIGNER_FIELDS, WITNESS_FIELDS } from '../../wire/envelope-field-rules.ts';
import type { ModelFieldRule } from '../../wire/check-model-fields.ts';
import type { RecipientType } from '../../domain/envelope/envelope.ts';
import { assertWitnesses } from '../../domain/envelope/witnesses.ts';
import { MAX_ENVELOPE_DOCUMENTS, MAX_ENVELOPE_RECIPIENTS } from '../../domain/envelope/envelope-limits.ts';

/** Each recipient type's SDK model and field rules (wire/envelope-field-rules.ts). */
const RECIPIENT_MODELS: Partial<Record<RecipientType, readonly [string, Readonly<Record<string, ModelFieldRule>>]>> = {
  signer: ['Signer', SIGNER_FIELDS], carbonCopy: ['CarbonCopy', CARBON_COPY_FIELDS], certifiedDelivery: ['CertifiedDelivery', CERTIFIED_DELIVERY_FIELDS],
  agent: ['Agent', AGENT_FIELDS], editor: ['Editor', EDITOR_FIELDS], intermediary: ['Intermediary', INTERMEDIARY_FIELDS], witness: ['Witness', WITNESS_FIELDS],
};
const MANAGER_LISTS = [['agents', 'agent'], ['editors', 'editor'], ['intermediaries', 'intermediary']] as const;

// Limits of our own, generous against DocuSign's (100-character subjects, 10,000-character
// blurbs); they bound what one request can make us store.
// DocuSign routing orders are small positive integers.
const MAX_ROUTING_ORDER = 999;

/**
 * Reads a DocuSign EnvelopeDefinition (docusign-esign src/model/EnvelopeDefinition.js) into a domain draft, or throws a
 * DocuSign-style 400 naming the field. Only what this service implements is accepted; unknown
 * scalar fields are ignored, as DocuSign ignores them.
 */
export function parseEnvelopeDefinition(body: unknown): EnvelopeDraft {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON EnvelopeDefinition object.');
  const root = new WireReader('', body);
  // Every field of the SDK's models that asks for something not done here is refused, named.
  checkModelFields(root, 'EnvelopeDefinition', ENVELOPE_DEFINITION_FIELDS);
  const status = root.field('status').optionalString(32)?.toLowerCase() ?? 'created';
  // Create accepts only a draft or an immediate send (EnvelopeDefinition.status: "sent" or "created").
  if (status !== 'sent' && status !== 'created') throw new EsignError('ENVELOPE_INVALID_STATUS', `status must be "sent" or "created" when creating an envelope, got "${status}".`);

  const documentReaders = root.field('documents').items();
  if (documentReaders.length > MAX_ENVELOPE_DOCUMENTS) root.field('documents').fail(`may hold at most ${MAX_ENVELOPE_DOCUMENTS} documents.`);
  const documents = documentReaders.map(parseEnvelopeDocument);
  assertUnique(documents.map((d) => d.documentId), 'documentId', 'documents');

  // Scheduled sending, pauses, delayed routing and conditional recipients (domain/envelope/workflow.ts):
  // read first, since a conditional rule's placeholder signer may come without name or e-mail.
  const workflow = parseWorkflow(root.field('workflow'));
  const placeholders = conditionalPlaceholders(workflow?.steps ?? []);

  const recipients = parseRecipientLists(root.field('recipients'), placeholders);
  assertWitnesses(recipients);

  assertTabDocuments(recipients, documents);
  // Document visibility (domain/envelope/document-visibility.ts): excludedDocuments hides only
  // when the envelope enforces visibility, as in DocuSign; alone it would hide nothing.
  const enforceSignerVisibility = root.field('enforceSignerVisibility').boolean(false);
  const envelopeIdStamping = root.field('envelopeIdStamping').boolean(false);
  const excluding = recipients.find((r) => r.excludedDocuments !== undefined);
  if (excluding && !enforceSignerVisibility) throw new EsignError('INVALID_REQUEST_BODY', `recipients: recipientId ${excluding.recipientId}'s excludedDocuments is read only with enforceSignerVisibility "true".`);

  const emailSubject = root.field('emailSubject').optionalString(100) ?? defaultSubject(documents);
  const emailBlurb = root.field('emailBlurb').optionalString(10_000);
  // Connect: the envelope's own webhook; the SSRF rules run in the route.
  const eventNotification = parseEventNotification(root.field('eventNotification'));
  // Reminders and expiration: DocuSign's rules and our defaults in domain/notification/notification-request.ts.
  const notificationField = root.field('notification');
  const notification = notificationField.present ? applyNotificationRequest(API_DEFAULT_SETTINGS, parseNotificationRequest(notificationField.value)) : undefined;
  const customFields = parseCustomFields(root.field('customFields'));
  const brandId = root.field('brandId').optionalString(100);
  return { status, emailSubject, ...(enforceSignerVisibility ? { enforceSignerVisibility } : {}), ...(envelopeIdStamping ? { envelopeIdStamping } : {}), ...(brandId !== undefined ? { brandId } : {}), ...(emailBlurb !== undefined ? { emailBlurb } : {}), documents, recipients, ...(eventNotification ? { eventNotification } : {}), ...(notification ? { notification } : {}), ...(workflow ? { workflow } : {}), ...(customFields.length > 0 ? { customFields } : {}) };
}

/**
 * A Recipients object (docusign-esign src/model/Recipients.js): every list this service honours,
 * each recipient read by its type's rules; recipientIds unique. `placeholders`: conditional
 * recipients' ids, whose signers may come without name or e-mail.
 */
export function parseRecipientLists(recipientsReader: WireReader, placeholders: ReadonlySet<string> = new Set(), managerBefore = Infinity): RecipientDraft[] {
  checkModelFields(recipientsReader, 'Recipients', RECIPIENTS_FIELDS);
  // Agents, editors and intermediaries name the recipients after them: those may come without
  // a name or e-mail, which the manager fills in before routing reaches them (domain/signing/manage-recipients.ts).
  // `managerBefore`: the routing order of the first one the envelope already has, yet to finish (createRecipient).
  const managers = MANAGER_LISTS.flatMap(([list, type]) => recipientsReader.field(list).items().map((r) => parseRecipient(r, type)));
  const firstManager = Math.min(...managers.map((m) => m.routingOrder), managerBefore);
  const managed = (r: WireReader) => (r.object() !== undefined && (r.field('routingOrder').optionalInteger(1, MAX_ROUTING_ORDER) ?? 1) > firstManager);
  const recipients = [
    ...recipientsReader.field('signers').items().map((r) => parseRecipient(r, 'signer', { placeholder: placeholders.has(r.field('recipientId').optionalString(100) ?? '') || managed(r) })),
    ...recipientsReader.field('carbonCopies').items().map((r) => parseRecipient(r, 'carbonCopy', { placeholder: managed(r) })),
    ...recipientsReader.field('inPersonSigners').items().map((r) => parseInPersonSigner(r)),
    ...recipientsReader.field('certifiedDeliveries').items().map((r) => parseRecipient(r, 'certifiedDelivery', { placeholder: managed(r) })),
    ...managers,
  ];
  recipients.push(...witnessesAfterTheirSigners(recipientsReader.field('witnesses').items(), recipients, (r) => parseRecipient(r, 'witness')));
  if (recipients.length > MAX_ENVELOPE_RECIPIENTS) recipientsReader.fail(`may hold at most ${MAX_ENVELOPE_RECIPIENTS} recipients.`);
  assertUnique(recipients.map((r) => r.recipientId), 'recipientId', 'recipients');
  return recipients;
}

/**
 * Recipients.witnesses (docusign src/model/Witness.js): a signer's fields and `witnessFor`.
 * A witness given no routingOrder comes right after the signer they witness (domain/envelope/
 * witnesses.ts checks the rest once every recipient is read).
 */
export function witnessesAfterTheirSigners<T extends RecipientDraft>(readers: readonly WireReader[], others: readonly RecipientDraft[], parse: (r: WireReader) => T): T[] {
  return readers.map((r) => {
    const witness = parse(r);
    const signer = others.find((o) => o.recipientId === witness.witnessFor);
    return r.field('routingOrder').present || !signer ? witness : { ...witness, routingOrder: Math.min(signer.routingOrder + 1, MAX_ROUTING_ORDER) };
  });
}

/** Refuses, before any conversion, a tab (or radio) placed absolutely on a documentId the request does not have. */
export function assertTabDocuments(recipients: readonly { readonly recipientId: string; readonly tabs: readonly Tab[] }[], documents: readonly { readonly documentId: string; readonly transformPdfFields?: unknown }[]): void {
  const documentIds = new Set(documents.map((d) => d.documentId));
  // A tab with no place needs a PDF form field of its label: without a form to transform, it has none.
  const forms = documents.some((d) => d.transformPdfFields !== undefined);
  for (const r of recipients) {
    for (const tab of r.tabs) {
      const places = tab.type === 'radioGroup' ? tab.radios.map((x) => x.place) : [tab.place];
      for (const place of places) {
        if (place.kind === 'formField' && !place.otherwise && !forms) {
          throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${r.recipientId}: the ${tab.type} tab "${tab.type === 'radioGroup' ? tab.groupName : (tab.tabLabel ?? '')}" needs an anchorString, or a documentId with pageNumber, xPosition and yPosition (or a PDF form field of its tabLabel, with transformPdfFields).`);
        }
        if ((place.kind === 'absolute' || place.kind === 'formField') && place.documentId !== undefined && !documentIds.has(place.documentId)) {
          throw new EsignError('TAB_REFERS_TO_MISSING_DOCUMENT', `A ${tab.type} tab of recipientId ${r.recipientId} refers to documentId "${place.documentId}", which is not present.`);
        }
      }
    }
  }
}

/** DocuSign's web app proposes "Please DocuSign: <first document>"; ours says sign. */
export function defaultSubject(documents: readonly DocumentDraft[]): string {
  const first = documents[0]?.name;
  return first ? `Please sign: ${first}`.slice(0, 100) : 'Please sign';
}

export function assertUnique(ids: readonly string[], field: string, where: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new EsignError('INVALID_REQUEST_BODY', `${where}: ${field} "${id}" is used more than once; each ${field} must be unique within the envelope.`);
    seen.add(id);
  }
}

// RFC 4648 §4 alphabet; whitespace (line-wrapped base64) is tolerated, as most decoders do.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A Document of an envelope's create: supplemental documents (display modal or download,
 * wire/parse-document-supplement.ts) are honoured here.
 */
export function parseEnvelopeDocument(doc: WireReader): DocumentDraft {
  return readDocument(doc, true);
}

/**
 * A Document of a template, a composite template or a draft's added documents: a supplemental
 * document is refused by name there until those paths keep its settings.
 */
export function parseDocument(doc: WireReader): DocumentDraft {
  return readDocument(doc, false);
}

function readDocument(doc: WireReader, supplements: boolean): DocumentDraft {
  if (doc.object() === undefined) doc.fail('must be a Document object.');
  checkModelFields(doc, 'Document', DOCUMENT_FIELDS);
  // DocuSign documentIds are positive integers ("documentId ... must be a positive integer").
  const documentIdText = doc.field('documentId').string(10);
  if (!/^[1-9]\d*$/.test(documentIdText) || Number(documentIdText) > 2_147_483_647) doc.field('documentId').fail(`must be a positive integer, got "${documentIdText}".`);
  const documentId = documentIdText;
  const name = doc.field('name').string(255);
  const raw = doc.field('documentBase64').string(Number.MAX_SAFE_INTEGER).replace(/\s+/g, '');
  if (raw.length % 4 !== 0 || !BASE64.test(raw)) doc.field('documentBase64').fail('is not valid base64.');
  const bytes = new Uint8Array(Buffer.from(raw, 'base64'));
  if (bytes.byteLength === 0) doc.field('documentBase64').fail('is empty.');
  // DocuSign: fileExtension names the source format; without it the name's extension, else pdf.
  const fromName = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1];
  const fileExtension = normalizeExtension(doc.field('fileExtension').optionalString(16) ?? fromName ?? 'pdf');
  if (!SUPPORTED_EXTENSIONS.includes(fileExtension)) {
    throw new EsignError('FORMAT_CONVERSION_ERROR', `documentId ${documentId}: fileExtension "${fileExtension}" is not supported; use one of ${SUPPORTED_EXTENSIONS.join(', ')}.`);
  }
  // DocuSign transformPdfFields (docs/esign-tabs.md "PDF form fields"): the fields go to assignTabsToRecipientId, "1" when absent.
  const transform = doc.field('transformPdfFields').boolean(false);
  const assignTo = doc.field('assignTabsToRecipientId').optionalString(100);
  if (!transform && assignTo !== undefined) doc.field('assignTabsToRecipientId').fail('is read only with transformPdfFields "true".');
  if (transform && fileExtension !== 'pdf') doc.field('transformPdfFields').fail(`applies to PDF documents; documentId ${documentId} is ${fileExtension}.`);
  const supplement = parseDocumentSupplement(doc);
  if (supplement && !supplements) doc.field('display').fail(`"${supplement.display}" (a supplemental document) is supported when an envelope is created with its documents, not yet on templates or documents added later.`);
  // Document.order: where it goes among the documents (domain/envelope/document-order.ts), a positive integer as documentId is.
  const order = doc.field('order').optionalInteger(1, 2_147_483_647);
  return { documentId, name, fileExtension, bytes, ...(transform ? { transformPdfFields: { assignTabsToRecipientId: assignTo ?? '1' } } : {}), ...(supplement ? { supplement } : {}), ...(order !== undefined ? { order } : {}) };
}

/**
 * `role`: a template recipient, whose email and name may be left for templateRoles to fill;
 * `placeholder`: a conditional recipient, whose email and name its workflow rule fills.
 */
export function parseRecipient(r: WireReader, type: RecipientDraft['type'], options: { role?: boolean; placeholder?: boolean } = {}): RecipientDraft {
  if (r.object() === undefined) r.fail('must be a recipient object.');
  const [model, fields] = RECIPIENT_MODELS[type] ?? ['CarbonCopy', CARBON_COPY_FIELDS];
  checkModelFields(r, model, fields);
  const recipientId = r.field('recipientId').string(100);
  const rawEmail = r.field('email').optionalString(254);
  let email = '';
  try {
    if ((!options.role && !options.placeholder) || rawEmail !== undefined) email = normalizeEmail(rawEmail ?? '');
  } catch {
    // DocuSign's message ends "The recipient Id follows."
    throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${recipientId}${rawEmail ? ` ("${rawEmail}")` : ' (no email given)'}`);
  }
  const name = r.field('name').optionalString(100) ?? r.field('fullName').optionalString(100) ?? [r.field('firstName').optionalString(50), r.field('lastName').optionalString(50)].filter(Boolean).join(' ');
  if (name === '' && !options.role && !options.placeholder) r.field('name').fail('is required.');
  const routingOrder = r.field('routingOrder').optionalInteger(1, MAX_ROUTING_ORDER) ?? 1;
  const clientUserId = r.field('clientUserId').optionalString(100);
  // Kept on an envelope's recipients (bulk send copies name them by it); a template's roles have their own.
  const roleName = options.role ? undefined : r.field('roleName').optionalString(100);
  // DocuSign's limit: at most 50 characters. A template role's code is refused (templates keep
  // no hashed codes yet), never dropped.
  // A certified delivery, witness, agent, editor or intermediary opens the signing page too, so its checks guard it as a signer's do.
  const opensPage = type !== 'carbonCopy' && type !== 'inPersonSigner';
  const accessCode = opensPage ? r.field('accessCode').optionalString(50) : undefined;
  if (accessCode !== undefined && options.role) r.field('accessCode').fail('is not supported on templates and template roles yet.');
  // SMS, phone and e-mail one-time passcodes; templates keep none yet: refused, never dropped.
  const passcode = opensPage ? parseRecipientAuthentication(r, email) : undefined;
  if (passcode !== undefined && options.role) r.fail('asks for a one-time passcode check, which templates and template roles do not support yet.');
  // Templates keep no recipient language yet: refused there, never dropped.
  const language = parseRecipientLanguage(r);
  if (language !== undefined && options.role) r.field('emailNotification').fail('is not supported on templates and template roles yet.');
  // What an earlier agent or intermediary may change (a template role keeps it too, domain/templates/template.ts).
  const agentCanEditName = r.field('agentCanEditName').present && r.field('agentCanEditName').boolean(false);
  const agentCanEditEmail = r.field('agentCanEditEmail').present && r.field('agentCanEditEmail').boolean(false);
  const excludedDocuments = parseExcludedDocuments(r);
  const tabs = recipientTabs(r, type, recipientId);
  const witnessFor = type === 'witness' ? r.field('witnessFor').optionalString(100) : undefined;
  return { type, recipientId, email, name, routingOrder, ...(excludedDocuments !== undefined ? { excludedDocuments } : {}), ...(witnessFor !== undefined ? { witnessFor } : {}), ...(language !== undefined ? { language } : {}), ...(agentCanEditName ? { agentCanEditName } : {}), ...(agentCanEditEmail ? { agentCanEditEmail } : {}), ...(clientUserId !== undefined ? { clientUserId } : {}), ...(roleName !== undefined && roleName !== '' ? { roleName } : {}), ...(accessCode !== undefined ? { accessCode } : {}), ...(passcode ? { passcode } : {}), tabs };
}

/**
 * A recipient's Tabs, every list through parseTabs (the tab registry's field rules, values,
 * conditions and formulas). A carbon copy fills nothing in: a tab listed for one is refused.
 */
export function recipientTabs(r: WireReader, type: RecipientDraft['type'], recipientId: string | undefined): Tab[] {
  const tabs = r.field('tabs');
  if (type !== 'signer' && type !== 'inPersonSigner' && type !== 'witness') {
    const who = type === 'carbonCopy' ? 'a carbon copy receives a copy' : type === 'certifiedDelivery' ? 'a certified delivery views and acknowledges the documents' : `an ${type} says who the later recipients are`;
    for (const [key, value] of Object.entries(tabs.object() ?? {})) {
      if (Array.isArray(value) && value.length > 0) tabs.field(key).fail(`is not allowed: ${who} and fills in no tab.`);
    }
    return [];
  }
  return parseTabs(tabs, recipientId !== undefined ? { recipientId } : {});
}
