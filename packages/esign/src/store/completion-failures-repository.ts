import type { Kysely } from 'kysely';
import type { CompletionProblem } from '../domain/signing/completion-retry.ts';
import type { AuditEvent } from '../domain/signing/audit-event.ts';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import { appendAuditEvents } from './audit-events-repository.ts';
import type { Db } from './database.ts';
import type { EnvelopeTables } from './envelope-tables.ts';
import { enqueueMails } from './outbox-repository.ts';
import type { CompletionFailureRow, SigningTables } from './signing-tables.ts';

type Tables = SigningTables & EnvelopeTables;

/** What recording a failure wrote: the worker decides the rest from the attempt count. */
export type FailureDecision = { nextAttemptAt: Date | undefined; audit: AuditEvent; mails: readonly MailMessage[] };

function toProblem(r: CompletionFailureRow): CompletionProblem {
  return {
    envelopeId: r.envelope_id,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    lastFailedAt: new Date(r.last_failed_at),
    ...(r.next_attempt_at !== null ? { nextAttemptAt: new Date(r.next_attempt_at) } : {}),
    ...(r.failed_at !== null ? { failedAt: new Date(r.failed_at) } : {}),
  };
}

/**
 * Failed completions: each failure, its audit line and (on giving up) the sender's mail are one
 * transaction, so the trail never shows a failure the queue does not know of, or the reverse.
 */
export class CompletionFailuresRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  get #k(): Kysely<Tables> {
    return this.#db.kysely;
  }

  /** Counts one more failure; `decide` gets the count and says when to retry, what to audit and mail. */
  async recordFailure(envelopeId: string, error: string, now: Date, decide: (attempts: number) => FailureDecision): Promise<CompletionProblem> {
    return this.#db.transaction(async (db) => {
      const trx = db;
      const previous = await trx.selectFrom('completion_failures').selectAll().where('envelope_id', '=', envelopeId).executeTakeFirst();
      const attempts = Number(previous?.attempts ?? 0) + 1;
      const { nextAttemptAt, audit, mails } = decide(attempts);
      const row: CompletionFailureRow = {
        envelope_id: envelopeId,
        attempts,
        last_error: error.slice(0, 2000),
        first_failed_at: previous?.first_failed_at ?? now.toISOString(),
        last_failed_at: now.toISOString(),
        next_attempt_at: nextAttemptAt?.toISOString() ?? null,
        failed_at: nextAttemptAt ? null : now.toISOString(),
      };
      if (previous) await trx.updateTable('completion_failures').set(row).where('envelope_id', '=', envelopeId).execute();
      else await trx.insertInto('completion_failures').values(row).execute();
      await appendAuditEvents(db, [audit]);
      // The mails (to the sender, say) are the envelope's account's, in the outbox's turns.
      const envelope = mails.length > 0 ? await trx.selectFrom('envelopes').select('account_id').where('id', '=', envelopeId).executeTakeFirst() : undefined;
      await enqueueMails(db, mails, now, envelope?.account_id ?? null);
      return toProblem(row);
    });
  }

  async find(envelopeId: string): Promise<CompletionProblem | undefined> {
    const row = await this.#k.selectFrom('completion_failures').selectAll().where('envelope_id', '=', envelopeId).executeTakeFirst();
    return row ? toProblem(row) : undefined;
  }

  /** Every envelope still signed with a failed completion, given-up ones first, for the operator. */
  async list(): Promise<(CompletionProblem & { accountId: string })[]> {
    const rows = await this.#k.selectFrom('completion_failures as f').innerJoin('envelopes as e', 'e.id', 'f.envelope_id')
      .selectAll('f').select('e.account_id').where('e.status', '=', 'signed').orderBy('f.last_failed_at').execute();
    return rows.map((r) => ({ ...toProblem(r), accountId: r.account_id })).sort((a, b) => Number(!!b.failedAt) - Number(!!a.failedAt));
  }

  /**
   * An operator's retry: the envelope goes back into the queue now, with the audit line the
   * sender sees. The attempt count is kept, so a retry that fails again stops at once rather
   * than starting another round of automatic tries. False when there is nothing to retry.
   */
  async retry(envelopeId: string, now: Date, audit: AuditEvent): Promise<boolean> {
    return this.#db.transaction(async (db) => {
      const trx = db;
      const envelope = await trx.selectFrom('envelopes').select('status').where('id', '=', envelopeId).executeTakeFirst();
      if (envelope?.status !== 'signed') return false;
      const res = await trx.updateTable('completion_failures').set({ next_attempt_at: now.toISOString(), failed_at: null }).where('envelope_id', '=', envelopeId).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await appendAuditEvents(db, [audit]);
      return true;
    });
  }

  /** Completion succeeded: the failure record has done its job. */
  async clear(envelopeId: string): Promise<void> {
    await this.#k.deleteFrom('completion_failures').where('envelope_id', '=', envelopeId).execute();
  }
}
