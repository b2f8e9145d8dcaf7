import { normalizeEmail } from '../../domain/email-address.ts';
import type { RolePatch } from '../../domain/templates/edit-template-content.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';

function body(value: unknown, model: string): WireReader {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EsignError('INVALID_REQUEST_BODY', `The body must be a JSON ${model} object.`);
  return new WireReader('', value);
}

/** Every signer and carbon copy of a Recipients body. */
function recipientItems(root: WireReader): WireReader[] {
  return [...root.field('signers').items(), ...root.field('carbonCopies').items()];
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
    const email = r.field('email').optionalString(254);
    if (email !== undefined) {
      try {
        patch.email = normalizeEmail(email);
      } catch {
        throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${recipientId} ("${email}")`);
      }
    }
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
