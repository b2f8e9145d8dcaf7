import { EsignError } from '../../errors.ts';
import type { Envelope } from './envelope.ts';
import { folderOf, type FolderType } from './folders.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';
import { voidSent } from './void-envelope.ts';

/** How many envelopes one moveEnvelopes call may name (a bound on the work of one request). */
export const MAX_MOVED_ENVELOPES = 100;

/** The reason recorded when deleting an envelope in process voids it. */
export const DELETED_VOID_REASON = 'The sender deleted the envelope.';

/** The folder an envelope is in, as the folder list and listItems see it for `viewerEmail`. */
export function foldersOf(envelope: Envelope, viewerEmail: string | undefined): FolderType[] {
  if (envelope.deletedAt) return ['recyclebin'];
  const inbox = viewerEmail !== undefined && envelope.recipients.some((r) => r.email.toLowerCase() === viewerEmail.toLowerCase()) ? ['inbox' as const] : [];
  return [envelope.status === 'created' ? 'draft' : 'sentitems', ...inbox];
}

/** A move that changes nothing (moveEnvelopes skips it; only a concurrent change brings it here). */
function unchanged(envelope: Envelope): EnvelopeChange {
  return { envelope: { ...envelope, version: envelope.version + 1 }, signingTokens: [], mails: [] };
}

/** True when moving `envelope` into `to` changes nothing. */
function isNoOp(envelope: Envelope, to: FolderType): boolean {
  return to === 'recyclebin' ? envelope.deletedAt !== undefined : envelope.deletedAt === undefined && (to === 'inbox' || to === (envelope.status === 'created' ? 'draft' : 'sentitems'));
}

/**
 * One envelope into `to`. Into the recycle bin: deleted, and voided first when it is in process
 * (sent or delivered), as DocuSign does ("placing an in process envelope in the RecycleBin
 * folder will void the envelope", MoveEnvelopes in DocuSign's API reference; the voided
 * recipients are told). Out of it, into any other system folder: restored, back in the folders
 * its status puts it in. Any other move changes nothing a folder could show, so it is refused.
 */
export function moveChange(deps: Pick<EnvelopeDeps, 'notifier'>, envelope: Envelope, to: FolderType, now: Date): EnvelopeChange {
  if (to === 'recyclebin') {
    if (envelope.deletedAt) return unchanged(envelope);
    const base = ['sent', 'delivered'].includes(envelope.status) ? voidSent(deps, envelope, DELETED_VOID_REASON, now) : { envelope: { ...envelope, version: envelope.version + 1 }, signingTokens: [], mails: [] };
    const audit = [...(base.audit ?? []), { envelopeId: envelope.envelopeId, at: now, action: 'Deleted' as const, envelopeStatus: base.envelope.status, source: 'api' as const, message: 'The sender moved the envelope to the recycle bin.' }];
    return { ...base, envelope: { ...base.envelope, deletedAt: now }, audit };
  }
  if (!envelope.deletedAt) {
    const home = envelope.status === 'created' ? 'draft' : 'sentitems';
    if (to === home || to === 'inbox') return unchanged(envelope);
    throw new EsignError('ENVELOPE_INVALID_STATUS', `envelopeId "${envelope.envelopeId}" is ${envelope.status}: its folder is ${home}, not ${to}.`);
  }
  const { deletedAt: _deleted, ...restored } = envelope;
  const audit = [{ envelopeId: envelope.envelopeId, at: now, action: 'Restored' as const, envelopeStatus: envelope.status, source: 'api' as const, message: 'The sender restored the envelope from the recycle bin.' }];
  return { envelope: { ...restored, version: envelope.version + 1 }, signingTokens: [], mails: [], audit };
}

/**
 * FoldersApi.moveEnvelopes: every named envelope of the account into the folder. All are looked
 * up before any moves, so an unknown id (or another account's) moves nothing. `fromFolderId`,
 * when given, must be where each envelope is.
 */
export async function moveEnvelopes(deps: EnvelopeDeps, accountId: string, request: { folderId: string; envelopeIds: readonly string[]; fromFolderId?: string }): Promise<Envelope[]> {
  const to = folderOf(request.folderId).type;
  const from = request.fromFolderId !== undefined ? folderOf(request.fromFolderId).type : undefined;
  if (request.envelopeIds.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'envelopeIds must name at least one envelope.');
  if (request.envelopeIds.length > MAX_MOVED_ENVELOPES) throw new EsignError('INVALID_REQUEST_BODY', `envelopeIds may name at most ${MAX_MOVED_ENVELOPES} envelopes.`);
  const ids = [...new Set(request.envelopeIds)];
  const found: Envelope[] = [];
  for (const id of ids) {
    const envelope = await deps.store.find(accountId, id);
    if (!envelope) throw new EsignError('ENVELOPE_DOES_NOT_EXIST', `envelopeId "${id}" is no envelope (nor template) of the account.`);
    if (from !== undefined && from !== 'inbox' && !foldersOf(envelope, undefined).includes(from)) throw new EsignError('ENVELOPE_INVALID_STATUS', `envelopeId "${id}" is not in folder ${from}.`);
    // A move the envelope's status does not allow fails here, before any envelope has moved.
    moveChange(deps, envelope, to, deps.clock());
    found.push(envelope);
  }
  const moved: Envelope[] = [];
  for (const envelope of found) {
    if (isNoOp(envelope, to)) moved.push(envelope);
    else moved.push(await updateEnvelope(deps, accountId, envelope.envelopeId, (current) => moveChange(deps, current, to, deps.clock())));
  }
  return moved;
}
