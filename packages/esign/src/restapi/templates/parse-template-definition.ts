import type { TemplateDraft, TemplatePatch, TemplateRoleDraft } from '../../domain/templates/template-draft.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseCustomFields } from '../../wire/parse-custom-fields.ts';
import { parseNotificationRequest } from '../../wire/parse-notification.ts';
import { API_DEFAULT_SETTINGS } from '../../domain/notification/envelope-notification.ts';
import { applyNotificationRequest } from '../../domain/notification/notification-request.ts';
import { assertTabDocuments, assertUnique, defaultSubject, parseDocument, parseRecipient, witnessesAfterTheirSigners } from '../envelopes/parse-envelope-definition.ts';
import { parseInPersonSigner } from '../envelopes/parse-in-person-signer.ts';
import { checkModelFields } from '../../wire/check-model-fields.ts';
import { RECIPIENTS_FIELDS } from '../../wire/envelope-field-rules.ts';
import type { RecipientType } from '../../domain/envelope/envelope.ts';
import { MAX_ENVELOPE_DOCUMENTS, MAX_ENVELOPE_RECIPIENTS } from '../../domain/envelope/envelope-limits.ts';

// The envelope parser's bounds, for the same reasons.
// Every recipient list of the Recipients model a template holds (witnesses are read last, after their signers).
const ROLE_LISTS: readonly (readonly [string, RecipientType])[] = [
  ['signers', 'signer'], ['carbonCopies', 'carbonCopy'], ['inPersonSigners', 'inPersonSigner'], ['certifiedDeliveries', 'certifiedDelivery'],
  ['agents', 'agent'], ['editors', 'editor'], ['intermediaries', 'intermediary'],
];
// EnvelopeTemplate fields this service does not implement yet (docs/esign-templates.md): refused, never dropped.
const UNSUPPORTED_FIELDS = ['folderId', 'folderName', 'folderIds', 'eventNotification', 'compositeTemplates', 'templateId', 'templateRoles'];

function assertObject(body: unknown): WireReader {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON EnvelopeTemplate object.');
  return new WireReader('', body);
}

function refuseUnsupported(root: WireReader, fields: readonly string[]): void {
  for (const name of fields) {
    const f = root.field(name);
    const empty = !f.present || (Array.isArray(f.value) && f.value.length === 0) || f.value === '';
    if (!empty) f.fail('is not supported for templates yet (docs/esign-templates.md).');
  }
}

/**
 * Reads a DocuSign EnvelopeTemplate (createTemplate) into a draft. Documents and recipients are
 * read by the envelope parser's own functions; a recipient is a role: `roleName`, and name and
 * email left empty for the envelope to fill (templateRoles).
 */
export function parseTemplateDefinition(body: unknown): TemplateDraft {
  const root = assertObject(body);
  refuseUnsupported(root, UNSUPPORTED_FIELDS);
  const documentReaders = root.field('documents').items();
  if (documentReaders.length > MAX_ENVELOPE_DOCUMENTS) root.field('documents').fail(`may hold at most ${MAX_ENVELOPE_DOCUMENTS} documents.`);
  const documents = documentReaders.map(parseDocument);
  assertUnique(documents.map((d) => d.documentId), 'documentId', 'documents');

  const roles = parseTemplateRoles(root.field('recipients'));
  assertTabDocuments(roles, documents);
  // Document visibility, as an envelope's: excludedDocuments hides only when the template enforces visibility.
  const enforceSignerVisibility = root.field('enforceSignerVisibility').boolean(false);
  assertExclusionsEnforced(roles, enforceSignerVisibility);
  // The v2 SDKs nest name/description/shared in envelopeTemplateDefinition; v2.1 has them at the top.
  const legacy = root.field('envelopeTemplateDefinition');
  const text = (name: string, max: number) => root.field(name).optionalString(max) ?? legacy.field(name).optionalString(max);
  const description = text('description', 500);
  const emailBlurb = root.field('emailBlurb').optionalString(10_000);
  const brandId = root.field('brandId').optionalString(100);
  // What its envelopes start with: custom fields and reminders/expiration, read as an envelope's are.
  const customFields = parseCustomFields(root.field('customFields'));
  const notificationField = root.field('notification');
  const notification = notificationField.present ? applyNotificationRequest(API_DEFAULT_SETTINGS, parseNotificationRequest(notificationField.value)) : undefined;
  return {
    ...(brandId !== undefined ? { brandId } : {}),
    ...(customFields.length > 0 ? { customFields } : {}),
    ...(notification ? { notification } : {}),
    ...(enforceSignerVisibility ? { enforceSignerVisibility } : {}),
    name: text('name', 100) ?? documents[0]?.name ?? 'Untitled template',
    ...(description !== undefined ? { description } : {}),
    emailSubject: root.field('emailSubject').optionalString(100) ?? defaultSubject(documents),
    ...(emailBlurb !== undefined ? { emailBlurb } : {}),
    shared: root.field('shared').present ? root.field('shared').boolean(false) : legacy.field('shared').boolean(false),
    documents,
    roles,
  };
}

/**
 * A Recipients object of a template (createTemplate, createRecipients): every recipient type
 * as a role, read by the envelope's own readers with the role's leniency (name and e-mail,
 * and an in-person signer's host, may be left for templateRoles); a witness given no routing
 * order comes after the signer it witnesses, as in an envelope. Lists the service does not
 * have (seals, notaries, participants) are refused by the Recipients field rules.
 */
export function parseTemplateRoles(recipientsReader: WireReader): TemplateRoleDraft[] {
  checkModelFields(recipientsReader, 'Recipients', RECIPIENTS_FIELDS);
  const role = (r: WireReader, type: RecipientType): TemplateRoleDraft => {
    const draft = type === 'inPersonSigner' ? parseInPersonSigner(r, { role: true }) : parseRecipient(r, type, { role: true });
    const roleName = r.field('roleName').optionalString(100);
    return { ...draft, ...(roleName !== undefined ? { roleName } : {}) };
  };
  const roles = ROLE_LISTS.flatMap(([list, type]) => recipientsReader.field(list).items().map((r) => role(r, type)));
  roles.push(...witnessesAfterTheirSigners(recipientsReader.field('witnesses').items(), roles, (r) => role(r, 'witness')));
  if (roles.length > MAX_ENVELOPE_RECIPIENTS) recipientsReader.fail(`may hold at most ${MAX_ENVELOPE_RECIPIENTS} recipients.`);
  assertUnique(roles.map((r) => r.recipientId), 'recipientId', 'recipients');
  return roles;
}

/** excludedDocuments hides nothing without enforceSignerVisibility (DocuSign's rule): refused alone rather than kept as a promise not kept. */
export function assertExclusionsEnforced(roles: readonly TemplateRoleDraft[], enforced: boolean): void {
  const excluding = roles.find((r) => r.excludedDocuments !== undefined);
  if (excluding && !enforced) throw new EsignError('INVALID_REQUEST_BODY', `recipients: recipientId ${excluding.recipientId}'s excludedDocuments is read only with enforceSignerVisibility "true".`);
}

/** TemplatesApi.update: name, description, emailSubject, emailBlurb, shared, brandId, enforceSignerVisibility. Documents and recipients have their own endpoints. */
export function parseTemplatePatch(body: unknown): TemplatePatch {
  const root = assertObject(body);
  refuseUnsupported(root, [...UNSUPPORTED_FIELDS, 'documents']);
  for (const [name, call] of [['customFields', 'createCustomFields, updateCustomFields and deleteCustomFields'], ['notification', 'updateNotificationSettings']] as const) {
    const f = root.field(name);
    if (f.present && !(typeof f.value === 'object' && f.value !== null && Object.keys(f.value).length === 0)) f.fail(`cannot be changed by update; use TemplatesApi.${call}.`);
  }
  const recipients = root.field('recipients').object();
  if (recipients && Object.values(recipients).some((v) => Array.isArray(v) && v.length > 0)) root.field('recipients').fail('cannot be changed by update; create a new template (docs/esign-templates.md).');
  const patch: { -readonly [K in keyof TemplatePatch]: TemplatePatch[K] } = {};
  const name = root.field('name').optionalString(100);
  if (name !== undefined) patch.name = name;
  const description = root.field('description').optionalString(500);
  if (description !== undefined) patch.description = description;
  const emailSubject = root.field('emailSubject').optionalString(100);
  if (emailSubject !== undefined) patch.emailSubject = emailSubject;
  const emailBlurb = root.field('emailBlurb').optionalString(10_000);
  if (emailBlurb !== undefined) patch.emailBlurb = emailBlurb;
  if (root.field('shared').present) patch.shared = root.field('shared').boolean(false);
  const brandId = root.field('brandId').optionalString(100);
  if (brandId !== undefined) patch.brandId = brandId;
  if (root.field('enforceSignerVisibility').present) patch.enforceSignerVisibility = root.field('enforceSignerVisibility').boolean(false);
  return patch;
}
