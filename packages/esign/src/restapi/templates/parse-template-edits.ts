import { normalizeEmail } from '../../domain/email-address.ts';
import type { RolePatch } from '../../domain/templates/edit-template-content.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';

function body(value: unknown, model: string): WireReader {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EsignError('INVALID_REQUEST_BODY', `The body must be a JSON ${model} object.`);
  return new WireReader('', value);
}

// Every recipient list a template role may be in (parse-template-definition.ts).
const LISTS = ['signers', 'carbonCopies', 'inPersonSigners', 'certifiedDeliveries', 'agents', 'editors', 'intermediaries', 'witnesses'];

/** Every recipient of a Recipients body, of any type. */
function recipientItems(root: WireReader): WireReader[] {
  return LISTS.flatMap((list) => root.field(list).items());
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

/** updateRecipients: each recipient's id and the fields to change; tabs have their own calls. */
export function parseRolePatches(value: unknown): RolePatch[] {
  return recipientItems(body(value, 'Recipients')).map((r) => {
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
