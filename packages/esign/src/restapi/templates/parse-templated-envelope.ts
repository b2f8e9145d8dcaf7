import { API_DEFAULT_SETTINGS } from '../../domain/notification/envelope-notification.ts';
import type { CompositeDraft, CompositeLayer, OverlayRecipient, TemplatedEnvelopeDraft } from '../../domain/templates/templated-envelope-draft.ts';
import type { RecipientType } from '../../domain/envelope/envelope.ts';
import { EsignError } from '../../errors.ts';
import { parseEventNotification } from '../../wire/parse-event-notification.ts';
import { applyNotificationRequest } from '../../domain/notification/notification-request.ts';
import { parseNotificationRequest } from '../../wire/parse-notification.ts';
import { parseWorkflow } from '../../wire/parse-workflow.ts';
import { parseCustomFields } from '../../wire/parse-custom-fields.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseRecipientAuthentication } from '../../wire/parse-recipient-authentication.ts';
import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import { AGENT_FIELDS, CARBON_COPY_FIELDS, CERTIFIED_DELIVERY_FIELDS, EDITOR_FIELDS, ENVELOPE_DEFINITION_FIELDS, IN_PERSON_SIGNER_FIELDS, INTERMEDIARY_FIELDS, RECIPIENTS_FIELDS, SIGNER_FIELDS, WITNESS_FIELDS } from '../../wire/envelope-field-rules.ts';
import { parseDocument, recipientTabs } from '../envelopes/parse-envelope-definition.ts';
import { parseExcludedDocuments } from '../../wire/parse-excluded-documents.ts';
import { normalizeEmail } from '../../domain/email-address.ts';
import { parseTemplateRoleTabs } from './parse-template-role-tabs.ts';
import { MAX_ENVELOPE_RECIPIENTS } from '../../domain/envelope/envelope-limits.ts';

const MAX_COMPOSITES = 20;
const MAX_LAYERS = 20;
// The fields of TemplateRole and of the composite models that ask for what is not done here:
// refused by name, as the envelope models' are (wire/envelope-field-rules.ts), never dropped.
const refused = (why: string): ModelFieldRule => ({ rule: 'refused', why });
const SIGNING_GROUPS = refused('signing groups are not supported');
const TEMPLATE_ROLE_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  accessCode: refused('recipient authentication is not supported yet: the signer would sign without it'),
  additionalNotifications: refused('additional notifications are not supported'),
  defaultRecipient: refused('default recipients are not supported'),
  deliveryMethod: { rule: 'limited', why: 'only e-mail delivery is supported', allow: ['email'] },
  emailNotification: refused('per-recipient e-mail settings are not supported'),
  embeddedRecipientStartURL: refused('embedded start URLs are not supported; use EnvelopesApi.createRecipientView'),
  phoneNumber: refused('SMS delivery is not supported'),
  recipientSignatureProviders: refused('signature providers are not supported'),
  signingGroupId: SIGNING_GROUPS, signingGroupName: SIGNING_GROUPS, signingGroupType: SIGNING_GROUPS, signingGroupUsers: SIGNING_GROUPS,
};
const COMPOSITE_FIELDS: Readonly<Record<string, ModelFieldRule>> = { pdfMetaDataTemplateSequence: refused('PDF form-field transforms are not supported') };
const INLINE_FIELDS: Readonly<Record<string, ModelFieldRule>> = { customFields: refused('envelope custom fields are not supported yet'), envelope: refused('an inline envelope is not supported; put recipients and documents in the inline template') };

// Every recipient list an inline template may hold, each read by its SDK model's field rules.
const OVERLAY_LISTS: readonly (readonly [string, RecipientType, string, Readonly<Record<string, ModelFieldRule>>])[] = [
  ['signers', 'signer', 'Signer', SIGNER_FIELDS], ['carbonCopies', 'carbonCopy', 'CarbonCopy', CARBON_COPY_FIELDS],
  ['inPersonSigners', 'inPersonSigner', 'InPersonSigner', IN_PERSON_SIGNER_FIELDS], ['certifiedDeliveries', 'certifiedDelivery', 'CertifiedDelivery', CERTIFIED_DELIVERY_FIELDS],
  ['agents', 'agent', 'Agent', AGENT_FIELDS], ['editors', 'editor', 'Editor', EDITOR_FIELDS], ['intermediaries', 'intermediary', 'Intermediary', INTERMEDIARY_FIELDS],
  ['witnesses', 'witness', 'Witness', WITNESS_FIELDS],
];

/** Whether an EnvelopeDefinition uses templates (then this parser reads it, not parseEnvelopeDefinition). */
export function usesTemplates(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  return (b.templateId !== undefined && b.templateId !== null && b.templateId !== '') || (Array.isArray(b.compositeTemplates) && b.compositeTemplates.length > 0) || (Array.isArray(b.templateRoles) && b.templateRoles.length > 0);
}

/**
 * Reads an EnvelopeDefinition with `templateId` + `templateRoles`, or with `compositeTemplates`
 * (serverTemplates, inlineTemplates, document). Top-level documents and recipients beside them
 * are refused: DocuSign ignores them there, which would drop what the caller sent in silence.
 */
export function parseTemplatedEnvelope(body: unknown): TemplatedEnvelopeDraft {
  const root = new WireReader('', body);
  // The same rules as any EnvelopeDefinition: a field asking for what is not done is refused, named.
  checkModelFields(root, 'EnvelopeDefinition', ENVELOPE_DEFINITION_FIELDS);
  // Document visibility (domain/envelope/document-visibility.ts): the definition's, or a template's.
  const enforceSignerVisibility = root.field('enforceSignerVisibility').boolean(false);
  const envelopeIdStamping = root.field('envelopeIdStamping').boolean(false);
  const status = root.field('status').optionalString(32)?.toLowerCase() ?? 'created';
  if (status !== 'sent' && status !== 'created') throw new EsignError('ENVELOPE_INVALID_STATUS', `status must be "sent" or "created" when creating an envelope, got "${status}".`);
  for (const name of ['documents', 'recipients']) {
    const f = root.field(name);
    if (f.present && !(Array.isArray(f.value) && f.value.length === 0) && !(name === 'recipients' && Object.values(f.object() ?? {}).every((v) => !Array.isArray(v) || v.length === 0))) {
      f.fail('cannot be combined with templateId or compositeTemplates; put them in an inlineTemplate.');
    }
  }
  const templateId = root.field('templateId').optionalString(100);
  const compositeReaders = root.field('compositeTemplates').items();
  if (templateId !== undefined && compositeReaders.length > 0) root.field('templateId').fail('cannot be combined with compositeTemplates; use a serverTemplate.');
  if (compositeReaders.length > MAX_COMPOSITES) root.field('compositeTemplates').fail(`may hold at most ${MAX_COMPOSITES} composite templates.`);
  let composites: CompositeDraft[];
  if (templateId !== undefined) {
    const roles = root.field('templateRoles').items().map(parseTemplateRole);
    if (roles.length > MAX_ENVELOPE_RECIPIENTS) root.field('templateRoles').fail(`may hold at most ${MAX_ENVELOPE_RECIPIENTS} roles.`);
    composites = [{ layers: [{ kind: 'server', sequence: 1, templateId }, { kind: 'inline', sequence: 2, documents: [], recipients: roles, fromTemplateRoles: true }] }];
  } else {
    if (root.field('templateRoles').items().length > 0) root.field('templateRoles').fail('needs a templateId.');
    composites = compositeReaders.map(parseComposite);
  }
  const emailSubject = root.field('emailSubject').optionalString(100);
  const emailBlurb = root.field('emailBlurb').optionalString(10_000);
  const eventNotification = parseEventNotification(root.field('eventNotification'));
  const notificationField = root.field('notification');
  const notification = notificationField.present ? applyNotificationRequest(API_DEFAULT_SETTINGS, parseNotificationRequest(notificationField.value)) : undefined;
  const workflow = parseWorkflow(root.field('workflow'));
  const customFields = parseCustomFields(root.field('customFields'));
  const brandId = root.field('brandId').optionalString(100);
  return {
    status,
    ...(enforceSignerVisibility ? { enforceSignerVisibility } : {}),
    ...(envelopeIdStamping ? { envelopeIdStamping } : {}),
    ...(brandId !== undefined ? { brandId } : {}),
    ...(workflow ? { workflow } : {}),
    ...(customFields.length > 0 ? { customFields } : {}),
    ...(emailSubject !== undefined ? { emailSubject } : {}),
    ...(emailBlurb !== undefined ? { emailBlurb } : {}),
    ...(eventNotification ? { eventNotification } : {}),
    ...(notification ? { notification } : {}),
    composites,
  };
}

function parseComposite(c: WireReader): CompositeDraft {
  if (c.object() === undefined) c.fail('must be a CompositeTemplate object.');
  checkModelFields(c, 'CompositeTemplate', COMPOSITE_FIELDS);
  const servers: CompositeLayer[] = c.field('serverTemplates').items().map((s) => {
    if (s.object() === undefined) s.fail('must be a ServerTemplate object.');
    return { kind: 'server', sequence: s.field('sequence').optionalInteger(0, 1_000_000) ?? 1, templateId: s.field('templateId').string(100) };
  });
  const inlines: CompositeLayer[] = c.field('inlineTemplates').items().map((t) => {
    if (t.object() === undefined) t.fail('must be an InlineTemplate object.');
    checkModelFields(t, 'InlineTemplate', INLINE_FIELDS);
    const recipientsReader = t.field('recipients');
    checkModelFields(recipientsReader, 'Recipients', RECIPIENTS_FIELDS);
    const recipients = OVERLAY_LISTS.flatMap(([list, type, model, fields]) => recipientsReader.field(list).items().map((r) => parseOverlay(r, type, model, fields)));
    if (recipients.length > MAX_ENVELOPE_RECIPIENTS) recipientsReader.fail(`may hold at most ${MAX_ENVELOPE_RECIPIENTS} recipients.`);
    return { kind: 'inline', sequence: t.field('sequence').optionalInteger(0, 1_000_000) ?? 1, documents: t.field('documents').items().map(parseDocument), recipients };
  });
  const layers = [...servers, ...inlines];
  if (layers.length === 0) c.fail('needs a serverTemplate or an inlineTemplate.');
  if (layers.length > MAX_LAYERS) c.fail(`may hold at most ${MAX_LAYERS} templates.`);
  const document = c.field('document').present ? parseDocument(c.field('document')) : undefined;
  return { layers, ...(document ? { document } : {}) };
}

function parseTemplateRole(r: WireReader): OverlayRecipient {
  if (r.object() === undefined) r.fail('must be a TemplateRole object.');
  checkModelFields(r, 'TemplateRole', TEMPLATE_ROLE_FIELDS);
  const roleName = r.field('roleName').string(100);
  // Values for the template's tabs by tabLabel, and tabs added to the role.
  const { prefills, tabs } = parseTemplateRoleTabs(r.field('tabs'));
  // An in-person role's signer; its name and email above are the host's.
  const signerName = r.field('inPersonSignerName').optionalString(100);
  return { roleName, ...scalars(r), ...(signerName !== undefined ? { signerName } : {}), tabs, prefills };
}

function parseOverlay(r: WireReader, type: RecipientType, model: string, fields: Readonly<Record<string, ModelFieldRule>>): OverlayRecipient {
  if (r.object() === undefined) r.fail('must be a recipient object.');
  checkModelFields(r, model, fields);
  const roleName = r.field('roleName').optionalString(100);
  const recipientId = r.field('recipientId').optionalString(100);
  if (roleName === undefined && recipientId === undefined) r.fail('needs a recipientId or a roleName.');
  // Envelopes take a signer's access code; templates do not carry one yet: refused, never dropped.
  if (r.field('accessCode').optionalString(50) !== undefined) r.field('accessCode').fail('is not supported in templates yet: the signer would sign without it.');
  if (type !== 'carbonCopy' && parseRecipientAuthentication(r, '') !== undefined) r.fail('asks for a one-time passcode check, which templates do not support yet: the signer would sign without it.');
  // Envelopes made from templates carry no recipient language yet: refused, never dropped.
  if (r.field('emailNotification').present) r.field('emailNotification').fail('is not supported in envelopes made from templates yet.');
  const flag = (name: string) => r.field(name).present && r.field(name).boolean(false);
  const agentCanEditName = flag('agentCanEditName');
  const agentCanEditEmail = flag('agentCanEditEmail');
  const excludedDocuments = parseExcludedDocuments(r);
  const witnessFor = type === 'witness' ? r.field('witnessFor').optionalString(100) : undefined;
  const tabs = recipientTabs(r, type, recipientId);
  const base = {
    type, ...(recipientId !== undefined ? { recipientId } : {}), ...(roleName !== undefined ? { roleName } : {}),
    ...(witnessFor !== undefined ? { witnessFor } : {}), ...(agentCanEditName ? { agentCanEditName } : {}), ...(agentCanEditEmail ? { agentCanEditEmail } : {}),
    ...(excludedDocuments !== undefined ? { excludedDocuments } : {}), tabs,
  };
  if (type !== 'inPersonSigner') return { ...base, ...scalars(r) };
  // InPersonSigner: the host, and the signer by signerName (or name) and signerEmail.
  const { email: _hostsOwn, name: _name, ...rest } = scalars(r);
  const hostName = r.field('hostName').optionalString(100);
  const hostEmail = optionalEmail(r, 'hostEmail', recipientId ?? roleName ?? '');
  const name = r.field('signerName').optionalString(100) ?? r.field('name').optionalString(100);
  const email = optionalEmail(r, 'signerEmail', recipientId ?? roleName ?? '');
  return { ...base, ...rest, ...(hostName !== undefined ? { hostName } : {}), ...(hostEmail !== undefined ? { hostEmail } : {}), ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
}

function optionalEmail(r: WireReader, field: string, who: string): string | undefined {
  const raw = r.field(field).optionalString(254);
  if (raw === undefined) return undefined;
  try {
    return normalizeEmail(raw);
  } catch {
    throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${who}: ${field} ("${raw}")`);
  }
}

function scalars(r: WireReader): Omit<OverlayRecipient, 'type' | 'recipientId' | 'roleName' | 'tabs' | 'prefills'> {
  const name = r.field('name').optionalString(100) ?? ([r.field('firstName').optionalString(50), r.field('lastName').optionalString(50)].filter(Boolean).join(' ') || undefined);
  const email = r.field('email').optionalString(254);
  const routingOrder = r.field('routingOrder').optionalInteger(1, 999);
  const clientUserId = r.field('clientUserId').optionalString(100);
  return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}), ...(routingOrder !== undefined ? { routingOrder } : {}), ...(clientUserId !== undefined ? { clientUserId } : {}) };
}
