import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, test, type TestContext } from 'node:test';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import type { EnvelopeStore } from '../../src/domain/envelope/ports.ts';
import { buildNotificationMails } from '../../src/reminders/notification-mails.ts';
import { buildNotifier } from '../../src/mail/compose-notification.ts';
import { notificationStep } from '../../src/domain/notification/notification-step.ts';
import { ReminderScheduler } from '../../src/reminders/reminder-scheduler.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { openDatabase, type Db, type DatabaseLocation } from '../../src/store/index.ts';
import { NotificationRepository } from '../../src/store/notification-repository.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { freshPostgres, freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const DAY_S = 86_400;

/** Two "instances": separate handles on one database, as two esign processes have. */
async function twoInstances(t: TestContext, location: DatabaseLocation = freshSqlite(t)) {
  const first: Db = await openMigrated(t, location);
  const second: Db = openDatabase(location);
  t.after(() => second.close());
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const account = await new AccountsRepository(first).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  const deps = (db: Db) => storeEnvelopeDeps(envelopesRepository(db), clock);
  const scheduler = (db: Db, store: Pick<EnvelopeStore, 'find' | 'update'> = envelopesRepository(db)) =>
    new ReminderScheduler({ store, due: new NotificationRepository(db), clock: clock.now, random: { secretToken: () => randomUUID() }, hashSecret: sha, mails: buildNotificationMails('https://esign.test'), notifier: buildNotifier('https://esign.test') });
  const envelope = await createEnvelope(deps(first), { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: 'Twice?',
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [{ type: 'signer', recipientId: '1', email: 'once@example.com', name: 'Once', routingOrder: 1, tabs: signHereTabs([]) }],
    notification: { useAccountDefaults: false, reminderEnabled: true, reminderDelayDays: 1, reminderFrequencyDays: 1, expireAfterDays: 10, expireWarnDays: 0 },
  } });
  const reminders = async () => (await new OutboxRepository(first).list()).filter((m) => m.kind === 'envelope-reminder');
  return { first, second, clock, deps, scheduler, envelope, reminders };
}

/**
 * A store that holds `find` answers and `update` calls until the test lets them through, so
 * the two schedulers interleave exactly as two processes racing would. (Two better-sqlite3
 * handles in one thread cannot hold overlapping transactions: the second would block the
 * thread that has to commit the first; so the saves run one after the other, the race's
 * interesting part — both computed from the same version — is kept.)
 */
function gated(inner: EnvelopeStore, gates: { beforeUpdate: Promise<unknown> }, onFound: () => void, onUpdated: () => void): Pick<EnvelopeStore, 'find' | 'update'> {
  return {
    find: async (accountId, envelopeId) => {
      const found = await inner.find(accountId, envelopeId);
      onFound();
      return found;
    },
    update: async (change) => {
      await gates.beforeUpdate;
      const saved = await inner.update(change);
      onUpdated();
      return saved;
    },
  };
}

test('two schedulers on one database, same clock, both finding the envelope due: the reminder is sent once', async (t) => {
  const { first, second, clock, scheduler, reminders } = await twoInstances(t);
  clock.advance(DAY_S + 1);
  let bothFound!: () => void;
  let firstSaved!: () => void;
  const found = { n: 0 };
  const allFound = new Promise<void>((resolve) => (bothFound = resolve));
  const firstDone = new Promise<void>((resolve) => (firstSaved = resolve));
  const onFound = () => {
    if (++found.n === 2) bothFound();
  };
  // A saves once both have read version N; B saves after A.
  const a = scheduler(first, gated(envelopesRepository(first), { beforeUpdate: allFound }, onFound, () => firstSaved()));
  const b = scheduler(second, gated(envelopesRepository(second), { beforeUpdate: firstDone }, onFound, () => {}));
  const passes = await Promise.all([a.runOnce(), b.runOnce()]);
  assert.deepEqual(passes, [{ due: 1, changed: 1, lost: 0, refreshed: 0, failed: 0 }, { due: 1, changed: 0, lost: 1, refreshed: 0, failed: 0 }]);
  assert.deepEqual((await reminders()).map((m) => m.recipient_email), ['once@example.com']);
  // Both again at the same time: nothing is due any more (the winner moved next_due_at on).
  assert.deepEqual([(await scheduler(first).runOnce()).due, (await scheduler(second).runOnce()).due], [0, 0]);
  assert.equal((await reminders()).length, 1);
});

test('the race itself: both instances load the same version and compute the same step; the version check lets one save', async (t) => {
  const { first, second, clock, deps, envelope, reminders } = await twoInstances(t);
  clock.advance(DAY_S + 1);
  const mails = buildNotificationMails('https://esign.test');
  const [a, b] = await Promise.all([deps(first).store.find(envelope.accountId, envelope.envelopeId), deps(second).store.find(envelope.accountId, envelope.envelopeId)]);
  assert.ok(a && b);
  const stepA = notificationStep({ random: { secretToken: randomUUID }, hashSecret: sha, mails }, a, clock.now());
  const stepB = notificationStep({ random: { secretToken: randomUUID }, hashSecret: sha, mails }, b, clock.now());
  assert.ok(stepA && stepB);
  assert.deepEqual([stepA.mails.length, stepB.mails.length], [1, 1]);
  assert.equal(await deps(first).store.update(envelopeWrite(a, stepA)), true);
  assert.equal(await deps(second).store.update(envelopeWrite(b, stepB)), false);
  assert.equal((await reminders()).length, 1, 'the loser\'s mail was never written');
});

let cluster: PostgresCluster | undefined;
before(async () => {
  cluster = await startPostgresCluster();
});
after(() => cluster?.stop());

test('postgres: two schedulers on separate connections, run at the same time: the reminder is sent once', async (t) => {
  if (!cluster) throw new Error('no cluster');
  const { first, second, clock, scheduler, reminders } = await twoInstances(t, await freshPostgres(cluster));
  clock.advance(DAY_S + 1);
  // Real concurrency here: each pass's transaction is on its own connection.
  const passes = await Promise.all([scheduler(first).runOnce(), scheduler(second).runOnce()]);
  assert.equal(passes.reduce((n, p) => n + p.changed, 0), 1, JSON.stringify(passes));
  assert.deepEqual((await reminders()).map((m) => m.recipient_email), ['once@example.com']);
  clock.advance(DAY_S);
  await Promise.all([scheduler(first).runOnce(), scheduler(second).runOnce()]);
  assert.equal((await reminders()).length, 2, 'the next day, the next reminder, once');
});
