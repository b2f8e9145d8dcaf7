import { normalizeEmail } from '../../domain/email-address.ts';
import type { RolePatch } from '../../domain/templates/edit-template-content.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import { AGENT_FIELDS, CARBON_COPY_FIELDS, CERTIFIED_DELIVERY_FIELDS, EDITOR_FIELDS, IN_PERSON_SIGNER_FIELDS, INTERMEDIARY_FIELDS, SIGNER_FIELDS, WITNESS_FIELDS } from '../../wire/envelope-field-rules.ts';

function body(value: unknown, model: string): WireReader {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EsignError('INVALID_REQUEST_BODY', `The body must be a JSON ${model} object.`);
  return new WireReader('', value);
}


function address(r: WireReader, field: string, recipientId: string): string | undefined {
  const raw = r.field(field).optionalString(254);
  if (raw === undefined) return undefined;
  try {
    return normalizeEmail(raw);
  } catch {
    throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${recipientId} ("${raw}")`);
  }
}

// What parseRolePatches reads. A field a create honours that it does not read is refused by
// name (a role's accessCode or language asked here would otherwise be a 200 that changed
// nothing); what a create refuses stays refused, read-only fields sent back are left alone.
const PATCH_READS = new Set(['recipientId', 'tabs', 'roleName', 'name', 'signerName', 'email', 'signerEmail', 'hostName', 'hostEmail',
  'witnessFor', 'agentCanEditName', 'agentCanEditEmail', 'excludedDocuments', 'routingOrder', 'clientUserId']);
const NOT_PATCHED: ModelFieldRule = { rule: 'refused', why: 'cannot be changed through TemplatesApi.updateRecipients' };
const patchRules = (create: Readonly<Record<string, ModelFieldRule>>): Readonly<Record<string, ModelFieldRule>> =>
  Object.fromEntries(Object.entries(create).map(([field, rule]) => [field, PATCH_READS.has(field) || rule.rule !== 'honoured' ? rule : NOT_PATCHED]));
const PATCH_MODELS: Readonly<Record<string, readonly [string, Readonly<Record<string, ModelFieldRule>>]>> = {
  signers: ['Signer', patchRules(SIGNER_FIELDS)], carbonCopies: ['CarbonCopy', patchRules(CARBON_COPY_FIELDS)],
  inPersonSigners: ['InPersonSigner', patchRules(IN_PERSON_SIGNER_FIELDS)], certifiedDeliveries: ['CertifiedDelivery', patchRules(CERTIFIED_DELIVERY_FIELDS)],
  agents: ['Agent', patchRules(AGENT_FIELDS)], editors: ['Editor', patchRules(EDITOR_FIELDS)],
  intermediaries: ['Intermediary', patchRules(INTERMEDIARY_FIELDS)], witnesses: ['Witness', patchRules(WITNESS_FIELDS)],
};
// Every recipient list a template role may be in (parse-template-definition.ts): the models' lists.
const LISTS = Object.keys(PATCH_MODELS);

/** Every recipient of a Recipients body, of any type. */
function recipientItems(root: WireReader): WireReader[] {
  return LISTS.flatMap((list) => root.field(list).items());
}

/** updateRecipients: each recipient's id and the fields to change; tabs have their own calls. */
export function parseRolePatches(value: unknown): RolePatch[] {
  const root = body(value, 'Recipients');
  for (const [list, [model, rules]] of Object.entries(PATCH_MODELS)) {
    for (const r of root.field(list).items()) checkModelFields(r, model, rules);
  }
  return recipientItems(root).map((r) => {
    const recipientId = r.field('recipientId').string(100);
    const tabs = r.field('tabs').object() ?? {};
    if (Object.values(tabs).some((v) => Array.isArray(v) && v.length > 0)) r.field('tabs').fail('cannot be changed by updateRecipients; use createTabs, updateTabs or deleteTabs.');
    const patch: { -readonly [K in keyof RolePatch]: RolePatch[K] } = { recipientId };
    const roleName = r.field('roleName').optionalString(100);
    if (roleName !== undefined) patch.roleName = roleName;
    const name = r.field('name').optionalString(100);
    if (name !== undefined) patch.name = name;
    // An in-person signer's signer is signerName / signerEmail, its host hostName / hostEmail.
    const name2 = r.field('signerName').optionalString(100);
    if (name2 !== undefined) patch.name = name2;
    const email = address(r, 'email', recipientId) ?? address(r, 'signerEmail', recipientId);
    if (email !== undefined) patch.email = email;
    const hostName = r.field('hostName').optionalString(100);
    const hostEmail = address(r, 'hostEmail', recipientId);
    if (hostName !== undefined || hostEmail !== undefined) patch.host = { ...(hostName !== undefined ? { name: hostName } : {}), ...(hostEmail !== undefined ? { email: hostEmail } : {}) };
    const witnessFor = r.field('witnessFor').optionalString(100);
    if (witnessFor !== undefined) patch.witnessFor = witnessFor;
    for (const flag of ['agentCanEditName', 'agentCanEditEmail'] as const) if (r.field(flag).present) patch[flag] = r.field(flag).boolean(false);
    // excludedDocuments replaces the role's list; an empty list shows it every document again.
    if (r.field('excludedDocuments').present) patch.excludedDocuments = r.field('excludedDocuments').items().map((d) => d.string(10));
    const routingOrder = r.field('routingOrder').optionalInteger(1, 999);
    if (routingOrder !== undefined) patch.routingOrder = routingOrder;
    const clientUserId = r.field('clientUserId').optionalString(100);
    if (clientUserId !== undefined) patch.clientUserId = clientUserId;
    return patch;
  });
}

/** deleteRecipients: the ids of a Recipients body. */
export function parseRecipientIds(value: unknown): string[] {
  const ids = recipientItems(body(value, 'Recipients')).map((r) => r.field('recipientId').string(100));
  if (ids.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'Name at least one recipient to delete.');
  return ids;
}
