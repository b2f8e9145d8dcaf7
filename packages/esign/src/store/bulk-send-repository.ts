import { sql, type Kysely } from 'kysely';
import { MAX_BULK_QUEUE, type BulkCopy, type BulkList } from '../domain/bulk-send/bulk-copy.ts';
import { inTurns } from '../domain/in-turns.ts';
import type { BulkBatch, BulkBatchProgress, BulkRowOutcome, BulkSendStore, ClaimedBulkRow } from '../domain/bulk-send/bulk-ports.ts';
import type { BulkSendBatchCopyRow, BulkSendBatchRow, BulkSendListRow } from './bulk-send-tables.ts';
import { claimInTurn } from './claim-in-turn.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { sendAllowanceLeft } from './send-allowance.ts';

// Copies are inserted this many to a statement (well within SQLite's and PostgreSQL's parameter limits).
const INSERT_CHUNK = 200;
// A batch's status lists at most this many failed rows.
const MAX_ERRORS = 100;
// PostgreSQL advisory lock of the queue's claims: any constant, the same in every process.
const BULK_CLAIM_LOCK = 5_190_319;

/**
 * Bulk send lists and batches over SQLite or PostgreSQL. Every read names the account, so
 * another account's list or batch is not found. A batch's rows are copied from its list by one
 * INSERT … SELECT: they never pass through this process.
 */
export class BulkSendRepository implements BulkSendStore {
  readonly #db: Db;
  readonly #sendAllowance: number;
  /** `sendAllowance`: the account's recipients per 24 hours (SEND_ALLOWANCE), checked at submit. */
  constructor(db: Db, sendAllowance: number) {
    this.#db = db;
    this.#sendAllowance = sendAllowance;
  }

  sendAllowanceLeft(accountId: string, now: Date): Promise<number> {
    return sendAllowanceLeft(this.#k, { accountId, now, allowance: this.#sendAllowance });
  }

  async queuedCopies(accountId: string): Promise<{ sourceEnvelopeId: string; copy: BulkCopy }[]> {
    const rows = await this.#k.selectFrom('bulk_send_batch_rows as r').innerJoin('bulk_send_batches as b', 'b.id', 'r.batch_id')
      .select(['b.source_envelope_id', 'r.copy_json'])
      .where('r.account_id', '=', accountId).where('b.account_id', '=', accountId).where('r.status', '=', 'queued')
      .limit(MAX_BULK_QUEUE).execute();
    return rows.map((r) => ({ sourceEnvelopeId: r.source_envelope_id, copy: JSON.parse(r.copy_json) as BulkCopy }));
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  async createList(list: BulkList, copies: readonly BulkCopy[]): Promise<void> {
    await this.#db.transaction(async (trx) => {
      await trx.insertInto('bulk_send_lists').values({ id: list.listId, account_id: list.accountId, name: list.name, created_by: list.createdByUserId, created_at: list.createdAt.toISOString(), copy_count: copies.length }).execute();
      await insertCopies(trx, list.listId, copies);
    });
  }

  async findList(accountId: string, listId: string): Promise<BulkList | undefined> {
    const row = await this.#k.selectFrom('bulk_send_lists').selectAll().where('account_id', '=', accountId).where('id', '=', listId).executeTakeFirst();
    return row ? toList(row) : undefined;
  }

  async lists(accountId: string): Promise<BulkList[]> {
    return (await this.#k.selectFrom('bulk_send_lists').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute()).map(toList);
  }

  async copies(listId: string, afterRow: number, limit: number): Promise<{ row: number; copy: BulkCopy }[]> {
    const rows = await this.#k.selectFrom('bulk_send_list_copies').select(['row_no', 'copy_json']).where('list_id', '=', listId).where('row_no', '>', afterRow).orderBy('row_no').limit(limit).execute();
    return rows.map((r) => ({ row: Number(r.row_no), copy: JSON.parse(r.copy_json) as BulkCopy }));
  }

  async replaceList(accountId: string, listId: string, name: string, copies: readonly BulkCopy[]): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      const updated = await trx.updateTable('bulk_send_lists').set({ name, copy_count: copies.length }).where('account_id', '=', accountId).where('id', '=', listId).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('bulk_send_list_copies').where('list_id', '=', listId).execute();
      await insertCopies(trx, listId, copies);
      return true;
    });
  }

  async deleteList(accountId: string, listId: string): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      const list = await trx.selectFrom('bulk_send_lists').select('id').where('account_id', '=', accountId).where('id', '=', listId).executeTakeFirst();
      if (!list) return false;
      await trx.deleteFrom('bulk_send_list_copies').where('list_id', '=', listId).execute();
      await trx.deleteFrom('bulk_send_lists').where('id', '=', listId).execute();
      return true;
    });
  }

  async createBatch(batch: BulkBatch): Promise<void> {
    await this.#db.transaction(async (trx) => {
      await trx.insertInto('bulk_send_batches').values({
        id: batch.batchId, account_id: batch.accountId, name: batch.name, list_id: batch.listId, list_name: batch.listName,
        source_envelope_id: batch.sourceEnvelopeId, sender_user_id: batch.senderUserId, size: batch.size, submitted_at: batch.submittedAt.toISOString(),
      }).execute();
      await sql`insert into bulk_send_batch_rows (id, batch_id, account_id, row_no, copy_json, status)
        select ${batch.batchId} || ':' || cast(row_no as text), ${batch.batchId}, ${batch.accountId}, row_no, copy_json, 'queued'
        from bulk_send_list_copies where list_id = ${batch.listId}`.execute(trx);
    });
  }

  async queuedCount(accountId: string): Promise<number> {
    const row = await this.#k.selectFrom('bulk_send_batch_rows').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('status', '=', 'queued').executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async findBatch(accountId: string, batchId: string): Promise<BulkBatchProgress | undefined> {
    const row = await this.#k.selectFrom('bulk_send_batches').selectAll().where('account_id', '=', accountId).where('id', '=', batchId).executeTakeFirst();
    return row ? this.#progress(row, true) : undefined;
  }

  async batches(accountId: string, start: number, count: number): Promise<{ batches: BulkBatchProgress[]; total: number }> {
    const total = await this.#k.selectFrom('bulk_send_batches').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirst();
    const rows = await this.#k.selectFrom('bulk_send_batches').selectAll().where('account_id', '=', accountId).orderBy('submitted_at', 'desc').orderBy('id').offset(start).limit(count).execute();
    return { batches: await Promise.all(rows.map((r) => this.#progress(r, false))), total: Number(total?.n ?? 0) };
  }

  async batchEnvelopeIds(accountId: string, batchId: string): Promise<string[]> {
    const rows = await this.#k.selectFrom('bulk_send_batch_rows').select('envelope_id').where('account_id', '=', accountId).where('batch_id', '=', batchId).where('status', '=', 'sent').orderBy('row_no').execute();
    return rows.flatMap((r) => (r.envelope_id !== null ? [r.envelope_id] : []));
  }

  /**
   * As the mail outbox claims (store/outbox-repository.ts): one UPDATE … RETURNING, one
   * claimant at a time (store/claim-in-turn.ts), accounts in turns. Every account with rows
   * queued has its next row in the claim before any account has a second, so another
   * account's batches (whatever their random ids) delay a batch by at most about one claim;
   * within an account, batches in the order submitted, each in row order.
   */
  async claimRows({ workerId, now, leaseMs, limit }: { workerId: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedBulkRow[]> {
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const claimed = await claimInTurn(this.#db, BULK_CLAIM_LOCK, (k) => sql<Pick<BulkSendBatchCopyRow, 'id' | 'batch_id' | 'row_no' | 'copy_json' | 'account_id'>>`
      update bulk_send_batch_rows set claimed_by = ${workerId}, lease_until = ${leaseUntil}
      where id in (
        select id from (
          select r.id, r.batch_id, r.row_no, b.submitted_at,
            row_number() over (partition by r.account_id order by b.submitted_at, r.batch_id, r.row_no) as turn
          from bulk_send_batch_rows r join bulk_send_batches b on b.id = r.batch_id
          where r.status = 'queued' and (r.claimed_by is null or r.lease_until < ${at})
        ) due
        order by turn, submitted_at, batch_id, row_no limit ${limit}
      ) and status = 'queued' and (claimed_by is null or lease_until < ${at})
      returning id, batch_id, row_no, copy_json, account_id`.execute(k));
    if (claimed.rows.length === 0) return [];
    const batchIds = [...new Set(claimed.rows.map((r) => r.batch_id))];
    const batches = new Map((await this.#k.selectFrom('bulk_send_batches').selectAll().where('id', 'in', batchIds).execute()).map((b) => [b.id, b]));
    const rows = claimed.rows.flatMap((r) => {
      const b = batches.get(r.batch_id);
      return b ? [{ rowId: r.id, row: Number(r.row_no), copy: JSON.parse(r.copy_json) as BulkCopy, batchId: r.batch_id, accountId: r.account_id, sourceEnvelopeId: b.source_envelope_id, senderUserId: b.sender_user_id, submittedAt: b.submitted_at }] : [];
    });
    // RETURNING has no order: the rows are made in turns too.
    return inTurns(rows, (r) => r.accountId, submittedFirst).map(({ submittedAt: _s, ...row }) => row);
  }

  async finishRow(rowId: string, workerId: string, outcome: BulkRowOutcome, now: Date): Promise<void> {
    // Whoever holds the claim records it; a row already finished keeps its first outcome.
    await this.#k.updateTable('bulk_send_batch_rows')
      .set({ status: outcome.status, envelope_id: outcome.status === 'sent' ? outcome.envelopeId : null, error: outcome.status === 'failed' ? outcome.error : null, claimed_by: null, lease_until: null, finished_at: now.toISOString() })
      .where('id', '=', rowId).where('status', '=', 'queued').where('claimed_by', '=', workerId).execute();
  }

  async #progress(row: BulkSendBatchRow, withErrors: boolean): Promise<BulkBatchProgress> {
    const counts = await this.#k.selectFrom('bulk_send_batch_rows').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('batch_id', '=', row.id).groupBy('status').execute();
    const n = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
    const failedRows = withErrors && n('failed') > 0
      ? await this.#k.selectFrom('bulk_send_batch_rows').select(['row_no', 'error', 'copy_json', 'finished_at']).where('batch_id', '=', row.id).where('status', '=', 'failed').orderBy('row_no').limit(MAX_ERRORS).execute()
      : [];
    return {
      batchId: row.id, accountId: row.account_id, name: row.name, listId: row.list_id, listName: row.list_name, sourceEnvelopeId: row.source_envelope_id,
      senderUserId: row.sender_user_id, size: Number(row.size), submittedAt: new Date(row.submitted_at),
      queued: n('queued'), sent: n('sent'), failed: n('failed'),
      errors: failedRows.map((f) => ({
        row: Number(f.row_no), message: f.error ?? '', at: new Date(f.finished_at ?? row.submitted_at),
        recipientEmails: (JSON.parse(f.copy_json) as BulkCopy).recipients.flatMap((r) => (r.email !== undefined ? [r.email] : [])),
      })),
    };
  }
}

async function insertCopies(trx: Kysely<Database>, listId: string, copies: readonly BulkCopy[]): Promise<void> {
  for (let i = 0; i < copies.length; i += INSERT_CHUNK) {
    const chunk = copies.slice(i, i + INSERT_CHUNK).map((copy, j) => ({ list_id: listId, row_no: i + j + 1, copy_json: JSON.stringify(copy) }));
    await trx.insertInto('bulk_send_list_copies').values(chunk).execute();
  }
}

function toList(r: BulkSendListRow): BulkList {
  return { listId: r.id, accountId: r.account_id, name: r.name, createdByUserId: r.created_by, createdAt: new Date(r.created_at), copyCount: Number(r.copy_count) };
}

// A claim's order within an account: the batch submitted first (then by id, for equal times), row by row.
function submittedFirst(a: { submittedAt: string; batchId: string; row: number }, b: { submittedAt: string; batchId: string; row: number }): number {
  return a.submittedAt.localeCompare(b.submittedAt) || (a.batchId < b.batchId ? -1 : a.batchId > b.batchId ? 1 : a.row - b.row);
}
