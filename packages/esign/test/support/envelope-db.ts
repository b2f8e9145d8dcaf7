import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { openDatabase, runMigrations, MIGRATIONS, sqliteFileIn, type Db, type DatabaseLocation } from '../../src/store/index.ts';
import type { PostgresCluster } from './postgres-cluster.ts';


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
