import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Kysely } from 'kysely';
import { buildDevMailboxTransport } from '../../src/mail/dev-mailbox-transport.ts';
import type { MailMessage } from '../../src/domain/mail/mail-message.ts';
import type { MailTransport } from '../../src/mail/mail-transport.ts';
import type { OutboxQueue } from '../../src/domain/mail/outbox-queue.ts';
import { OutboxWorker } from '../../src/mail/outbox-worker.ts';
import { buildSmtpTransport } from '../../src/mail/smtp-transport.ts';
import { envelopeSentMail } from '../../src/mail/templates/envelope-sent-mail.ts';
import type { Db, DatabaseLocation } from '../../src/store/index.ts';
import { DevMailboxRepository } from '../../src/store/dev-mailbox-repository.ts';
import type { EnvelopeTables } from '../../src/store/envelope-tables.ts';
import { enqueueMails, OutboxRepository } from '../../src/store/outbox-repository.ts';
import { freshPostgres, freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';

const FROM = '"Signet" <no-reply@signet.test>';

function mail(i: number): MailMessage {
  return envelopeSentMail({ envelopeId: `env-${i}`, to: { email: `signer${i}@example.com`, name: `Signer ${i}` }, emailSubject: `Please sign #${i}`, documentNames: ['NDA'], signingUrl: `https://esign.test/signing/token-${i}` });
}

async function enqueue(db: Db, mails: MailMessage[], now: Date): Promise<void> {
  await db.transaction((trx) => enqueueMails(trx as unknown as Kysely<EnvelopeTables>, mails, now, null));
}

function worker(db: Db, smtpUrl: string, clock: FakeClock, workerId: string, maxAttempts = 4, wrap: (t: MailTransport) => MailTransport = (t) => t, queue: OutboxQueue = new OutboxRepository(db)) {
  const smtp = buildSmtpTransport({ smtpUrl, from: FROM, timeoutMs: 5_000 });
  const transport = wrap(smtp);
  return {
    transport,
    worker: new OutboxWorker({ queue, transport, workerId, messageIdHost: 'esign.test', clock: clock.now, random: () => 0.5, retry: { baseMs: 1_000, maxMs: 60_000, maxAttempts }, batchSize: 50 }),
  };
}

type EngineCase = { name: string; location: (t: TestContext) => Promise<DatabaseLocation> };

let cluster: PostgresCluster | undefined;
const ENGINES: EngineCase[] = [
  { name: 'sqlite', location: (t) => Promise.resolve(freshSqlite(t)) },
  { name: 'postgres', location: () => (cluster ? freshPostgres(cluster) : Promise.reject(new Error('no cluster'))) },
];

describe('mail outbox', () => {
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());

  for (const engine of ENGINES) {
    test(`${engine.name}: mails reach a real SMTP listener, with the link in the text part; delivered rows forget the message`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      await enqueue(db, [mail(1), mail(2)], clock.now());
      const { worker: w, transport } = worker(db, smtp.url, clock, 'w1');
      t.after(() => transport.close());
      assert.deepEqual(await w.runOnce(), { claimed: 2, delivered: 2, retried: 0, dead: 0, released: 0 });
      assert.deepEqual(smtp.received.map((m) => m.subject).sort(), ['Please sign #1', 'Please sign #2']);
      const first = smtp.received.find((m) => m.subject === 'Please sign #1');
      assert.ok(first?.text?.split('\n').includes('https://esign.test/signing/token-1'));
      assert.ok(typeof first?.html === 'string' && first.html.includes('href="https://esign.test/signing/token-1"'));
      assert.equal(first?.headers.get('x-signet-envelope-id'), 'env-1');
      const rows = await new OutboxRepository(db).list();
      // Each row's mail carries <row id @ PUBLIC_URL host> (outbox-message-id.ts).
      const rowOf = (to: string) => rows.find((r) => r.recipient_email === to)?.id ?? 'none';
      assert.deepEqual(smtp.received.map((m) => m.messageId).sort(), [`<${rowOf('signer1@example.com')}@esign.test>`, `<${rowOf('signer2@example.com')}@esign.test>`].sort());
      assert.deepEqual(rows.map((r) => [r.status, r.message_json, Number(r.attempts)]), [['delivered', null, 1], ['delivered', null, 1]]);
      assert.deepEqual(await w.runOnce(), { claimed: 0, delivered: 0, retried: 0, dead: 0, released: 0 });
    });

    test(`${engine.name}: a 4xx is retried with exponential backoff, a 5xx or the last attempt gives up`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      const repo = new OutboxRepository(db);
      await enqueue(db, [mail(1)], clock.now());
      const { worker: w, transport } = worker(db, smtp.url, clock, 'w1', 3);
      t.after(() => transport.close());
      smtp.rejectNext(2, 451);
      assert.deepEqual(await w.runOnce(), { claimed: 1, delivered: 0, retried: 1, dead: 0, released: 0 });
      // Attempt 1 failed: the next try is 1 s × 2^0 with equal jitter at 0.5 → 750 ms later.
      assert.equal((await repo.list())[0]?.next_attempt_at, new Date(clock.now().getTime() + 750).toISOString());
      assert.match((await repo.list())[0]?.last_error ?? '', /451|Try again later/);
      clock.advance(0.7);
      assert.equal((await w.runOnce()).claimed, 0, 'not due yet');
      clock.advance(0.1);
      assert.deepEqual(await w.runOnce(), { claimed: 1, delivered: 0, retried: 1, dead: 0, released: 0 });
      // Attempt 2 failed: 2 s step → 1.5 s.
      clock.advance(1.5);
      assert.deepEqual(await w.runOnce(), { claimed: 1, delivered: 1, retried: 0, dead: 0, released: 0 });
      assert.equal(smtp.received.length, 1);
      assert.equal(Number((await repo.list())[0]?.attempts), 3);

      await enqueue(db, [mail(2)], clock.now());
      smtp.rejectNext(1, 550);
      assert.deepEqual(await w.runOnce(), { claimed: 1, delivered: 0, retried: 0, dead: 1, released: 0 });
      const dead = (await repo.list()).find((r) => r.recipient_email === 'signer2@example.com');
      assert.equal(dead?.status, 'dead');
      assert.ok(dead?.message_json, 'a dead mail keeps its message for an operator');
    });

    test(`${engine.name}: while SMTP is down nothing is lost; mails go out once it is back`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const clock = new FakeClock();
      await enqueue(db, [mail(1), mail(2)], clock.now());
      // Port 1 on loopback: nothing listens, the connection is refused.
      const down = worker(db, 'smtp://127.0.0.1:1', clock, 'w1');
      t.after(() => down.transport.close());
      assert.deepEqual(await down.worker.runOnce(), { claimed: 2, delivered: 0, retried: 2, dead: 0, released: 0 });
      const smtp = await startSmtpListener(t);
      const up = worker(db, smtp.url, clock, 'w2');
      t.after(() => up.transport.close());
      clock.advance(1);
      assert.deepEqual(await up.worker.runOnce(), { claimed: 2, delivered: 2, retried: 0, dead: 0, released: 0 });
      assert.equal(smtp.received.length, 2);
    });

    test(`${engine.name}: a worker that dies mid-delivery leaves its claim to the next one once the lease ends`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const clock = new FakeClock();
      const repo = new OutboxRepository(db);
      await enqueue(db, [mail(1)], clock.now());
      const [claimed] = await repo.claim({ workerId: 'dead-worker', now: clock.now(), leaseMs: 60_000, limit: 10 });
      assert.ok(claimed);
      assert.deepEqual(await repo.claim({ workerId: 'w2', now: clock.now(), leaseMs: 60_000, limit: 10 }), [], 'leased rows are not claimed twice');
      clock.advance(61);
      const [again] = await repo.claim({ workerId: 'w2', now: clock.now(), leaseMs: 60_000, limit: 10 });
      assert.equal(again?.id, claimed.id);
      assert.equal(again?.attempts, 2);
      // The first worker wakes up late: its completion is fenced off.
      await repo.markDelivered(claimed.id, 'dead-worker', clock.now());
      assert.equal((await repo.list())[0]?.status, 'pending');
      await repo.markDelivered(claimed.id, 'w2', clock.now());
      assert.equal((await repo.list())[0]?.status, 'delivered');
    });

    test(`${engine.name}: accepted by SMTP but not recorded (the crash window): sent again after the lease with the same Message-ID`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      const repo = new OutboxRepository(db);
      await enqueue(db, [mail(1)], clock.now());
      // The delivery cannot be written (what a kill right after the 250 leaves behind, in-process).
      const unrecordable: OutboxQueue = {
        claim: (input) => repo.claim(input),
        markFailed: (...args) => repo.markFailed(...args),
        release: (...args) => repo.release(...args),
        markDelivered: () => Promise.reject(new Error('database unavailable')),
      };
      const outcomes: Array<string | undefined> = [];
      const transport = buildSmtpTransport({ smtpUrl: smtp.url, from: FROM, timeoutMs: 5_000 });
      t.after(() => transport.close());
      const options = { transport, messageIdHost: 'esign.test', clock: clock.now, leaseMs: 60_000 };
      const w1 = new OutboxWorker({ ...options, queue: unrecordable, workerId: 'w1', onError: (_err, _item, outcome) => outcomes.push(outcome) });
      assert.deepEqual(await w1.runOnce(), { claimed: 1, delivered: 1, retried: 0, dead: 0, released: 0 });
      assert.deepEqual(outcomes, ['unrecorded'], 'reported once, after the record retries; never taken for a failed send');
      const [row] = await repo.list();
      assert.ok(row);
      assert.deepEqual([row.status, row.claimed_by, row.last_error, Number(row.attempts)], ['pending', 'w1', null, 1], 'no retry scheduled: the lease decides');
      const w2 = new OutboxWorker({ ...options, queue: repo, workerId: 'w2' });
      assert.equal((await w2.runOnce()).claimed, 0, 'not while the lease lasts');
      clock.advance(61);
      assert.deepEqual(await w2.runOnce(), { claimed: 1, delivered: 1, retried: 0, dead: 0, released: 0 });
      // Two copies on the wire, one message to the receiver: both carry the row's Message-ID.
      assert.deepEqual(smtp.received.map((m) => m.messageId), [`<${row.id}@esign.test>`, `<${row.id}@esign.test>`]);
      assert.equal((await repo.list())[0]?.status, 'delivered');
    });

    test(`${engine.name}: the dev mailbox keeps one copy per Message-ID`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const clock = new FakeClock();
      const mailbox = new DevMailboxRepository(db);
      const dev = buildDevMailboxTransport(mailbox, clock.now);
      await dev.send(mail(1), '<row-1@esign.test>');
      clock.advance(120);
      await dev.send(mail(1), '<row-1@esign.test>');
      await dev.send(mail(2), '<row-2@esign.test>');
      const list = await mailbox.list();
      assert.deepEqual(list.map((m) => [m.messageId, m.message.subject]).sort(), [['<row-1@esign.test>', 'Please sign #1'], ['<row-2@esign.test>', 'Please sign #2']]);
      const kept = list.find((m) => m.messageId === '<row-1@esign.test>');
      assert.equal(kept?.receivedAt, new Date(clock.now().getTime() - 120_000).toISOString(), 'the first copy is the one kept');
      assert.equal(await mailbox.add(mail(1), '<row-1@esign.test>', clock.now()), kept?.id, 'a duplicate resolves to the stored message');
    });

    test(`${engine.name}: no send starts once half the lease is spent; the rest of the batch is released unattempted`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      const repo = new OutboxRepository(db);
      await enqueue(db, [1, 2, 3, 4].map(mail), clock.now());
      // A slow SMTP server: each exchange takes 30 % of the 120 s lease (on the fake clock).
      const slow = (inner: MailTransport): MailTransport => ({
        send: async (message, messageId) => {
          await inner.send(message, messageId);
          clock.advance(36);
        },
        close: () => inner.close(),
      });
      const { worker: w, transport } = worker(db, smtp.url, clock, 'w1', 4, slow);
      t.after(() => transport.close());
      assert.deepEqual(await w.runOnce(), { claimed: 4, delivered: 2, retried: 0, dead: 0, released: 2 });
      const released = (await repo.list()).filter((r) => r.status === 'pending');
      assert.deepEqual(released.map((r) => [r.claimed_by, r.lease_until, Number(r.attempts)]), [[null, null, 0], [null, null, 0]], 'free to claim at once, the attempt not counted');
      const other = worker(db, smtp.url, clock, 'w2');
      t.after(() => other.transport.close());
      assert.deepEqual(await other.worker.runOnce(), { claimed: 2, delivered: 2, retried: 0, dead: 0, released: 0 });
      assert.deepEqual(smtp.received.map((m) => m.subject).sort(), ['Please sign #1', 'Please sign #2', 'Please sign #3', 'Please sign #4']);
    });

    test(`${engine.name}: concurrent workers on separate connections claim disjoint rows; every mail goes out once`, async (t) => {
      const location = await engine.location(t);
      const db1 = await openMigrated(t, location);
      const db2 = await openMigrated(t, location);
      const smtp = await startSmtpListener(t);
      const clock = new FakeClock();
      await enqueue(db1, Array.from({ length: 30 }, (_, i) => mail(i)), clock.now());
      const a = new OutboxRepository(db1);
      const b = new OutboxRepository(db2);
      const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claim({ workerId: `w${i}`, now: clock.now(), leaseMs: 60_000, limit: 7 })));
      const ids = claims.flat().map((c) => c.id);
      assert.equal(ids.length, 30);
      assert.equal(new Set(ids).size, 30, 'no row claimed twice');
      // And through real workers: all delivered exactly once.
      await enqueue(db1, Array.from({ length: 20 }, (_, i) => mail(100 + i)), clock.now());
      const w1 = worker(db1, smtp.url, clock, 'x1');
      const w2 = worker(db2, smtp.url, clock, 'x2');
      t.after(() => Promise.all([w1.transport.close(), w2.transport.close()]));
      const passes = await Promise.all([w1.worker.runOnce(), w2.worker.runOnce(), w1.worker.runOnce(), w2.worker.runOnce()]);
      assert.equal(passes.reduce((n, p) => n + p.delivered, 0), 20);
      assert.equal(smtp.received.length, 20);
      assert.equal(new Set(smtp.received.map((m) => m.subject)).size, 20);
    });
  }
});
