import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { MailMessage } from '../../src/domain/mail/mail-message.ts';
import { OutboxWorker } from '../../src/mail/outbox-worker.ts';
import { buildSmtpTransport } from '../../src/mail/smtp-transport.ts';
import { envelopeSentMail } from '../../src/mail/templates/envelope-sent-mail.ts';
import type { Db } from '../../src/store/index.ts';
import type { EnvelopeTables } from '../../src/store/envelope-tables.ts';
import { enqueueMails, OutboxRepository } from '../../src/store/outbox-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';

// The review's scenario (one account's burst of mail ahead of everyone else's), made small:
// asserted on which mails a batch holds, never on how long anything took.
const BATCH = 10;

function mail(subject: string, to: string): MailMessage {
  return envelopeSentMail({ envelopeId: `env-${subject}`, to: { email: to, name: to }, emailSubject: subject, documentNames: ['NDA'], signingUrl: `https://esign.test/signing/${subject}` });
}

async function enqueue(db: Db, mails: MailMessage[], now: Date, accountId: string | null): Promise<void> {
  await db.transaction((trx) => enqueueMails(trx as unknown as Kysely<EnvelopeTables>, mails, now, accountId));
}

describe('mail outbox shared by accounts', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: one account's backlog does not hold back another account's mail, nor mail of no account`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      // Account A queues 30 mails, one per second, all to one recipient (whose order must hold).
      for (let i = 1; i <= 30; i++) {
        await enqueue(db, [mail(`A${i}`, 'a@example.com')], clock.now(), 'account-a');
        clock.advance(1);
      }
      await enqueue(db, [mail('B1', 'b@example.com')], clock.now(), 'account-b');
      await enqueue(db, [mail('signup', 'new@example.com')], clock.now(), null);
      const transport = buildSmtpTransport({ smtpUrl: smtp.url, from: '"Signet" <no-reply@signet.test>', timeoutMs: 5_000 });
      t.after(() => transport.close());
      const worker = new OutboxWorker({ queue: new OutboxRepository(db), transport, workerId: 'w1', messageIdHost: 'esign.test', clock: clock.now, batchSize: BATCH });

      assert.deepEqual(await worker.runOnce(), { claimed: BATCH, delivered: BATCH, retried: 0, dead: 0, released: 0 });
      const first = smtp.received.map((m) => m.subject ?? '');
      assert.ok(first.includes('B1'), `B's mail is in the first batch: ${first.join(' ')}`);
      assert.ok(first.includes('signup'), `the mail of no account is in the first batch: ${first.join(' ')}`);
      // A's share of the batch is its oldest mails, sent in the order they were written.
      assert.deepEqual(first.filter((s) => s.startsWith('A')), ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8']);

      while ((await worker.runOnce()).claimed > 0);
      const all = smtp.received.map((m) => m.subject ?? '');
      assert.equal(all.length, 32);
      assert.deepEqual(all.filter((s) => s.startsWith('A')), Array.from({ length: 30 }, (_, i) => `A${i + 1}`), 'one recipient\'s mails in order');
    });

    test(`${engine.name}: each batch takes from every account with mail due, so a late account waits at most one batch`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const clock = new FakeClock();
      const repo = new OutboxRepository(db);
      await enqueue(db, Array.from({ length: 20 }, (_, i) => mail(`A${i + 1}`, `a${i + 1}@example.com`)), clock.now(), 'account-a');
      clock.advance(1);
      await enqueue(db, Array.from({ length: 20 }, (_, i) => mail(`B${i + 1}`, `b${i + 1}@example.com`)), clock.now(), 'account-b');
      const [batch1, batch2] = [await repo.claim({ workerId: 'w1', now: clock.now(), leaseMs: 60_000, limit: 4 }), await repo.claim({ workerId: 'w1', now: clock.now(), leaseMs: 60_000, limit: 4 })];
      const accountOf = (items: typeof batch1) => items.map((i) => i.message.subject.slice(0, 1)).sort().join('');
      assert.equal(accountOf(batch1), 'AABB');
      assert.equal(accountOf(batch2), 'AABB');
      // A mail of account C written now is in the very next batch, ahead of A's and B's backlog.
      await enqueue(db, [mail('C1', 'c@example.com')], clock.now(), 'account-c');
      const batch3 = await repo.claim({ workerId: 'w1', now: clock.now(), leaseMs: 60_000, limit: 3 });
      assert.equal(accountOf(batch3), 'ABC');
    });

    test(`${engine.name}: mails due at the same time go out in the order they were written`, async (t) => {
      // A resend or a correction leaves the envelope's status alone, so its mail is due at the
      // envelope's statusChangedAt, the same time as the send's mail that may still be waiting:
      // the due time ties, and the recipient must still get the mails in the order they were made.
      const db = await openMigrated(t, await engine.location(t));
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      const dueAt = clock.now();
      for (let i = 1; i <= 12; i++) await enqueue(db, [mail(`R${i}`, 'r@example.com')], dueAt, 'account-r');
      const transport = buildSmtpTransport({ smtpUrl: smtp.url, from: '"Signet" <no-reply@signet.test>', timeoutMs: 5_000 });
      t.after(() => transport.close());
      const worker = new OutboxWorker({ queue: new OutboxRepository(db), transport, workerId: 'w1', messageIdHost: 'esign.test', clock: clock.now, batchSize: 5 });
      while ((await worker.runOnce()).claimed > 0);
      assert.deepEqual(smtp.received.map((m) => m.subject ?? ''), Array.from({ length: 12 }, (_, i) => `R${i + 1}`));
    });
  }
});
