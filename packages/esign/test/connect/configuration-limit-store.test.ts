import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { MAX_CONNECT_CONFIGURATIONS } from '../../src/domain/connect/connect-configuration-limit.ts';
import { EsignError } from '../../src/errors.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import type { DatabaseLocation } from '../../src/store/database.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';

describe('the Connect configuration limit in the store', () => {
  const engines = bothEngines();
  for (const engine of engines) test(`${engine.name}: two creations for the last place: one is stored, the other refused`, (t) => lastPlace(t, engine.location, false));
  // At once on two connections: SQLite's BEGIN IMMEDIATE serializes writers across processes,
  // but two connections in one thread would wait on each other (busy_timeout blocks the thread).
  const postgres = engines.find((e) => e.name === 'postgres')!;
  test('postgres: two creations at once for the last place, on two connections: one is stored, the other refused', (t) => lastPlace(t, postgres.location, true));
});

async function lastPlace(t: TestContext, location: (t: TestContext) => Promise<DatabaseLocation>, atOnce: boolean): Promise<void> {
  const where = await location(t);
  const db = await openMigrated(t, where);
  const now = new Date();
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Sender', passwordHash: 'x', accountName: 'Co', now });
  assert.ok(account);
  const draft = (i: number) => ({ name: `Hook ${i}`, url: `https://hooks.example/${i}`, events: ['envelope-sent' as const], enabled: true, allUsers: true, userIds: [], includeHMAC: false, includeDocuments: false, includeData: [], requireAcknowledgment: false });
  const connect = new ConnectRepository(db);
  for (let i = 0; i < MAX_CONNECT_CONFIGURATIONS - 1; i++) await connect.createConfiguration(account.accountId, draft(i), now);
  // Two connections, as two instances would be.
  const other = new ConnectRepository(await openMigrated(t, where));
  const create = (repository: ConnectRepository, i: number) => repository.createConfiguration(account.accountId, draft(i), now);
  const results = atOnce
    ? await Promise.allSettled([create(connect, 100), create(other, 101)])
    : [...await Promise.allSettled([create(connect, 100)]), ...await Promise.allSettled([create(other, 101)])];
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  const refused = results.find((r) => r.status === 'rejected');
  assert.ok(refused?.reason instanceof EsignError && refused.reason.code === 'CONNECT_CONFIGURATION_LIMIT_EXCEEDED', String(refused?.reason));
  assert.equal((await connect.listConfigurations(account.accountId)).length, MAX_CONNECT_CONFIGURATIONS);
}
