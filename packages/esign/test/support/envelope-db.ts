import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, type TestContext } from 'node:test';
import pg from 'pg';
import { openDatabase, runMigrations, MIGRATIONS, sqliteFileIn, type Db, type DatabaseLocation } from '../../src/store/index.ts';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.ts';

/** A fresh SQLite file in a temp dir, removed in teardown. */
export function freshSqlite(t: TestContext): DatabaseLocation {
  const dir = mkdtempSync(join(tmpdir(), 'signet-envelopes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return { sqliteFile: sqliteFileIn(dir) };
}

/** A fresh database in a running PostgreSQL cluster. */
export async function freshPostgres(cluster: PostgresCluster): Promise<DatabaseLocation> {
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return { databaseUrl: cluster.url(name) };
}

/** Opens a migrated database handle, closed in teardown. */
export async function openMigrated(t: TestContext, location: DatabaseLocation): Promise<Db> {
  const db = openDatabase(location);
  t.after(() => db.close());
  await runMigrations(db.kysely, db.engine, { migrations: MIGRATIONS });
  return db;
}

/** One database engine a store test runs on: its name and a fresh location per test. */
export type StoreEngine = { readonly name: string; readonly location: (t: TestContext) => Promise<DatabaseLocation> };

/**
 * SQLite and PostgreSQL for the tests of one describe() block. Call it inside the block: it
 * starts a PostgreSQL cluster before them and stops it after. `postgres` makes each test's
 * PostgreSQL database (default: a fresh one in the cluster).
 */
export function bothEngines(postgres: { name: string; database: (cluster: PostgresCluster) => Promise<DatabaseLocation> } = { name: 'postgres', database: freshPostgres }): StoreEngine[] {
  let cluster: PostgresCluster | undefined;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());
  return [
    { name: 'sqlite', location: (t) => Promise.resolve(freshSqlite(t)) },
    { name: postgres.name, location: () => (cluster ? postgres.database(cluster) : Promise.reject(new Error('no cluster'))) },
  ];
}
