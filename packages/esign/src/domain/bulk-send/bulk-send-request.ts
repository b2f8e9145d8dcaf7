import { EsignError } from '../../errors.ts';
import type { Envelope } from '../envelope/envelope.ts';
import { MAX_BULK_QUEUE, type BulkCopy, type BulkList } from './bulk-copy.ts';
import { getBulkList } from './bulk-list-use-cases.ts';
import type { BulkBatch, BulkSendDeps } from './bulk-ports.ts';
import { copyProblems, copyRecipients } from './copy-envelope.ts';
import { mailedCount } from '../envelope/recipient-kinds.ts';

// Copies are checked a page at a time: a list is read in slices, never whole.
const PAGE = 100;
// A test answer lists at most this many problems (the first rows'); the count says the rest.
const MAX_PROBLEMS = 50;

/** The draft a list is sent over: the account's own, still a draft, without a workflow. */
async function sourceProblems(deps: BulkSendDeps, accountId: string, envelopeId: string): Promise<{ source?: Envelope; problems: string[] }> {
  const source = await deps.envelopes.store.find(accountId, envelopeId);
  if (!source || source.deletedAt) throw new EsignError('ENVELOPE_DOES_NOT_EXIST', `envelopeOrTemplateId "${envelopeId}" (bulk send takes a draft envelope of this account; templates are not supported yet).`);
  const problems: string[] = [];
  if (source.status !== 'created') problems.push(`the envelope is ${source.status}; only a draft (created) envelope can be bulk sent.`);
  if (source.workflow) problems.push('the envelope has a workflow (scheduled sending, pauses or delayed routing), which bulk copies do not take yet.');
  if (source.documents.length === 0) problems.push('the envelope has no documents.');
  if (source.recipients.length === 0) problems.push('the envelope has no recipients.');
  return { source, problems };
}

const noId = (): string => '';

/** The recipients one copy of `source` mails when sent. */
function copyReach(source: Envelope, copy: BulkCopy): number {
  return mailedCount(copyRecipients(source, copy, noId));
}

/**
 * Every problem of sending `list` over the draft, the list read a page at a time. The last is
 * the account's send allowance: the copies' recipients who get mail (embedded ones do not),
 * with those of the rows already queued, must fit in what is left of it now, or the batch would
 * fail row by row once queued. Rows are still checked one by one as they are sent (other sends
 * may spend the allowance meanwhile, and two submits at the same moment each see the other's
 * rows not yet queued).
 */
async function allProblems(deps: BulkSendDeps, list: BulkList, envelopeId: string): Promise<{ problems: string[]; overAllowance?: string }> {
  const { source, problems } = await sourceProblems(deps, list.accountId, envelopeId);
  if (!source || problems.length > 0) return { problems };
  let reach = 0;
  for (let after = 0; after < list.copyCount; after += PAGE) {
    for (const { row, copy } of await deps.bulk.copies(list.listId, after, PAGE)) {
      const found = copyProblems(source, copy, row);
      problems.push(...found);
      if (found.length === 0) reach += copyReach(source, copy);
    }
  }
  if (problems.length > 0) return { problems };
  const queued = await queuedReach(deps, list.accountId);
  const left = await deps.bulk.sendAllowanceLeft(list.accountId, deps.envelopes.clock());
  if (reach + queued <= left) return { problems };
  const ahead = queued > 0 ? ` and the batches already queued ${queued} more` : '';
  const overAllowance = `The batch would reach ${reach} recipients by e-mail${ahead}; this account may reach ${left} more in the next 24 hours (its send allowance).`;
  return { problems: [overAllowance], overAllowance };
}

/**
 * The recipients the account's queued rows will mail once the worker sends them (they spend the
 * allowance only then), each counted against its batch's draft as it stands (a draft gone since
 * makes its rows fail, and they count nothing).
 */
async function queuedReach(deps: BulkSendDeps, accountId: string): Promise<number> {
  const sources = new Map<string, Envelope | undefined>();
  let reach = 0;
  for (const { sourceEnvelopeId, copy } of await deps.bulk.queuedCopies(accountId)) {
    if (!sources.has(sourceEnvelopeId)) {
      const found = await deps.envelopes.store.find(accountId, sourceEnvelopeId);
      sources.set(sourceEnvelopeId, found && !found.deletedAt ? found : undefined);
    }
    const source = sources.get(sourceEnvelopeId);
    if (source) reach += copyReach(source, copy);
  }
  return reach;
}

export type BulkSendTest = { readonly canBeSent: boolean; readonly problems: readonly string[] };

/** createBulkSendTestRequest: DocuSign's checks of list and draft together, nothing sent. */
export async function testBulkSend(deps: BulkSendDeps, accountId: string, listId: string, envelopeId: string): Promise<BulkSendTest> {
  const list = await getBulkList(deps, accountId, listId);
  const { problems } = await allProblems(deps, list, envelopeId);
  const shown = problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `and ${problems.length - MAX_PROBLEMS} more.`] : problems;
  return { canBeSent: problems.length === 0, problems: shown };
}

/**
 * createBulkSendRequest: the checks of the test request, the account's queue limit, then one
 * batch with a queued row per copy; the bulk send worker makes the envelopes
 * (send-bulk-copy.ts). Nothing is queued unless every row can be sent.
 */
export async function requestBulkSend(deps: BulkSendDeps, input: { accountId: string; userId: string; listId: string; envelopeId: string; batchName?: string }): Promise<BulkBatch> {
  const list = await getBulkList(deps, input.accountId, input.listId);
  const { problems, overAllowance } = await allProblems(deps, list, input.envelopeId);
  if (overAllowance !== undefined) throw new EsignError('ENVELOPE_ALLOWANCE_EXCEEDED', `${overAllowance} Nothing was queued.`);
  if (problems.length > 0) throw new EsignError('BULK_SEND_ENVELOPE_NOT_SENDABLE', problems.slice(0, MAX_PROBLEMS).join(' '));
  const queued = await deps.bulk.queuedCount(input.accountId);
  if (queued + list.copyCount > MAX_BULK_QUEUE) throw new EsignError('BULK_SEND_QUEUE_LIMIT_EXCEEDED', `${queued} envelopes are queued and the list adds ${list.copyCount}; the limit is ${MAX_BULK_QUEUE}.`);
  const batch: BulkBatch = {
    batchId: deps.envelopes.random.uuid(),
    accountId: input.accountId,
    name: input.batchName ?? list.name,
    listId: list.listId,
    listName: list.name,
    sourceEnvelopeId: input.envelopeId,
    senderUserId: input.userId,
    size: list.copyCount,
    submittedAt: deps.envelopes.clock(),
  };
  await deps.bulk.createBatch(batch);
  return batch;
}

/** getBulkSendBatchStatus. */
export async function getBulkBatch(deps: BulkSendDeps, accountId: string, batchId: string) {
  const batch = await deps.bulk.findBatch(accountId, batchId);
  if (!batch) throw new EsignError('BULK_SEND_BATCH_NOT_FOUND', `bulkSendBatchId "${batchId}".`);
  return batch;
}
