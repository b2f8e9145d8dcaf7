import { EsignError } from '../../errors.ts';
import { MAX_MOVED_ENVELOPES } from '../../domain/envelope/move-envelopes.ts';
import { WireReader } from '../../wire/wire-reader.ts';

/** A FoldersRequest (FoldersApi.moveEnvelopes' body) as the use case takes it. */
export type MoveRequest = { readonly envelopeIds: string[]; readonly fromFolderId?: string };

/**
 * FoldersRequest: `envelopeIds` and an optional `fromFolderId`. Its `folders` (moving
 * templates between folders) asks for folders we do not keep: refused by name.
 */
export function parseFoldersRequest(body: unknown): MoveRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON FoldersRequest object.');
  const root = new WireReader('', body);
  if (root.field('folders').items().length > 0) root.field('folders').fail('is not supported: this server has only the system folders, which hold envelopes.');
  const list = root.field('envelopeIds');
  const envelopeIds = list.items().map((item) => item.string(100));
  if (envelopeIds.length === 0) list.fail('must name at least one envelope.');
  if (envelopeIds.length > MAX_MOVED_ENVELOPES) list.fail(`may name at most ${MAX_MOVED_ENVELOPES} envelopes.`);
  const fromFolderId = root.field('fromFolderId').optionalString(100);
  return { envelopeIds, ...(fromFolderId !== undefined ? { fromFolderId } : {}) };
}
