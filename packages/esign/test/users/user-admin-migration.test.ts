import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIGRATIONS, openDatabase, runMigrations } from '../../src/store/index.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { PermissionProfilesRepository } from '../../src/store/permission-profiles-repository.ts';
import { freshSqlite } from '../support/envelope-db.ts';

test('migration 140: existing accounts get the three default profiles; the administrator Account Administrator, other members DocuSign Sender; all stay active', async (t) => {
  const db = openDatabase(freshSqlite(t));
  t.after(() => db.close());
  await runMigrations(db.kysely, db.engine, { migrations: MIGRATIONS.filter((m) => m.version < 140) });
  const k = db.kysely;
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  await k.insertInto('accounts').values([{ id: 'acct-a', name: 'A Co', created_at: at }, { id: 'acct-b', name: 'B Co', created_at: at }]).execute();
  await k.insertInto('users').values(['ada', 'bob'].map((id) => ({ id, email: `${id}@example.com`, name: id, password_hash: 'x', created_at: at }))).execute();
  await k.insertInto('memberships').values([
    { user_id: 'ada', account_id: 'acct-a', is_default: 1, is_admin: 1, created_at: at },
    { user_id: 'bob', account_id: 'acct-b', is_default: 1, is_admin: 1, created_at: at },
    { user_id: 'bob', account_id: 'acct-a', is_default: 0, is_admin: 0, created_at: at },
  ] as never).execute();

  assert.deepEqual(await runMigrations(db.kysely, db.engine), MIGRATIONS.filter((m) => m.version >= 140).map((m) => m.version));
  const profiles = new PermissionProfilesRepository(db);
  for (const account of ['acct-a', 'acct-b']) {
    assert.deepEqual((await profiles.listProfiles(account)).map((p) => [p.name, p.kind]), [['Account Administrator', 'admin'], ['DocuSign Sender', 'sender'], ['DocuSign Viewer', 'viewer']]);
  }
  const accounts = new AccountsRepository(db);
  assert.equal((await accounts.memberSettings('ada', 'acct-a'))?.allowAccountManagement, 'true');
  assert.equal((await accounts.memberSettings('bob', 'acct-a'))?.allowAccountManagement, 'false');
  assert.equal((await accounts.memberSettings('bob', 'acct-a'))?.allowEnvelopeSending, 'true');
  assert.equal((await accounts.memberSettings('bob', 'acct-b'))?.allowAccountManagement, 'true');
  assert.equal(await accounts.memberSettings('ada', 'acct-b'), undefined);
  assert.deepEqual((await accounts.accountsOf('bob')).map((a) => a.accountId), ['acct-b', 'acct-a']);
});
