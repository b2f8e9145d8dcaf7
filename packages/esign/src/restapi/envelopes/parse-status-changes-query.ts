import type { EnvelopeOrderBy, EnvelopeQuery } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { SYSTEM_FOLDERS, folderOf, type FolderType } from '../../domain/envelope/folders.ts';

/** A query string as Fastify parses it (form semantics: `+` is a space, as axios encodes the SDK's queries). */
export type RawQuery = Record<string, string | string[] | undefined>;

const STATUSES = new Set(['created', 'sent', 'delivered', 'signed', 'completed', 'declined', 'voided']);
// Page size: our own default and ceiling (a page of 1000 envelopes is already large).
const DEFAULT_COUNT = 100;
const MAX_COUNT = 1000;
/**
 * order_by's values as DocuSign documents them (Envelopes: listStatusChanges, eSignature
 * OpenAPI v2.1) and the key each sorts by here. `last_modified` is the status change time
 * because that is what we answer as lastModifiedDateTime (to-wire-envelope.ts); an envelope's
 * name is its subject. undefined: documented, but about a user's inbox (action_required) or a
 * column we do not keep (signer_list), so refused rather than silently sorted another way.
 */
const ORDER_BY = new Map<string, EnvelopeOrderBy | undefined>([
  ['status_changed', 'status_changed'],
  ['last_modified', 'status_changed'],
  ['created', 'created'],
  ['sent', 'sent'],
  ['completed', 'completed'],
  ['expire', 'expire'],
  ['subject', 'subject'],
  ['envelope_name', 'subject'],
  ['status', 'status'],
  ['user_name', 'user_name'],
  ['action_required', undefined],
  ['signer_list', undefined],
]);
const SUPPORTED_ORDER_BY = [...ORDER_BY].filter(([, key]) => key !== undefined).map(([name]) => name).join(', ');

function first(query: RawQuery, name: string): string | undefined {
  const v = query[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

function invalid(detail: string): never {
  throw new EsignError('INVALID_REQUEST_PARAMETER', detail);
}

function date(query: RawQuery, name: string): Date | undefined {
  const text = first(query, name);
  if (text === undefined) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? invalid(`Query parameter '${name}' must be a valid DateTime, got "${text}".`) : d;
}

function int(query: RawQuery, name: string, fallback: number, min: number, max: number): number {
  const text = first(query, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min && n <= max ? n : invalid(`Query parameter '${name}' must be an integer from ${min} to ${max}, got "${text}".`);
}

function list(query: RawQuery, name: string): string[] | undefined {
  const text = first(query, name);
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return items.length === 0 ? undefined : items;
}

function orderBy(query: RawQuery): EnvelopeOrderBy | undefined {
  const name = first(query, 'order_by')?.toLowerCase();
  if (name === undefined) return undefined;
  if (!ORDER_BY.has(name)) invalid(`Query parameter 'order_by' must be one of ${SUPPORTED_ORDER_BY}, got "${name}".`);
  return ORDER_BY.get(name) ?? invalid(`Query parameter 'order_by' value "${name}" is not supported by this server; use one of ${SUPPORTED_ORDER_BY}.`);
}

/**
 * folder_ids and folder_types: the system folders (domain/envelope/folders.ts). DocuSign's other
 * names (awaiting_my_signature, completed, out_for_signature, templates, normal...) are views
 * or folders we do not keep: refused by name, never answered as an empty list.
 */
function folders(query: RawQuery): FolderType[] | undefined {
  const names = [...(list(query, 'folder_ids') ?? []), ...(list(query, 'folder_types') ?? [])];
  if (names.length === 0) return undefined;
  return [...new Set(names.map((name) => {
    try {
      return folderOf(name).type;
    } catch {
      return invalid(`Query parameter folder_ids/folder_types names "${name}"; this server has only the folders ${SYSTEM_FOLDERS.map((f) => f.folderId).join(', ')}.`);
    }
  }))];
}

/**
 * listStatusChanges' query (docs/esign-envelopes.md, "Routes"):
 * `from_date` is required unless `envelope_ids` or `transaction_ids` is given, in DocuSign's own
 * words; `status` is a comma list ("any" means all); `count` and `start_position` page the result;
 * `order_by` and `order` sort it; `search_text` keeps the envelopes whose subject or a recipient's
 * name or email contains it; `folder_ids`/`folder_types` keep those in the folders named (the
 * recycle bin is left out otherwise); `user_id` keeps those that user sent.
 */
export function parseStatusChangesQuery(query: RawQuery): EnvelopeQuery {
  const envelopeIds = list(query, 'envelope_ids');
  const transactionIds = list(query, 'transaction_ids');
  const fromDate = date(query, 'from_date');
  if (fromDate === undefined && envelopeIds === undefined && transactionIds === undefined) {
    invalid("Query parameter 'from_date' must be set to a valid DateTime, or 'envelope_ids' or 'transaction_ids' must be specified.");
  }
  const toDate = date(query, 'to_date');
  let statuses = list(query, 'status')?.map((s) => s.toLowerCase());
  if (statuses?.includes('any')) statuses = undefined;
  for (const s of statuses ?? []) if (!STATUSES.has(s)) invalid(`Query parameter 'status' has an unknown status "${s}".`);
  // `order` (asc|desc) flips the listing; asking for the newest N (order=desc&count=N) must not
  // silently return the oldest N.
  const order = first(query, 'order')?.toLowerCase();
  if (order !== undefined && order !== 'asc' && order !== 'desc') invalid(`Query parameter 'order' must be asc or desc, got "${order}".`);
  const sortKey = orderBy(query);
  const searchText = first(query, 'search_text');
  const inFolders = folders(query);
  // user_id: the envelopes that user sent (DocuSign's listStatusChanges; with
  // X-DocuSign-Act-On-Behalf the sharedAccess example's agent names the principal so).
  const senderUserId = first(query, 'user_id');
  if (senderUserId !== undefined && senderUserId.length > 100) invalid("Query parameter 'user_id' is too long.");
  return {
    ...(senderUserId !== undefined ? { senderUserId } : {}),
    ...(inFolders ? { folders: inFolders } : {}),
    ...(order === 'desc' ? { order } : {}),
    ...(sortKey !== undefined && sortKey !== 'status_changed' ? { orderBy: sortKey } : {}),
    ...(searchText !== undefined ? { searchText } : {}),
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
    ...(statuses ? { statuses } : {}),
    // We keep no transaction ids: asking by them alone matches nothing.
    ...(envelopeIds ? { envelopeIds } : transactionIds ? { envelopeIds: [] } : {}),
    startPosition: int(query, 'start_position', 0, 0, 1_000_000),
    count: int(query, 'count', DEFAULT_COUNT, 1, MAX_COUNT),
  };
}
