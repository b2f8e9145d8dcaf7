import type { EnvelopeDeps } from '../envelope/ports.ts';
import type { BulkCopy, BulkList } from './bulk-copy.ts';

/** A batch: one bulk send of a list over a draft envelope (BulkSendBatchStatus). */
export type BulkBatch = {
  readonly batchId: string;
  readonly accountId: string;
  readonly name: string;
  readonly listId: string;
  readonly listName: string;
  readonly sourceEnvelopeId: string;
  readonly senderUserId: string;
  readonly size: number;
  readonly submittedAt: Date;
};

/** Where a batch stands: rows queued, sent (an envelope made) and failed (with why, per row). */
export type BulkBatchProgress = BulkBatch & {
  readonly queued: number;
  readonly sent: number;
  readonly failed: number;
  readonly errors: readonly { readonly row: number; readonly message: string; readonly recipientEmails: readonly string[]; readonly at: Date }[];
};

/** A batch row claimed by one worker: the copy, and whose batch it is. */
export type ClaimedBulkRow = {
  readonly rowId: string;
  readonly row: number;
  readonly copy: BulkCopy;
  readonly batchId: string;
  readonly accountId: string;
  readonly sourceEnvelopeId: string;
  readonly senderUserId: string;
};

export type BulkRowOutcome = { readonly status: 'sent'; readonly envelopeId: string } | { readonly status: 'failed'; readonly error: string };

/** Bulk send persistence (store/bulk-send-repository.ts). Every read names the account. */
export interface BulkSendStore {
  createList(list: BulkList, copies: readonly BulkCopy[]): Promise<void>;
  findList(accountId: string, listId: string): Promise<BulkList | undefined>;
  lists(accountId: string): Promise<BulkList[]>;
  /** A list's copies from row `afterRow` + 1 on, at most `limit`, in row order (1-based rows). */
  copies(listId: string, afterRow: number, limit: number): Promise<{ row: number; copy: BulkCopy }[]>;
  /** Replaces a list's name and copies; false when the account has no such list. */
  replaceList(accountId: string, listId: string, name: string, copies: readonly BulkCopy[]): Promise<boolean>;
  deleteList(accountId: string, listId: string): Promise<boolean>;
  /** Stores the batch and one queued row per copy of the list, copied inside the database (the rows never pass through here). */
  createBatch(batch: BulkBatch): Promise<void>;
  /** Rows of the account's batches not yet sent or failed (DocuSign's queue). */
  queuedCount(accountId: string): Promise<number>;
  /** Recipients the account may still reach by e-mail at `now` (its send allowance left; store/send-allowance.ts). */
  sendAllowanceLeft(accountId: string, now: Date): Promise<number>;
  /** The copies of the account's rows still queued, with their batch's draft (at most MAX_BULK_QUEUE). */
  queuedCopies(accountId: string): Promise<{ sourceEnvelopeId: string; copy: BulkCopy }[]>;
  findBatch(accountId: string, batchId: string): Promise<BulkBatchProgress | undefined>;
  batches(accountId: string, start: number, count: number): Promise<{ batches: BulkBatchProgress[]; total: number }>;
  /** The envelopes a batch made, in row order. */
  batchEnvelopeIds(accountId: string, batchId: string): Promise<string[]>;
  /** Claims up to `limit` queued rows of any batch (rows of another worker's running lease are skipped). */
  claimRows(claim: { workerId: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedBulkRow[]>;
  finishRow(rowId: string, workerId: string, outcome: BulkRowOutcome, now: Date): Promise<void>;
}

export type BulkSendDeps = {
  readonly bulk: BulkSendStore;
  readonly envelopes: EnvelopeDeps;
};
