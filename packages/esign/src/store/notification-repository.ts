import type { Database } from './schema.ts';
import type { Kysely } from 'kysely';
import type { Envelope } from '../domain/envelope/envelope.ts';
import type { EnvelopeNotification, ReminderProgress } from '../domain/notification/envelope-notification.ts';
import { nextDueAt } from '../domain/notification/notification-schedule.ts';
import type { Db } from './database.ts';
import type { EnvelopeNotificationRow } from './notification-tables.ts';

type StoredProgress = Record<string, { count: number; lastAt: string }>;

function toRow(envelope: Envelope, notification: EnvelopeNotification): EnvelopeNotificationRow {
  const s = notification.settings;
  const reminded: StoredProgress = {};
  for (const [id, p] of Object.entries(notification.reminded)) reminded[id] = { count: p.count, lastAt: p.lastAt.toISOString() };
  return {
    envelope_id: envelope.envelopeId,
    use_account_defaults: s.useAccountDefaults ? 1 : 0,
    reminder_enabled: s.reminderEnabled ? 1 : 0,
    reminder_delay_days: s.reminderDelayDays,
    reminder_frequency_days: s.reminderFrequencyDays,
    expire_after_days: s.expireAfterDays,
    expire_warn_days: s.expireWarnDays,
    warned_at: notification.warnedAt?.toISOString() ?? null,
    reminded_json: JSON.stringify(reminded),
    next_due_at: nextDueAt(envelope)?.toISOString() ?? null,
  };
}

function fromRow(row: EnvelopeNotificationRow): EnvelopeNotification {
  const reminded: Record<string, ReminderProgress> = {};
  for (const [id, p] of Object.entries(JSON.parse(row.reminded_json) as StoredProgress)) reminded[id] = { count: p.count, lastAt: new Date(p.lastAt) };
  return {
    settings: {
      useAccountDefaults: Number(row.use_account_defaults) === 1,
      reminderEnabled: Number(row.reminder_enabled) === 1,
      reminderDelayDays: Number(row.reminder_delay_days),
      reminderFrequencyDays: Number(row.reminder_frequency_days),
      expireAfterDays: Number(row.expire_after_days),
      expireWarnDays: Number(row.expire_warn_days),
    },
    ...(row.warned_at !== null ? { warnedAt: new Date(row.warned_at) } : {}),
    reminded,
  };
}

/**
 * Writes the envelope's notification row inside the caller's transaction (the envelopes
 * repository calls it on every create and every versioned update), with next_due_at derived
 * from the saved envelope: whatever changed (sent, a signer reached or finished, settings,
 * voided), the scheduler's index follows in the same commit. An envelope without a
 * notification (stored before this feature, or built by hand) is saved with none.
 */
export async function saveEnvelopeNotification(trx: Kysely<Database>, envelope: Envelope): Promise<void> {
  const k = trx;
  if (envelope.notification === undefined) {
    // Still keep the index right: the defaults apply (reminders/envelope-notification.ts).
    await k.updateTable('envelope_notifications').set({ next_due_at: nextDueAt(envelope)?.toISOString() ?? null }).where('envelope_id', '=', envelope.envelopeId).execute();
    return;
  }
  const { envelope_id: _id, ...fields } = toRow(envelope, envelope.notification);
  await k.insertInto('envelope_notifications').values({ envelope_id: envelope.envelopeId, ...fields }).onConflict((oc) => oc.column('envelope_id').doUpdateSet(fields)).execute();
}

/** The notifications of several envelopes, by envelope id (absent when none was stored). */
export async function loadEnvelopeNotifications(k: Kysely<Database>, envelopeIds: readonly string[]): Promise<Map<string, EnvelopeNotification>> {
  if (envelopeIds.length === 0) return new Map();
  const rows = await k.selectFrom('envelope_notifications').selectAll().where('envelope_id', 'in', [...envelopeIds]).execute();
  return new Map(rows.map((r) => [r.envelope_id, fromRow(r)]));
}

/** A row the scheduler found due; `nextDueAt` is the stored text, as read. */
export type DueEnvelope = { envelopeId: string; accountId: string; nextDueAt: string };

/** The scheduler's reads over the notification rows. */
export class NotificationRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** Envelopes with something due by `now`, earliest first (an index range scan on next_due_at). */
  async dueEnvelopes(now: Date, limit: number): Promise<DueEnvelope[]> {
    const rows = await this.#db.kysely.selectFrom('envelope_notifications')
      .innerJoin('envelopes', 'envelopes.id', 'envelope_notifications.envelope_id')
      .select(['envelope_notifications.envelope_id', 'envelopes.account_id', 'envelope_notifications.next_due_at'])
      .where('envelope_notifications.next_due_at', '<=', now.toISOString())
      .orderBy('envelope_notifications.next_due_at').orderBy('envelope_notifications.envelope_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ envelopeId: r.envelope_id, accountId: r.account_id, nextDueAt: r.next_due_at ?? '' }));
  }

  /**
   * Rewrites a row's next_due_at from the envelope as loaded. Only for a row that claimed work
   * its envelope does not have (a row written by an older version): without this it would be
   * picked again on every pass. Guarded by the envelope's version, so a save that landed since
   * the envelope was loaded (a signer finishing, another scheduler) is not overwritten with a
   * schedule computed from the older state.
   */
  async refreshNextDue(envelope: Envelope): Promise<void> {
    const k = this.#db.kysely;
    await k.updateTable('envelope_notifications')
      .set({ next_due_at: nextDueAt(envelope)?.toISOString() ?? null })
      .where('envelope_id', '=', envelope.envelopeId)
      .where((eb) => eb.exists(eb.selectFrom('envelopes').select('envelopes.id').where('envelopes.id', '=', envelope.envelopeId).where('envelopes.version', '=', envelope.version)))
      .execute();
  }

  /**
   * Moves a row whose step failed to `until`, so that it leaves the head of the due queue: the
   * scheduler takes due rows earliest first, and a batch of envelopes that fail every time
   * (a bug, bad stored data) would otherwise be picked again at every pass and starve every
   * envelope due after them. Only while the row still holds the due time the scheduler read
   * (`seenDueAt`): a save that rescheduled the envelope meanwhile wins.
   */
  async postpone(envelopeId: string, seenDueAt: string, until: Date): Promise<void> {
    await this.#db.kysely.updateTable('envelope_notifications')
      .set({ next_due_at: until.toISOString() })
      .where('envelope_id', '=', envelopeId)
      .where('next_due_at', '=', seenDueAt)
      .execute();
  }
}
