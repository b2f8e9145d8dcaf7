import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import { envelopesRepository } from '../support/store-envelope-deps.ts';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { API_DEFAULT_SETTINGS } from '../../src/domain/notification/envelope-notification.ts';
import { MIGRATIONS, openDatabase, runMigrations } from '../../src/store/index.ts';
import type { EnvelopeNotificationRow } from '../../src/store/notification-tables.ts';
import { freshSqlite } from '../support/envelope-db.ts';

test('envelopes stored before reminders get DocuSign\'s API defaults: in process ones expire 120 days after sending (at least 30 days after the upgrade), drafts once sent', async (t) => {
  const db = openDatabase(freshSqlite(t));
  t.after(() => db.close());
  await runMigrations(db.kysely, db.engine, { migrations: MIGRATIONS.filter((m) => m.version < 30) });
  // Relative to the real clock: the migration's upgrade time is the real now.
  const DAY = 86_400_000;
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const iso = (ms: number) => new Date(ms).toISOString();
  const recent = now.getTime() - 10 * DAY;
  // Sent 200 days before the upgrade (less an hour, so the whole-day count is exactly 200).
  const longAgo = now.getTime() - 200 * DAY + 3_600_000;
  const k = db.kysely;
  // Written as the schema of the time had them (today's repository writes columns added later).
  const account = { accountId: randomUUID(), userId: randomUUID() };
  await k.insertInto('accounts').values({ id: account.accountId, name: 'Ada Co', created_at: now.toISOString() }).execute();
  await k.insertInto('users').values({ id: account.userId, email: `${randomUUID()}@example.com`, name: 'Ada', password_hash: 'x', created_at: now.toISOString() }).execute();
  const row = (id: string, status: string, sentAt: string | null) => ({
    id, account_id: account.accountId, sender_user_id: account.userId, status, email_subject: 'Old', email_blurb: null, created_at: now.toISOString(), status_changed_at: now.toISOString(),
    sent_at: sentAt, delivered_at: null, completed_at: null, declined_at: null, voided_at: null, voided_reason: null, version: 1,
  });
  await k.insertInto('envelopes').values([row('sent-before', 'sent', iso(recent)), row('long-ago', 'delivered', iso(longAgo)), row('draft-before', 'created', null), row('done-before', 'completed', iso(recent))]).execute();

  assert.deepEqual((await runMigrations(db.kysely, db.engine)).filter((v) => v >= 30 && v < 40), [30, 31]);
  const rows = new Map((await k.selectFrom('envelope_notifications').selectAll().execute()).map((r: EnvelopeNotificationRow) => [r.envelope_id, [r.expire_after_days, r.next_due_at]]));
  assert.deepEqual(Object.fromEntries(rows), {
    'sent-before': [120, iso(recent + 120 * DAY)],
    // Past its 120 days already: not voided at the first pass after the upgrade, 30 days later.
    'long-ago': [230, iso(longAgo + 230 * DAY)],
    'draft-before': [120, null],
    'done-before': [120, null],
  });
  const store0 = envelopesRepository(db);
  assert.equal((await store0.find(account.accountId, 'long-ago'))?.notification?.settings.expireAfterDays, 230, 'GET …/notification answers the effective expiry');
  const store = envelopesRepository(db);
  assert.deepEqual((await store.find(account.accountId, 'draft-before'))?.notification, { settings: API_DEFAULT_SETTINGS, reminded: {} });
  // The old draft is sent now: its row exists, so the save gives it an expiry.
  const draft = await store.find(account.accountId, 'draft-before');
  assert.ok(draft);
  const sentAt = new Date(now.getTime() + 1000);
  assert.equal(await store.update(envelopeWrite(draft, { envelope: { ...draft, status: 'sent', sentAt, statusChangedAt: sentAt, version: draft.version + 1 }, signingTokens: [], mails: [] })), true);
  const after = await k.selectFrom('envelope_notifications').select('next_due_at').where('envelope_id', '=', 'draft-before').executeTakeFirstOrThrow();
  assert.equal(after.next_due_at, iso(sentAt.getTime() + 120 * DAY));
});
