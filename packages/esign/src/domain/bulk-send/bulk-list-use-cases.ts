import { EsignError } from '../../errors.ts';
import { assertListSize, type BulkCopy, type BulkList, type BulkListDraft } from './bulk-copy.ts';
import type { BulkSendDeps } from './bulk-ports.ts';

/** createBulkSendList: the list stored with its copies; the caller's user made it. */
export async function createBulkList(deps: BulkSendDeps, accountId: string, userId: string, draft: BulkListDraft): Promise<BulkList> {
  assertListSize(draft.copies.length);
  const list: BulkList = { listId: deps.envelopes.random.uuid(), accountId, name: draft.name, createdByUserId: userId, createdAt: deps.envelopes.clock(), copyCount: draft.copies.length };
  await deps.bulk.createList(list, draft.copies);
  return list;
}

/** A list of the account, or BULK_SEND_LIST_NOT_FOUND (another account's list is unknown here). */
export async function getBulkList(deps: BulkSendDeps, accountId: string, listId: string): Promise<BulkList> {
  const list = await deps.bulk.findList(accountId, listId);
  if (!list) throw new EsignError('BULK_SEND_LIST_NOT_FOUND', `bulkSendListId "${listId}".`);
  return list;
}

/** Every copy of a list, in row order (getBulkSendList answers them all; a list holds at most 1,000). */
export async function listCopies(deps: BulkSendDeps, list: BulkList): Promise<BulkCopy[]> {
  return (await deps.bulk.copies(list.listId, 0, list.copyCount)).map((c) => c.copy);
}

/** updateBulkSendList: the list's name and copies replaced; batches already sent keep their own copy of the rows. */
export async function updateBulkList(deps: BulkSendDeps, accountId: string, listId: string, draft: BulkListDraft): Promise<BulkList> {
  assertListSize(draft.copies.length);
  if (!(await deps.bulk.replaceList(accountId, listId, draft.name, draft.copies))) throw new EsignError('BULK_SEND_LIST_NOT_FOUND', `bulkSendListId "${listId}".`);
  return getBulkList(deps, accountId, listId);
}

export async function deleteBulkList(deps: BulkSendDeps, accountId: string, listId: string): Promise<void> {
  if (!(await deps.bulk.deleteList(accountId, listId))) throw new EsignError('BULK_SEND_LIST_NOT_FOUND', `bulkSendListId "${listId}".`);
}
