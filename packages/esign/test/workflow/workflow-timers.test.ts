import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import { scheduledStep } from '../../src/domain/notification/scheduled-step.ts';
import { applySigningChange } from '../../src/domain/signing/apply-signing-change.ts';
import { finishSigning } from '../../src/domain/signing/signing-changes.ts';
import type { WorkflowDraft } from '../../src/domain/envelope/workflow.ts';
import { buildNotifier } from '../../src/mail/compose-notification.ts';
import { buildNotificationMails } from '../../src/reminders/notification-mails.ts';
import { ReminderScheduler } from '../../src/reminders/reminder-scheduler.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { MIGRATIONS, openDatabase, runMigrations, type Db, type DatabaseLocation } from '../../src/store/index.ts';
import { NotificationRepository } from '../../src/store/notification-repository.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { envelopesRepository, storeEnvelopeDeps } from '../support/store-envelope-deps.ts';

// Workflow holds end on the scheduler's clock and are stored with the envelope: these tests
// stop an "instance" (a database handle) and run two at once, on SQLite and PostgreSQL.
const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const HOUR_S = 3600;

function scheduler(db: Db, clock: FakeClock): ReminderScheduler {
  return new ReminderScheduler({
    store: envelopesRepository(db), due: new NotificationRepository(db), clock: clock.now,
    random: { secretToken: () => randomUUID() }, hashSecret: sha,
    mails: buildNotificationMails('https://esign.test'), notifier: buildNotifier('https://esign.test'),
  });
}

/** One sent envelope with two signers in routing orders 1 and 2, and the given workflow. */
async function sendWithWorkflow(db: Db, clock: FakeClock, workflow: WorkflowDraft) {
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  return createEnvelope(storeEnvelopeDeps(envelopesRepository(db), clock), { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: 'Held',
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [
      { type: 'signer', recipientId: '1', email: 'first@example.com', name: 'First', routingOrder: 1, tabs: [] },
      { type: 'signer', recipientId: '2', email: 'second@example.com', name: 'Second', routingOrder: 2, tabs: [] },
    ],
    workflow,
  } });
}

const invitations = async (db: Db) => (await new OutboxRepository(db).list()).filter((m) => m.kind === 'envelope-sent').map((m) => m.recipient_email).sort();

for (const engine of bothEngines()) {
  const location = (t: TestContext): Promise<DatabaseLocation> => engine.location(t);

  test(`${engine.name}: scheduled sending survives a restart: the instance that sent it stops, another sends at the scheduled time`, async (t) => {
    const where = await location(t);
    const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
    // Not openMigrated: this handle is closed by the test, as the instance stops.
    const first = openDatabase(where);
    await runMigrations(first.kysely, first.engine, { migrations: MIGRATIONS });
    const envelope = await sendWithWorkflow(first, clock, { scheduledSending: { kind: 'delay', delayMs: 2 * HOUR_S * 1000 }, steps: [] });
    assert.equal(envelope.status, 'sent');
    assert.deepEqual(envelope.recipients.map((r) => r.status), ['created', 'created'], 'nobody reached before the scheduled time');
    assert.deepEqual(await invitations(first), []);
    await first.close();

    const restarted = openDatabase(where);
    t.after(() => restarted.close());
    clock.advance(2 * HOUR_S - 1);
    assert.equal((await scheduler(restarted, clock).runOnce()).due, 0, 'one second early: nothing due');
    clock.advance(1);
    assert.deepEqual(await scheduler(restarted, clock).runOnce(), { due: 1, changed: 1, lost: 0, refreshed: 0, failed: 0 });
    assert.deepEqual(await invitations(restarted), ['first@example.com']);
    const sent = await envelopesRepository(restarted).find(envelope.accountId, envelope.envelopeId);
    assert.equal(sent?.sentAt?.toISOString(), clock.now().toISOString(), 'sentAt is when it really went out');
    assert.equal(sent?.workflow?.scheduledSending?.status, 'completed');
  });

  test(`${engine.name}: two instances at once: a delayed routing order is reached once`, async (t) => {
    const where = await location(t);
    const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
    const first = await openMigrated(t, where);
    const second = openDatabase(where);
    t.after(() => second.close());
    // Routing order 2 waits an hour after routing reaches it; pause before order 1 is not asked for.
    const envelope = await sendWithWorkflow(first, clock, { steps: [{ routingOrder: 2, delay: { kind: 'delay', delayMs: HOUR_S * 1000 } }] });
    assert.deepEqual(await invitations(first), ['first@example.com']);
    // The first signer finishes: routing stops before order 2 and the hour starts.
    const deps = storeEnvelopeDeps(envelopesRepository(first), clock);
    const signed = await applySigningChange(deps, envelope.accountId, envelope.envelopeId, (e) => finishSigning(deps, e, '1', clock.now(), {}));
    const step = signed.envelope.workflow?.steps[0];
    assert.equal(step?.status, 'in_progress');
    assert.equal(step?.resumeAt?.toISOString(), new Date(clock.now().getTime() + HOUR_S * 1000).toISOString());
    clock.advance(HOUR_S);
    if (engine.name === 'postgres') {
      // Real concurrency: each pass's transaction is on its own connection.
      const passes = await Promise.all([scheduler(first, clock).runOnce(), scheduler(second, clock).runOnce()]);
      assert.equal(passes.reduce((n, p) => n + p.changed, 0), 1, JSON.stringify(passes));
    } else {
      // Two better-sqlite3 handles in one thread cannot hold overlapping transactions; the race's
      // point is kept: both load the same version and compute the same step, one save wins.
      const [a, b] = await Promise.all([envelopesRepository(first).find(envelope.accountId, envelope.envelopeId), envelopesRepository(second).find(envelope.accountId, envelope.envelopeId)]);
      assert.ok(a && b);
      const stepDeps = { random: { secretToken: () => randomUUID() }, hashSecret: sha, mails: buildNotificationMails('https://esign.test'), notifier: buildNotifier('https://esign.test') };
      const [stepA, stepB] = [scheduledStep(stepDeps, a, clock.now()), scheduledStep(stepDeps, b, clock.now())];
      assert.ok(stepA && stepB);
      assert.equal(await envelopesRepository(first).update(envelopeWrite(a, stepA)), true);
      assert.equal(await envelopesRepository(second).update(envelopeWrite(b, stepB)), false, 'the loser\'s invitation is never written');
    }
    assert.deepEqual(await invitations(first), ['first@example.com', 'second@example.com'], 'the second signer is invited once');
    assert.deepEqual([(await scheduler(first, clock).runOnce()).due, (await scheduler(second, clock).runOnce()).due], [0, 0]);
  });
}
