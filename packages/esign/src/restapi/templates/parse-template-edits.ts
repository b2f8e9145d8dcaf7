import { normalizeEmail } from '../../domain/email-address.ts';
import type { SignHereDraft } from '../../domain/envelope/envelope-draft.ts';
import type { RolePatch, TabPatch } from '../../domain/templates/edit-template-content.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseSignHere } from '../envelopes/parse-envelope-definition.ts';

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

/** The signHereTabs of a Tabs body; any other non-empty list is refused by name. */
function signHereItems(value: unknown): WireReader[] {
  const root = body(value, 'Tabs');
  for (const [key, v] of Object.entries(root.object() ?? {})) {
    if (key !== 'signHereTabs' && Array.isArray(v) && v.length > 0) root.field(key).fail('is not supported on templates yet; only signHereTabs are (docs/esign-templates.md).');
  }
  const items = root.field('signHereTabs').items();
  if (items.length === 0) root.field('signHereTabs').fail('must list at least one tab.');
  return items;
}

/** createTabs: new SignHere tabs. */
export function parseNewTabs(value: unknown): SignHereDraft[] {
  return signHereItems(value).map(parseSignHere);
}

/** updateTabs: each tab's id and what changes (a new anchor, or position fields). */
export function parseTabPatches(value: unknown): TabPatch[] {
  return signHereItems(value).map((tab) => {
    const tabId = tab.field('tabId').string(100);
    if (tab.field('anchorString').present) {
      const { documentId: _d, pageNumber: _p, xPosition: _x, yPosition: _y, ...draft } = parseSignHere(tab);
      return { tabId, draft };
    }
    const draft: { -readonly [K in keyof SignHereDraft]?: SignHereDraft[K] } = {};
    const documentId = tab.field('documentId').optionalString(10);
    if (documentId !== undefined) draft.documentId = documentId;
    const pageNumber = tab.field('pageNumber').optionalInteger(1, 100_000);
    if (pageNumber !== undefined) draft.pageNumber = pageNumber;
    for (const f of ['xPosition', 'yPosition'] as const) {
      const v = tab.field(f).optionalNumber();
      if (v !== undefined && v < 0) tab.field(f).fail('must not be negative.');
      if (v !== undefined) draft[f] = v;
    }
    const tabLabel = tab.field('tabLabel').optionalString(500);
    if (tabLabel !== undefined) draft.tabLabel = tabLabel;
    const name = tab.field('name').optionalString(500);
    if (name !== undefined) draft.name = name;
    if (tab.field('optional').present) draft.optional = tab.field('optional').boolean(false);
    const scaleValue = tab.field('scaleValue').optionalNumber();
    if (scaleValue !== undefined && (scaleValue < 0.5 || scaleValue > 2)) tab.field('scaleValue').fail('must be from 0.5 to 2.');
    if (scaleValue !== undefined) draft.scaleValue = scaleValue;
    return { tabId, draft };
  });
}

/** deleteTabs: the tab ids. */
export function parseTabIds(value: unknown): string[] {
  return signHereItems(value).map((tab) => tab.field('tabId').string(100));
}
