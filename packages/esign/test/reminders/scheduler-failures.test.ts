import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, test, type TestContext } from 'node:test';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { buildNotificationMails } from '../../src/reminders/notification-mails.ts';
import { buildNotifier } from '../../src/mail/compose-notification.ts';
import type { NotificationMails } from '../../src/domain/notification/notification-step.ts';
import { ReminderScheduler } from '../../src/reminders/reminder-scheduler.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { NotificationRepository } from '../../src/store/notification-repository.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import type { DatabaseLocation } from '../../src/store/index.ts';
import { freshPostgres, freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const DAY_S = 86_400;

/** One database, envelopes to one signer each, reminders daily from one day after sending. */
async function setup(t: TestContext, location: DatabaseLocation = freshSqlite(t)) {
  const db = await openMigrated(t, location);
  const clock = new FakeClock(Date.parse('2026-02-27T12:00:00.000Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  const store = envelopesRepository(db);
  const deps = storeEnvelopeDeps(store, clock);
  const send = (email: string) => createEnvelope(deps, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: `For ${email}`,
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [{ type: 'signer', recipientId: '1', email, name: email, routingOrder: 1, tabs: signHereTabs([]) }],
    notification: { useAccountDefaults: false, reminderEnabled: true, reminderDelayDays: 1, reminderFrequencyDays: 1, expireAfterDays: 30, expireWarnDays: 0 },
  } });
  const reminded = async () => (await new OutboxRepository(db).list()).filter((m) => m.kind === 'envelope-reminder').map((m) => m.recipient_email);
  return { db, clock, store, send, reminded };
}

test('an envelope whose step keeps failing is postponed: it no longer holds the head of the due queue', async (t) => {
  const { db, clock, store, send, reminded } = await setup(t);
  // Sent first, so its reminder is due first: every batch of one starts with it.
  const poison = await send('poison@example.com');
  clock.advance(60);
  await send('healthy@example.com');
  clock.advance(DAY_S + 120);

  const real = buildNotificationMails('https://esign.test');
  // A bug that hits one envelope only (here: its reminder cannot be rendered).
  const mails: NotificationMails = {
    ...real,
    reminder: (envelope, recipient, token, expiresAt) => {
      if (recipient.email === 'poison@example.com') throw new Error('cannot render this one');
      return real.reminder(envelope, recipient, token, expiresAt);
    },
  };
  const errors: (string | undefined)[] = [];
  const scheduler = new ReminderScheduler({
    store, due: new NotificationRepository(db), clock: clock.now, random: { secretToken: () => randomUUID() }, hashSecret: sha, mails, notifier: buildNotifier('https://esign.test'),
    batchSize: 1, failureRetryMs: 15 * 60_000, onError: (_err, envelopeId) => errors.push(envelopeId),
  });

  assert.deepEqual(await scheduler.runOnce(), { due: 1, changed: 0, lost: 0, refreshed: 0, failed: 1 });
  assert.deepEqual(errors, [poison.envelopeId]);
  // The next pass gets past it to the envelope due after it.
  assert.deepEqual(await scheduler.runOnce(), { due: 1, changed: 1, lost: 0, refreshed: 0, failed: 0 });
  assert.deepEqual(await reminded(), ['healthy@example.com']);
  assert.equal((await scheduler.runOnce()).due, 0, 'the failed one waits for its retry time');

  // Its retry time comes (still failing): tried again, postponed again, nothing else lost.
  clock.advance(15 * 60);
  assert.deepEqual(await scheduler.runOnce(), { due: 1, changed: 0, lost: 0, refreshed: 0, failed: 1 });
  assert.deepEqual(errors, [poison.envelopeId, poison.envelopeId]);
  const row = await db.kysely.selectFrom('envelope_notifications' as never).select(['next_due_at' as never]).where('envelope_id' as never, '=', poison.envelopeId as never).executeTakeFirstOrThrow() as { next_due_at: string };
  assert.equal(row.next_due_at, new Date(clock.now().getTime() + 15 * 60_000).toISOString());
});

test('a postponement never overwrites a schedule that a save changed meanwhile', async (t) => {
  const { db, clock, send } = await setup(t);
  const envelope = await send('someone@example.com');
  clock.advance(DAY_S + 1);
  const due = new NotificationRepository(db);
  const [found] = await due.dueEnvelopes(clock.now(), 10);
  assert.ok(found);
  // Another writer reschedules the row after the scheduler read it.
  await db.kysely.updateTable('envelope_notifications' as never).set({ next_due_at: '2026-03-10T00:00:00.000Z' } as never).where('envelope_id' as never, '=', envelope.envelopeId as never).execute();
  await due.postpone(found.envelopeId, found.nextDueAt, new Date(clock.now().getTime() + 60_000));
  const row = await db.kysely.selectFrom('envelope_notifications' as never).select(['next_due_at' as never]).executeTakeFirstOrThrow() as { next_due_at: string };
  assert.equal(row.next_due_at, '2026-03-10T00:00:00.000Z');
});

async function staleRowCorrectedOnce(t: TestContext, location?: DatabaseLocation): Promise<void> {
  const { db, clock, store, send } = await setup(t, location);
  const envelope = await send('stale@example.com');
  const rowDue = async () => (await db.kysely.selectFrom('envelope_notifications' as never).select(['next_due_at' as never]).executeTakeFirstOrThrow() as { next_due_at: string }).next_due_at;
  const expected = await rowDue();
  // As a row written by an older version might say: due now, though nothing is.
  const stale = '2026-02-27T12:00:00.000Z';
  await db.kysely.updateTable('envelope_notifications' as never).set({ next_due_at: stale } as never).execute();
  const scheduler = new ReminderScheduler({ store, due: new NotificationRepository(db), clock: clock.now, random: { secretToken: () => randomUUID() }, hashSecret: sha, mails: buildNotificationMails('https://esign.test'), notifier: buildNotifier('https://esign.test') });
  assert.deepEqual(await scheduler.runOnce(), { due: 1, changed: 0, lost: 0, refreshed: 1, failed: 0 });
  assert.equal(await rowDue(), expected);
  assert.equal((await scheduler.runOnce()).due, 0);

  // The version guard: a refresh computed from version N does not overwrite what version N+1 saved.
  const loaded = await store.find(envelope.accountId, envelope.envelopeId);
  assert.ok(loaded);
  const laterSettings = { ...loaded.notification!.settings, reminderDelayDays: 5 };
  assert.equal(await store.update(envelopeWrite(loaded, { envelope: { ...loaded, notification: { ...loaded.notification!, settings: laterSettings }, version: loaded.version + 1 }, signingTokens: [], mails: [] })), true);
  const saved = await rowDue();
  assert.notEqual(saved, expected);
  await new NotificationRepository(db).refreshNextDue(loaded);
  assert.equal(await rowDue(), saved);
}

test('a row claiming work its envelope does not have is corrected once, but never from an envelope older than the stored one', (t) => staleRowCorrectedOnce(t));

let cluster: PostgresCluster | undefined;
before(async () => {
  cluster = await startPostgresCluster();
});
after(() => cluster?.stop());

test('postgres: the same correction and version guard', async (t) => {
  if (!cluster) throw new Error('no cluster');
  await staleRowCorrectedOnce(t, await freshPostgres(cluster));
});
