import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import { pollUntil } from '@signet/kit';
import { writeConnectDeliveries } from '../../src/store/connect-deliveries-writer.ts';
import { buildConnectMessage } from '../../src/connect/build-connect-message.ts';
import { deriveConnectEvents } from '../../src/domain/connect/derive-connect-events.ts';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { voidEnvelope } from '../../src/domain/envelope/void-envelope.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import type { DatabaseLocation } from '../../src/store/database.ts';
import { bothEngines, openMigrated, type StoreEngine } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { samplePdf } from '../support/sample-pdf.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';

describe('Connect deliveries in the store', () => {
  const engines = bothEngines();
  for (const engine of engines) test(`${engine.name}: written in the change's transaction for each matching subscription; claims are disjoint and leased`, (t) => deliveriesAndClaims(t, engine.location));
  const postgres = engines.find((e) => e.name === 'postgres')!;
  test('postgres: a republish racing a worker\'s claim leaves the claimed delivery alone (no second, concurrent send)', (t) => republishRacingClaim(t, postgres));
});

async function deliveriesAndClaims(t: TestContext, location: (t: TestContext) => Promise<DatabaseLocation>): Promise<void> {
  const where = await location(t);
  const db = await openMigrated(t, where);
  const clock = new FakeClock(Date.parse('2026-11-21T10:00:00.000Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Sender', passwordHash: 'x', accountName: 'Co', now: clock.now() });
  assert.ok(account);
  const connect = new ConnectRepository(db);
  const sub = { includeHMAC: true, includeDocuments: false, includeData: [], requireAcknowledgment: true };
  await connect.createConfiguration(account.accountId, { ...sub, name: 'Voids', url: 'https://voids.example/', events: ['envelope-voided'], enabled: true, allUsers: true, userIds: [] }, clock.now());
  // Paused, and another sender's: neither gets anything.
  await connect.createConfiguration(account.accountId, { ...sub, name: 'Paused', url: 'https://paused.example/', events: ['envelope-sent', 'envelope-voided'], enabled: false, allUsers: true, userIds: [] }, clock.now());
  await connect.createConfiguration(account.accountId, { ...sub, name: 'Other sender', url: 'https://other.example/', events: ['envelope-sent', 'envelope-voided'], enabled: true, allUsers: false, userIds: ['someone-else'] }, clock.now());

  let wakes = 0;
  const pdf = await samplePdf(1);
  const deps = storeEnvelopeDeps(envelopesRepository(db, (w) => { if (w.connectDeliveries > 0) wakes++; }), clock, pdf);
  const envelope = await createEnvelope(deps, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: 'Lease',
    documents: [{ documentId: '1', name: 'Lease', fileExtension: 'pdf', bytes: pdf }],
    recipients: [
      { type: 'signer', recipientId: '1', email: 'a@example.com', name: 'A', routingOrder: 1, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 500, optional: false }]) },
      { type: 'signer', recipientId: '2', email: 'b@example.com', name: 'B', routingOrder: 2, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 600, optional: false }]) },
    ],
    eventNotification: { ...sub, url: 'https://own.example/', events: ['envelope-sent', 'recipient-sent', 'envelope-voided'] },
  } });
  const rows = () => connect.listDeliveries(account.accountId, envelope.envelopeId);
  assert.deepEqual((await rows()).map((r) => [r.event, r.recipient_id, r.url, r.configuration_id]), [
    ['envelope-sent', null, 'https://own.example/', '0'],
    ['recipient-sent', '1', 'https://own.example/', '0'],
  ]);
  assert.equal(wakes, 1);

  // A change that loses the version race writes no delivery (nothing of it commits).
  assert.equal(await deps.store.update(envelopeWrite(envelope, { envelope: { ...envelope, status: 'voided', version: envelope.version + 5 }, signingTokens: [], mails: [] })), false);
  assert.equal((await rows()).length, 2);

  await voidEnvelope(deps, account.accountId, envelope.envelopeId, 'Wrong tenant');
  const all = await rows();
  assert.deepEqual(all.slice(2).map((r) => [r.event, r.url]), [['envelope-voided', 'https://own.example/'], ['envelope-voided', 'https://voids.example/']]);
  assert.equal(wakes, 2);

  // Two workers (two connections) claim at once: disjoint batches that cover everything due.
  const second = new ConnectRepository(await openMigrated(t, where));
  const now = new Date();
  const [a, b] = await Promise.all([connect.claim({ workerId: 'w1', now, leaseMs: 60_000, limit: 3 }), second.claim({ workerId: 'w2', now, leaseMs: 60_000, limit: 3 })]);
  const ids = [...a, ...b].map((d) => d.id);
  assert.equal(new Set(ids).size, ids.length, 'no delivery claimed twice');
  assert.deepEqual([...ids].sort(), all.map((r) => r.id).sort());
  // Within a batch, the order the events happened.
  const firstBatch = a.length >= b.length ? a : b;
  const order = all.map((r) => r.id);
  assert.deepEqual(firstBatch.map((d) => order.indexOf(d.id)), [...firstBatch.map((d) => order.indexOf(d.id))].sort((x, y) => x - y));

  // Nothing more is due while the leases hold; once they run out, another worker takes over,
  // and the first worker's late answer is fenced off.
  assert.deepEqual(await connect.claim({ workerId: 'w3', now, leaseMs: 60_000, limit: 10 }), []);
  const later = new Date(now.getTime() + 61_000);
  const retaken = await connect.claim({ workerId: 'w3', now: later, leaseMs: 60_000, limit: 10 });
  assert.equal(retaken.length, 4);
  assert.ok(retaken.every((d) => d.attempts === 2));
  const stale = a[0] ?? b[0];
  assert.ok(stale);
  await connect.markDelivered(stale.id, stale === a[0] ? 'w1' : 'w2', later);
  assert.equal((await rows()).find((r) => r.id === stale.id)?.status, 'pending');
  await connect.markDelivered(stale.id, 'w3', later);
  assert.equal((await rows()).find((r) => r.id === stale.id)?.status, 'delivered');

  // Retention: finished rows older than the cut-off go, pending ones stay whatever their age.
  assert.equal(await connect.purgeFinished(new Date(Date.now() - 86_400_000)), 0);
  assert.equal(await connect.purgeFinished(new Date(Date.now() + 86_400_000)), 1);
  assert.deepEqual((await rows()).map((r) => r.status), ['pending', 'pending', 'pending']);

  // Deleting a configuration discards its deliveries, the one in flight included: the
  // worker's late verdict on it is fenced off and does not bring it back into the failure log.
  const late = await connect.createConfiguration(account.accountId, { ...sub, name: 'Late', url: 'https://late.example/', events: ['envelope-sent'], enabled: true, allUsers: true, userIds: [] }, clock.now());
  const another = { envelopeId: randomUUID(), accountId: account.accountId, senderUserId: account.userId, status: 'sent', recipients: [] } as unknown as Parameters<typeof writeConnectDeliveries>[1]['envelope'];
  assert.equal(await db.transaction((trx) => writeConnectDeliveries(trx.withTables(), { envelope: another, events: deriveConnectEvents(undefined, another), build: buildConnectMessage, now: later })), 1);
  // A worker releases its claim (another worker's release is fenced off), the attempt uncounted.
  // A worker already serving that listener does not claim its next message (their order).
  assert.deepEqual(await connect.claim({ workerId: 'w4', now: later, leaseMs: 60_000, limit: 10, exceptUrls: ['https://late.example/', 'https://other.example/'] }), []);
  const [handedBack] = await connect.claim({ workerId: 'w4', now: later, leaseMs: 60_000, limit: 10, exceptUrls: ['https://other.example/'] });
  assert.equal(handedBack?.attempts, 1);
  await connect.release(handedBack.id, 'w5');
  assert.deepEqual(await connect.claim({ workerId: 'w5', now: later, leaseMs: 60_000, limit: 10 }), []);
  // Handed back until a given time (its listener just failed an earlier message): due then, not before.
  const dueAt = new Date(later.getTime() + 1_000);
  await connect.release(handedBack.id, 'w4', dueAt);
  assert.deepEqual(await connect.claim({ workerId: 'w4', now: later, leaseMs: 60_000, limit: 10 }), []);
  const [inFlight] = await connect.claim({ workerId: 'w4', now: dueAt, leaseMs: 60_000, limit: 10 });
  assert.deepEqual([inFlight?.id, inFlight?.url, inFlight?.attempts], [handedBack.id, 'https://late.example/', 1]);
  assert.ok(inFlight);
  assert.equal(await connect.deleteConfiguration(account.accountId, late.connectId), true);
  await connect.markFailed(inFlight.id, 'w4', 'The listener answered HTTP 500.', undefined);
  assert.equal((await connect.findDelivery(account.accountId, inFlight.id))?.status, 'discarded');
}

/**
 * A worker claims a failed (still retrying) delivery in a transaction that has not committed yet
 * while a republish of its envelope runs on another connection. The republish must not take the
 * row from under the claim once it commits: the claimant is sending it, and a requeued copy
 * would be sent again at once by another worker.
 */
async function republishRacingClaim(t: TestContext, postgres: StoreEngine): Promise<void> {
  const where = await postgres.location(t);
  const db = await openMigrated(t, where);
  const now = new Date();
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Sender', passwordHash: 'x', accountName: 'Co', now });
  assert.ok(account);
  const connect = new ConnectRepository(db);
  await connect.createConfiguration(account.accountId, { name: 'Sends', url: 'https://sends.example/', events: ['envelope-sent'], enabled: true, allUsers: true, userIds: [], includeHMAC: false, includeDocuments: false, includeData: [], requireAcknowledgment: false }, now);
  // One delivery, written as an envelope write writes it (the writer needs only the
  // statuses and ids of the envelope), whose first attempt failed.
  const envelopeId = randomUUID();
  const sent = { envelopeId, accountId: account.accountId, senderUserId: account.userId, status: 'sent', recipients: [] } as unknown as Parameters<typeof writeConnectDeliveries>[1]['envelope'];
  assert.equal(await db.transaction((trx) => writeConnectDeliveries(trx.withTables(), { envelope: sent, events: deriveConnectEvents(undefined, sent), build: buildConnectMessage, now })), 1);
  const [first] = await connect.claim({ workerId: 'w1', now, leaseMs: 60_000, limit: 1 });
  assert.ok(first);
  await connect.markFailed(first.id, 'w1', 'The listener answered HTTP 503.', now);

  // Worker w2 claims it (uncommitted); the republish starts meanwhile on its own connection.
  const other = new ConnectRepository(await openMigrated(t, where));
  let commitClaim: () => void = () => {};
  const claimHeld = new Promise<void>((resolve) => (commitClaim = resolve));
  let claimed: () => void = () => {};
  const claimDone = new Promise<void>((resolve) => (claimed = resolve));
  const claim = db.transaction(async (trx) => {
    await sql`update connect_deliveries set claimed_by = 'w2', lease_until = ${new Date(now.getTime() + 60_000).toISOString()}, attempts = attempts + 1 where id = ${first.id}`.execute(trx);
    claimed();
    await claimHeld;
  });
  await claimDone;
  const republish = other.requeueFailures(account.accountId, [envelopeId], now);
  // The republish is waiting on the claim's row lock (seen from a third connection).
  await pollUntil(async () => {
    const waiting = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(db.kysely);
    return Number(waiting.rows[0]?.n) > 0 || undefined;
  }, { timeoutMs: 5_000, intervalMs: 10, what: 'the republish blocked on the claimed row' });
  commitClaim();
  await claim;
  assert.deepEqual(await republish, [], 'a delivery in flight is not requeued');
  const row = await connect.findDelivery(account.accountId, first.id);
  assert.deepEqual([row?.claimed_by, row?.attempts], ['w2', 2], 'the claim stands');
}
