import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIGRATIONS, openDatabase, runMigrations } from '../../src/store/index.ts';
import { AccountSettingsRepository } from '../../src/store/account-settings-repository.ts';
import { freshSqlite } from '../support/envelope-db.ts';

test('migration 110: accounts stored before it get their first member as administrator and no settings (today\'s behaviour)', async (t) => {
  const db = openDatabase(freshSqlite(t));
  t.after(() => db.close());
  await runMigrations(db.kysely, db.engine, { migrations: MIGRATIONS.filter((m) => m.version < 110) });
  const k = db.kysely;
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  await k.insertInto('accounts').values([{ id: 'acct-a', name: 'A Co', created_at: at(0) }, { id: 'acct-b', name: 'B Co', created_at: at(1) }]).execute();
  await k.insertInto('users').values(['ada', 'bob'].map((id, i) => ({ id, email: `${id}@example.com`, name: id, password_hash: 'x', created_at: at(i) }))).execute();
  // Ada opened A, Bob opened B; Bob joined A later.
  await k.insertInto('memberships').values([
    { user_id: 'ada', account_id: 'acct-a', is_default: 1, created_at: at(0) },
    { user_id: 'bob', account_id: 'acct-b', is_default: 1, created_at: at(1) },
    { user_id: 'bob', account_id: 'acct-a', is_default: 0, created_at: at(5) },
  ] as never).execute();

  assert.deepEqual(await runMigrations(db.kysely, db.engine), MIGRATIONS.filter((m) => m.version >= 110).map((m) => m.version));
  const settings = new AccountSettingsRepository(db);
  assert.deepEqual(await Promise.all([settings.isAdmin('ada', 'acct-a'), settings.isAdmin('bob', 'acct-a'), settings.isAdmin('bob', 'acct-b'), settings.isAdmin('ada', 'acct-b')]), [true, false, true, false]);
  assert.deepEqual(await settings.find('acct-a'), { accountName: 'A Co' });
  assert.deepEqual(await settings.look('acct-a'), {});
  assert.deepEqual(await settings.verifyPolicy('acct-a'), { mode: 'hidden' });
  assert.equal(await settings.find('no-such-account'), undefined);

  // Stored in one transaction: the account's name and its settings together; hashing gets a key once.
  await settings.update('acct-a', { accountName: 'A GmbH', language: 'de', signDateFormat: 'dd.MM.yyyy', verifyAuditIps: 'hashed' }, new Date(at(9)));
  const policy = await settings.verifyPolicy('acct-a');
  assert.equal(policy.mode, 'hashed');
  assert.match(policy.ipKey ?? '', /^[0-9a-f]{64}$/);
  await settings.update('acct-a', { verifyAuditIps: 'hidden' }, new Date(at(10)));
  await settings.update('acct-a', { verifyAuditIps: 'hashed' }, new Date(at(11)));
  assert.equal((await settings.verifyPolicy('acct-a')).ipKey, policy.ipKey, 'the key is kept');
  assert.deepEqual(await settings.find('acct-a'), { accountName: 'A GmbH', language: 'de', signDateFormat: 'dd.MM.yyyy', verifyAuditIps: 'hashed' });
  // A value a later release no longer knows reads as the default.
  await k.updateTable('account_settings').set({ sign_date_format: 'yyyy.dd.MM' }).where('account_id', '=', 'acct-a').execute();
  assert.deepEqual(await settings.look('acct-a'), { language: 'de' });
  assert.deepEqual(await settings.find('acct-b'), { accountName: 'B Co' });
});
