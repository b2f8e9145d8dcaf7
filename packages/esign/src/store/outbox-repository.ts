import type { Database } from './schema.ts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { inTurns } from '../domain/in-turns.ts';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import type { OutboxItem, OutboxQueue } from '../domain/mail/outbox-queue.ts';
import { claimInTurn } from './claim-in-turn.ts';
import type { Db } from './database.ts';
import type { MailOutboxRow } from './envelope-tables.ts';

// PostgreSQL advisory lock of the outbox's claims: any constant, the same in every process.
const OUTBOX_CLAIM_LOCK = 5_190_318;

// The last write stamp handed out by this process (writtenAt).
let lastWritten = 0;

/**
 * When a row is written, strictly increasing within the process: the claim sends mails due at
 * the same time in the order they were written. The due time cannot tell them apart: a change
 * that leaves the envelope's status alone (a resend, a correction) is due at the envelope's
 * statusChangedAt, the same as the send's mail that may still wait in the outbox.
 */
function writtenAt(): string {
  lastWritten = Math.max(Date.now(), lastWritten + 1);
  return new Date(lastWritten).toISOString();
}

/**
 * Writes mails into the outbox inside the caller's transaction: the envelope change and its
 * mails commit or roll back together (the transactional outbox). `accountId` is whose mail it
 * is (null for mail of no account, such as sign-up): the worker serves accounts in turn. `now`
 * is when they are due (the change's time, on the caller's clock).
 */
export async function enqueueMails(trx: Kysely<Database>, mails: readonly MailMessage[], now: Date, accountId: string | null): Promise<void> {
  const at = now.toISOString();
  for (const message of mails) {
    const created = writtenAt();
    await trx.insertInto('mail_outbox').values({
      id: randomUUID(),
      envelope_id: message.envelopeId ?? null,
      account_id: accountId,
      kind: message.kind,
      recipient_email: message.to.email,
      message_json: JSON.stringify(message),
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      claimed_by: null,
      lease_until: null,
      last_error: null,
      created_at: created,
      delivered_at: null,
    }).execute();
  }
}

/** The outbox over SQLite or PostgreSQL, for the delivery worker. */
export class OutboxRepository implements OutboxQueue {
  readonly #db: Db;
  /** The last account lane a claim reached: the next claim starts after it (#lanes). */
  #lastLane: string | undefined;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  /**
   * One UPDATE … RETURNING claims the rows, one claimant at a time (store/claim-in-turn.ts);
   * its candidates are read lane by lane. Accounts share the outbox in turns: every account
   * with mail due (up to `limit` accounts a claim, the next ones on the next claim), and mail of
   * no account as one more lane, has its oldest due row in the batch before any account has its
   * second, so one account's backlog delays another's next mail by
   * at most about one batch; within an account, oldest first. The claimable test is repeated
   * on the rows updated: a row whose state changed meanwhile (its late worker recorded it) is
   * left alone.
   */
  async claim({ workerId, now, leaseMs, limit }: { workerId: string; now: Date; leaseMs: number; limit: number }): Promise<OutboxItem[]> {
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const claimable = sql`status = 'pending' and next_attempt_at <= ${at} and (claimed_by is null or lease_until < ${at})`;
    const claimed = await claimInTurn(this.#db, OUTBOX_CLAIM_LOCK, async (k) => {
      // Lane by lane, along the (status, account_id, next_attempt_at) index: each lane's first
      // `limit` due rows, never the whole backlog (ranking every due row with a window function
      // cost ~150 ms of the event loop per claim at 100,000 due mails). One statement, so the
      // claim stays atomic under SQLite's write lock as before.
      const lanes = await this.#lanes(k, limit);
      const perLane = lanes.map((lane) => sql`select * from (select id, account_id, next_attempt_at, created_at from mail_outbox
        where ${lane === null ? sql`account_id is null` : sql`account_id = ${lane}`} and ${claimable}
        order by next_attempt_at, created_at, id limit ${limit}) lane`);
      const result = await sql<Pick<MailOutboxRow, 'id' | 'attempts' | 'message_json' | 'account_id' | 'next_attempt_at' | 'created_at'>>`
        update mail_outbox set claimed_by = ${workerId}, lease_until = ${leaseUntil}, attempts = attempts + 1
        where id in (
          select id from (
            select id, next_attempt_at, created_at,
              row_number() over (partition by account_id order by next_attempt_at, created_at, id) as turn
            from (${sql.join(perLane, sql` union all `)}) candidates
          ) due
          order by turn, next_attempt_at, created_at, id limit ${limit}
        ) and ${claimable}
        returning id, attempts, message_json, account_id, next_attempt_at, created_at`.execute(k);
      return result.rows;
    });
    // RETURNING has no order: the batch is sent in turns too, and one recipient's mails in the order written.
    return inTurns(claimed, (row) => row.account_id, olderFirst)
      .flatMap((row) => (row.message_json === null ? [] : [{ id: row.id, attempts: Number(row.attempts), message: JSON.parse(row.message_json) as MailMessage }]));
  }

  /**
   * Up to `count` lanes with pending mail, round-robin over claims: the accounts after the last
   * one served, in id order (a loose scan of the index: one step per account, however many mails
   * each holds), wrapping to the first; and the lane of mail of no account, always.
   */
  async #lanes(k: Kysely<Database>, count: number): Promise<(string | null)[]> {
    const after = async (from: string | undefined, n: number): Promise<string[]> => {
      if (n <= 0) return [];
      const start = from === undefined ? sql`` : sql`and account_id > ${from}`;
      const rows = await sql<{ a: string | null }>`with recursive lanes(a, n) as (
          select (select min(account_id) from mail_outbox where status = 'pending' ${start}), 1
          union all
          select (select min(account_id) from mail_outbox where status = 'pending' and account_id > lanes.a), n + 1
          from lanes where lanes.a is not null and n < ${n}
        ) select a from lanes where a is not null`.execute(k);
      return rows.rows.map((r) => r.a).filter((a): a is string => a !== null);
    };
    const next = await after(this.#lastLane, count);
    const wrapped = next.length < count && this.#lastLane !== undefined ? (await after(undefined, count - next.length)).filter((a) => !next.includes(a)) : [];
    const lanes = [...next, ...wrapped];
    this.#lastLane = lanes.at(-1);
    return [null, ...lanes];
  }

  /** Delivered: the rendered mail (which may hold a signing link) is dropped from the row. */
  async markDelivered(id: string, workerId: string, now: Date): Promise<void> {
    await this.#k.updateTable('mail_outbox')
      .set({ status: 'delivered', delivered_at: now.toISOString(), message_json: null, claimed_by: null, lease_until: null, last_error: null })
      .where('id', '=', id).where('claimed_by', '=', workerId).execute();
  }

  async markFailed(id: string, workerId: string, error: string, retryAt: Date | undefined): Promise<void> {
    await this.#k.updateTable('mail_outbox')
      .set({
        claimed_by: null,
        lease_until: null,
        last_error: error,
        ...(retryAt ? { next_attempt_at: retryAt.toISOString() } : { status: 'dead' }),
      })
      .where('id', '=', id).where('claimed_by', '=', workerId).execute();
  }

  async release(ids: readonly string[], workerId: string): Promise<void> {
    if (ids.length === 0) return;
    await this.#k.updateTable('mail_outbox')
      .set((eb) => ({ claimed_by: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', 'in', ids).where('claimed_by', '=', workerId).where('status', '=', 'pending').execute();
  }

  /** Rows for operators and tests, oldest first. */
  list(): Promise<MailOutboxRow[]> {
    return this.#k.selectFrom('mail_outbox').selectAll().orderBy('created_at').orderBy('id').execute();
  }
}

type Due = Pick<MailOutboxRow, 'id' | 'next_attempt_at' | 'created_at'>;

// The claim's order within an account: due first, then written first (ISO times sort as text).
function olderFirst(a: Due, b: Due): number {
  return a.next_attempt_at.localeCompare(b.next_attempt_at) || a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
