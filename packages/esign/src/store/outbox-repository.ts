import type { Database } from './schema.ts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import type { OutboxItem, OutboxQueue } from '../domain/mail/outbox-queue.ts';
import type { Db } from './database.ts';
import type { MailOutboxRow } from './envelope-tables.ts';

/**
 * Writes mails into the outbox inside the caller's transaction: the envelope change and its
 * mails commit or roll back together (the transactional outbox).
 */
export async function enqueueMails(trx: Kysely<Database>, mails: readonly MailMessage[], now: Date): Promise<void> {
  const at = now.toISOString();
  for (const message of mails) {
    await trx.insertInto('mail_outbox').values({
      id: randomUUID(),
      envelope_id: message.envelopeId ?? null,
      kind: message.kind,
      recipient_email: message.to.email,
      message_json: JSON.stringify(message),
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      claimed_by: null,
      lease_until: null,
      last_error: null,
      created_at: at,
      delivered_at: null,
    }).execute();
  }
}

/** The outbox over SQLite or PostgreSQL, for the delivery worker. */
export class OutboxRepository implements OutboxQueue {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Database> {
    return this.#db.kysely;
  }

  /**
   * One UPDATE … RETURNING claims the rows. On PostgreSQL the candidate rows are picked
   * `FOR UPDATE SKIP LOCKED`, so concurrent workers take disjoint batches without waiting.
   * SQLite runs a write statement under the database's single write lock, so the same
   * statement is atomic across processes: a row is claimed only while unclaimed or while its
   * lease has run out, and the second claimant sees the first one's claim.
   */
  async claim({ workerId, now, leaseMs, limit }: { workerId: string; now: Date; leaseMs: number; limit: number }): Promise<OutboxItem[]> {
    const at = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const lock = this.#db.engine === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<Pick<MailOutboxRow, 'id' | 'attempts' | 'message_json'>>`
      update mail_outbox set claimed_by = ${workerId}, lease_until = ${leaseUntil}, attempts = attempts + 1
      where id in (
        select id from mail_outbox
        where status = 'pending' and next_attempt_at <= ${at} and (claimed_by is null or lease_until < ${at})
        order by next_attempt_at, created_at limit ${limit} ${lock}
      )
      returning id, attempts, message_json`.execute(this.#db.kysely);
    return result.rows.flatMap((row) => (row.message_json === null ? [] : [{ id: row.id, attempts: Number(row.attempts), message: JSON.parse(row.message_json) as MailMessage }]));
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
