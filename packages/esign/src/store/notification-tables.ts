import type { Database } from './schema.ts';
import type { Kysely } from 'kysely';
import { API_DEFAULT_SETTINGS } from '../domain/notification/envelope-notification.ts';
import type { Migration } from './migrations.ts';

/**
 * Reminders and expiration: one row per envelope with its notification settings
 * and the schedule's progress. Same conventions as schema.ts: ISO-8601 UTC text, 0/1 flags.
 */
export type EnvelopeNotificationRow = {
  envelope_id: string;
  use_account_defaults: number;
  reminder_enabled: number;
  reminder_delay_days: number;
  reminder_frequency_days: number;
  expire_after_days: number;
  expire_warn_days: number;
  warned_at: string | null;
  /** Reminders sent so far: JSON {recipientId: {count, lastAt}}. */
  reminded_json: string;
  /**
   * When the scheduler next has something to do for this envelope (reminders/
   * notification-schedule.ts nextDueAt), recomputed on every save; null when never.
   */
  next_due_at: string | null;
};

export type NotificationTables = { envelope_notifications: EnvelopeNotificationRow };

const DAY_MS = 86_400_000;

/** Reminders' and expiry's schema steps (listed in order in migrations.ts). */
export const NOTIFICATION_TABLES_MIGRATION: Migration = {
  version: 30,
  name: 'envelope notification settings and reminder/expiry schedule',
  async up(db) {
    await db.schema.createTable('envelope_notifications')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('use_account_defaults', 'integer', (c) => c.notNull())
      .addColumn('reminder_enabled', 'integer', (c) => c.notNull())
      .addColumn('reminder_delay_days', 'integer', (c) => c.notNull())
      .addColumn('reminder_frequency_days', 'integer', (c) => c.notNull())
      .addColumn('expire_after_days', 'integer', (c) => c.notNull())
      .addColumn('expire_warn_days', 'integer', (c) => c.notNull())
      .addColumn('warned_at', 'text')
      .addColumn('reminded_json', 'text', (c) => c.notNull())
      .addColumn('next_due_at', 'text')
      .execute();
    // The scheduler's one query: rows due by now, earliest first.
    await db.schema.createIndex('envelope_notifications_due_idx').on('envelope_notifications').column('next_due_at').execute();
    // Envelopes already in process get DocuSign's API default, expiry 120 days after sending,
    // but never sooner than UPGRADE_GRACE_DAYS after the upgrade.
    await backfillDefaults(db, ['sent', 'delivered']);
  },
};

export const NOTIFICATION_BACKFILL_MIGRATION: Migration = {
  version: 31,
  name: 'notification rows for envelopes stored before reminders (drafts included)',
  async up(db) {
    // Version 30 filled in only envelopes in process; a draft stored before it and sent
    // later would have had no row, so no expiry. Every envelope gets the API defaults.
    await backfillDefaults(db);
  },
};

/**
 * An envelope already in process when expiry arrived was never promised one: one sent more
 * than 120 days before the upgrade would otherwise be voided (and everyone mailed) at the first
 * pass after it. Such envelopes get at least this many days from the upgrade instead; the
 * longer expireAfter is stored, so GET …/notification answers the effective one.
 */
export const UPGRADE_GRACE_DAYS = 30;

/**
 * Rows with DocuSign's API defaults for the envelopes (of these statuses) that have none.
 * `upgradeAt` is when the migration runs (the real clock: migrations have no other).
 */
async function backfillDefaults(db: Kysely<Database>, statuses?: readonly string[], upgradeAt = Date.now()): Promise<void> {
  let q = db.selectFrom('envelopes').select(['id', 'status', 'sent_at'])
    .where('id', 'not in', db.selectFrom('envelope_notifications').select('envelope_id'));
  if (statuses) q = q.where('status', 'in', [...statuses]);
  const d = API_DEFAULT_SETTINGS;
  for (const e of await q.execute()) {
    const inProcess = e.status === 'sent' || e.status === 'delivered';
    const sentAt = inProcess && e.sent_at !== null ? Date.parse(e.sent_at) : undefined;
    const expireAfterDays = sentAt === undefined ? d.expireAfterDays : Math.max(d.expireAfterDays, Math.ceil((upgradeAt - sentAt) / DAY_MS) + UPGRADE_GRACE_DAYS);
    const due = sentAt === undefined ? null : new Date(sentAt + expireAfterDays * DAY_MS).toISOString();
    await db.insertInto('envelope_notifications').values({
      envelope_id: e.id, use_account_defaults: 0, reminder_enabled: 0, reminder_delay_days: d.reminderDelayDays, reminder_frequency_days: d.reminderFrequencyDays,
      expire_after_days: expireAfterDays, expire_warn_days: d.expireWarnDays, warned_at: null, reminded_json: '{}', next_due_at: due,
    }).execute();
  }
}
