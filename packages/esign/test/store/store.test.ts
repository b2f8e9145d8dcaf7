import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import { pollUntil } from '@signet/kit';
import { openDatabase, openStore, runMigrations, MIGRATIONS, sqliteFileIn, type DatabaseLocation, type Store } from '../../src/store/index.ts';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';

/** One fresh database per test: a new SQLite file, or a new PostgreSQL database in the shared cluster. */
type Engine = { name: 'sqlite' | 'postgres'; fresh: (t: TestContext) => Promise<DatabaseLocation> };

const sqlite: Engine = {
  name: 'sqlite',
  fresh(t) {
    const dir = mkdtempSync(join(tmpdir(), 'signet-store-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return Promise.resolve({ sqliteFile: sqliteFileIn(dir) });
  },
};

function postgres(cluster: () => PostgresCluster): Engine {
  return {
    name: 'postgres',
    async fresh() {
      const name = `t_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: cluster().url() });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      return { databaseUrl: cluster().url(name) };
    },
  };
}

async function store(t: TestContext, engine: Engine): Promise<Store> {
  const s = await openStore(await engine.fresh(t));
  t.after(() => s.close());
  return s;
}

const now = new Date('2026-01-02T03:04:05.000Z');

function storeSuite(engine: Engine): void {
  test(`${engine.name}: migrations apply once, and again is a no-op`, async (t) => {
    const location = await engine.fresh(t);
    const db = openDatabase(location);
    t.after(() => db.close());
    assert.deepEqual(await runMigrations(db.kysely, db.engine), MIGRATIONS.map((m) => m.version));
    assert.deepEqual(await runMigrations(db.kysely, db.engine), []);
    const rows = await db.kysely.selectFrom('signet_migrations').select(['version', 'name']).execute();
    assert.deepEqual(rows.map((r) => Number(r.version)).sort((x, y) => x - y), MIGRATIONS.map((m) => m.version));
  });

  test(`${engine.name}: concurrent migrators (two pools) apply each version exactly once`, async (t) => {
    const all = MIGRATIONS.map((m) => m.version);
    const location = await engine.fresh(t);
    const a = openDatabase(location);
    const b = openDatabase(location);
    t.after(async () => {
      await a.close();
      await b.close();
    });
    if (engine.name === 'sqlite') {
      // better-sqlite3 blocks the thread while it waits for the lock, so two handles in one
      // process cannot interleave; the cross-process case is in test/cli (two `serve` at once).
      assert.deepEqual(await runMigrations(a.kysely, a.engine), all);
      assert.deepEqual(await runMigrations(b.kysely, b.engine), []);
      return;
    }
    const results = await Promise.all([runMigrations(a.kysely, a.engine), runMigrations(b.kysely, b.engine)]);
    assert.deepEqual(results.flat().sort((x, y) => x - y), all);
  });

  test(`${engine.name}: a failed migration leaves nothing behind`, async (t) => {
    const db = openDatabase(await engine.fresh(t));
    t.after(() => db.close());
    const broken = [...MIGRATIONS, { version: 9_999, name: 'broken', up: async () => Promise.reject(new Error('boom')) }];
    await assert.rejects(runMigrations(db.kysely, db.engine, { migrations: broken }), /boom/);
    // The earlier versions ran in the same transaction, so they are rolled back too.
    assert.deepEqual(await runMigrations(db.kysely, db.engine), MIGRATIONS.map((m) => m.version));
  });

  test(`${engine.name}: users, accounts, memberships`, async (t) => {
    const s = await store(t, engine);
    const created = await s.accounts.createUserWithAccount({ email: 'ada@example.com', name: 'Ada', passwordHash: 'h', accountName: 'Ada Co', now });
    assert.ok(created);
    assert.equal(await s.accounts.createUserWithAccount({ email: 'ada@example.com', name: 'Ada 2', passwordHash: 'h', accountName: 'X', now }), undefined);
    assert.equal((await s.accounts.findUserByEmail('ada@example.com'))?.id, created.userId);
    assert.deepEqual(await s.accounts.accountsOf(created.userId), [{ accountId: created.accountId, accountName: 'Ada Co', isDefault: true, createdAt: now.toISOString() }]);
    const other = await s.accounts.createUserWithAccount({ email: 'bob@example.com', name: 'Bob', passwordHash: 'h', accountName: 'Bob Co', now });
    assert.ok(other);
    assert.equal(await s.accounts.isMember(created.userId, other.accountId), false);
    await s.accounts.addMembership(created.userId, other.accountId, new Date(now.getTime() + 1000));
    const accounts = await s.accounts.accountsOf(created.userId);
    assert.deepEqual(accounts.map((a) => [a.accountId, a.isDefault]), [[created.accountId, true], [other.accountId, false]]);
  });

  test(`${engine.name}: a transaction that throws writes nothing`, async (t) => {
    const s = await store(t, engine);
    await assert.rejects(s.db.transaction(async (trx) => {
      await trx.insertInto('accounts').values({ id: 'acc-1', name: 'n', created_at: now.toISOString() }).execute();
      throw new Error('abort');
    }), /abort/);
    assert.equal(await s.accounts.findAccount('acc-1'), undefined);
  });

  test(`${engine.name}: apps, secrets, redirect URIs and RSA keys`, async (t) => {
    const s = await store(t, engine);
    const u = await s.accounts.createUserWithAccount({ email: 'a@example.com', name: 'A', passwordHash: 'h', accountName: 'A', now });
    assert.ok(u);
    const app = await s.apps.createApp({ accountId: u.accountId, ownerUserId: u.userId, name: 'App', redirectUris: ['https://a.example/cb', 'http://localhost/cb', 'https://a.example/cb'], secret: { hash: 'h1', hint: 'abcd' }, rsaPublicKeyPem: 'PEM', now });
    assert.deepEqual((await s.apps.redirectUris(app.id)).sort(), ['http://localhost/cb', 'https://a.example/cb']);
    await s.apps.addRedirectUri(app.id, 'http://localhost/cb', now);
    await s.apps.addRedirectUri(app.id, 'https://b.example/cb', now);
    await s.apps.removeRedirectUri(app.id, 'http://localhost/cb');
    assert.deepEqual((await s.apps.redirectUris(app.id)).sort(), ['https://a.example/cb', 'https://b.example/cb']);
    const second = await s.apps.addSecret(app.id, 'h2', 'efgh', now);
    assert.deepEqual((await s.apps.liveSecretHashes(app.id)).sort(), ['h1', 'h2']);
    assert.equal(await s.apps.revokeSecret(app.id, second, now), true);
    assert.equal(await s.apps.revokeSecret(app.id, second, now), false);
    assert.deepEqual(await s.apps.liveSecretHashes(app.id), ['h1']);
    assert.equal((await s.apps.listSecrets(app.id)).length, 2);
    const key = await s.apps.addRsaKey(app.id, 'PEM2', now);
    assert.deepEqual((await s.apps.liveRsaKeys(app.id)).sort(), ['PEM', 'PEM2']);
    await s.apps.revokeRsaKey(app.id, key, now);
    assert.deepEqual(await s.apps.liveRsaKeys(app.id), ['PEM']);
    assert.deepEqual((await s.apps.listApps([u.accountId])).map((a) => a.id), [app.id]);
    assert.deepEqual(await s.apps.listApps([]), []);
  });

  test(`${engine.name}: codes are consumed once even under concurrency; tokens, grants, sessions, consents`, async (t) => {
    const s = await store(t, engine);
    const u = await s.accounts.createUserWithAccount({ email: 'a@example.com', name: 'A', passwordHash: 'h', accountName: 'A', now });
    assert.ok(u);
    const app = await s.apps.createApp({ accountId: u.accountId, ownerUserId: u.userId, name: 'App', redirectUris: [], now });
    const later = new Date(now.getTime() + 60_000).toISOString();
    await s.oauth.insertCode({ code_hash: 'c1', app_id: app.id, user_id: u.userId, grant_id: 'g1', redirect_uri: 'r', scopes: 'signature', code_challenge: null, expires_at: later, consumed_at: null, created_at: now.toISOString() });
    const winners = await Promise.all(Array.from({ length: 5 }, () => s.oauth.consumeCode('c1', now)));
    assert.equal(winners.filter(Boolean).length, 1);
    assert.ok((await s.oauth.findCode('c1'))?.consumed_at);

    const token = (hash: string, kind: 'access' | 'refresh', grant: string, expires = later) =>
      ({ token_hash: hash, kind, app_id: app.id, user_id: u.userId, grant_id: grant, scopes: 'signature', expires_at: expires, revoked_at: null, created_at: now.toISOString() });
    await s.oauth.insertTokens([token('a1', 'access', 'g1'), token('r1', 'refresh', 'g1'), token('a2', 'access', 'g2')]);
    assert.equal((await s.oauth.liveToken('a1', 'access', now))?.user_id, u.userId);
    assert.equal(await s.oauth.liveToken('a1', 'refresh', now), undefined);
    assert.equal(await s.oauth.liveToken('a1', 'access', new Date(later)), undefined, 'expired at expires_at');
    assert.equal(await s.oauth.rotateRefresh('r1', [token('a3', 'access', 'g1'), token('r3', 'refresh', 'g1')], now), true);
    assert.equal(await s.oauth.rotateRefresh('r1', [token('a4', 'access', 'g1')], now), false);
    assert.equal(await s.oauth.findToken('a4'), undefined, 'a failed rotation stores nothing');
    assert.equal(await s.oauth.revokeGrant('g1', now), 3, 'a1, a3 and r3 (r1 was revoked by the rotation)');
    assert.equal(await s.oauth.liveToken('a3', 'access', now), undefined);
    assert.ok(await s.oauth.liveToken('a2', 'access', now), 'other grants untouched');

    await s.sessions.create('s1', u.userId, now, later);
    assert.equal(await s.sessions.userOf('s1', now), u.userId);
    assert.equal(await s.sessions.userOf('s1', new Date(later)), undefined);
    await s.sessions.delete('s1');
    assert.equal(await s.sessions.userOf('s1', now), undefined);

    // Purge: expired tokens go; codes only after their grace period; live rows stay.
    assert.deepEqual(await s.oauth.purgeExpired(now), { tokens: 0, codes: 0 });
    assert.deepEqual(await s.oauth.purgeExpired(new Date(later)), { tokens: 5, codes: 0 });
    assert.deepEqual(await s.oauth.purgeExpired(new Date(Date.parse(later) + 86_400_000)), { tokens: 0, codes: 1 });
    await s.sessions.create('s2', u.userId, now, later);
    assert.equal(await s.sessions.purgeExpired(now), 0);
    assert.equal(await s.sessions.purgeExpired(new Date(later)), 1);

    // Login attempts: counted per address, concurrent attempts all counted, cleared on demand.
    await Promise.all(Array.from({ length: 3 }, () => s.loginFailures.recordAttempt('a@example.com', now)));
    assert.deepEqual(await s.loginFailures.find('a@example.com'), { failures: 3, firstFailedAt: now.toISOString(), lockedUntil: null });
    await s.loginFailures.recordAttempt('a@example.com', now);
    // The fifth attempt, 10 minutes later, locks until 25 minutes after the first.
    const fifth = await s.loginFailures.recordAttempt('a@example.com', new Date(now.getTime() + 600_000));
    assert.deepEqual([fifth.allowed, fifth.state?.lockedUntil], [true, new Date(now.getTime() + 1_500_000).toISOString()]);
    // Attempts while locked are refused and change nothing.
    assert.deepEqual(await s.loginFailures.recordAttempt('a@example.com', new Date(now.getTime() + 700_000)), { allowed: false, state: fifth.state });
    assert.equal(await s.loginFailures.purgeExpired(new Date(now.getTime() + 1_000_000)), 0, 'window over but still locked');
    await s.loginFailures.clear('a@example.com');
    assert.equal(await s.loginFailures.find('a@example.com'), undefined);
    await s.loginFailures.recordAttempt('b@example.com', now);
    assert.equal(await s.loginFailures.purgeExpired(new Date(now.getTime() + 899_000)), 0, 'window still open');
    assert.equal(await s.loginFailures.purgeExpired(new Date(now.getTime() + 900_000)), 1);

    assert.equal(await s.oauth.consentedScopes(u.userId, app.id), undefined);
    await s.oauth.grantConsent(u.userId, app.id, ['signature'], now);
    await s.oauth.grantConsent(u.userId, app.id, ['impersonation', 'signature'], now);
    assert.deepEqual(await s.oauth.consentedScopes(u.userId, app.id), ['impersonation', 'signature']);
  });
}

describe('store on SQLite', () => storeSuite(sqlite));

describe('store on PostgreSQL (a throwaway cluster)', () => {
  let cluster: PostgresCluster | undefined;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());

  test('postgres: a connection the server ends between two queries of a transaction fails that transaction, not the process', async (t) => {
    if (!cluster) throw new Error('cluster not started');
    const db = openDatabase(await postgres(() => cluster!).fresh(t));
    t.after(() => db.close());
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    t.after(() => admin.end());
    // What a database restart or failover does to a connection the pool has lent out: its
    // backend ends while the transaction waits between queries. node-postgres then emits
    // 'error' on a client no one listens to, which ended the process.
    await assert.rejects(db.transaction(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      const pid = rows[0]!.pid;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await pollUntil(async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 0, { timeoutMs: 10_000, what: 'the backend gone' });
      await sql`select 1`.execute(trx);
    }));
    // The pool dropped the broken connection: the next work gets a new one.
    assert.equal(await db.transaction(async (trx) => (await sql<{ one: number }>`select 1 as one`.execute(trx)).rows[0]?.one), 1);
  });

  storeSuite(postgres(() => {
    if (!cluster) throw new Error('cluster not started');
    return cluster;
  }));
});
