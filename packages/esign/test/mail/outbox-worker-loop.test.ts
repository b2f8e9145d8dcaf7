import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { pollUntil } from '@signet/kit';
import { OutboxWorker } from '../../src/mail/outbox-worker.ts';
import { buildSmtpTransport } from '../../src/mail/smtp-transport.ts';
import { envelopeVoidedMail } from '../../src/mail/templates/envelope-voided-mail.ts';
import type { EnvelopeTables } from '../../src/store/envelope-tables.ts';
import { enqueueMails, OutboxRepository } from '../../src/store/outbox-repository.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';

test('a started worker delivers what is enqueued (woken at once) and stops cleanly', async (t) => {
  const db = await openMigrated(t, freshSqlite(t));
  const smtp = await startSmtpListener(t);
  const transport = buildSmtpTransport({ smtpUrl: smtp.url, from: 'no-reply@signet.test' });
  // A long poll interval: only wake() can make this delivery prompt.
  const worker = new OutboxWorker({ queue: new OutboxRepository(db), transport, workerId: 'loop', messageIdHost: 'signet.test', pollIntervalMs: 60_000 });
  t.after(async () => {
    await worker.stop();
    await transport.close();
  });
  worker.start();
  const message = envelopeVoidedMail({ envelopeId: 'e1', to: { email: 'sam@example.com', name: 'Sam' }, emailSubject: 'Deal', voidedReason: 'Changed terms' });
  await db.transaction((trx) => enqueueMails(trx as unknown as Kysely<EnvelopeTables>, [message], new Date(), null));
  worker.wake();
  await pollUntil(() => smtp.received.length === 1, { timeoutMs: 10_000, intervalMs: 20, what: 'mail delivered' });
  assert.equal(smtp.received[0]?.subject, 'Voided: Deal');
  assert.ok(smtp.received[0]?.text?.includes('Reason: Changed terms'));
  await worker.stop();
  assert.equal((await new OutboxRepository(db).list())[0]?.status, 'delivered');
});

test('a PUBLIC_URL host that cannot make a Message-ID stops the worker at construction, not each mail later', () => {
  const transport = { send: () => Promise.resolve(), close: () => Promise.resolve() };
  const queue = { claim: () => Promise.resolve([]), markDelivered: () => Promise.resolve(), markFailed: () => Promise.resolve(), release: () => Promise.resolve() };
  assert.throws(() => new OutboxWorker({ queue, transport, workerId: 'w', messageIdHost: 'bad host' }), /host "bad host" \(PUBLIC_URL's\) cannot be a Message-ID's right part/);
  assert.doesNotThrow(() => new OutboxWorker({ queue, transport, workerId: 'w', messageIdHost: 'esign.example.com' }));
});
