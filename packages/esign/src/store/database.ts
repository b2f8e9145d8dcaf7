import { existsSync } from 'node:fs';
import { ensurePrivateDir, ensurePrivateFile } from '@signet/kit';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Engine } from './migrations.ts';
import type { Database } from './schema.ts';

/** Where the store lives: SQLite file in a directory, or a PostgreSQL URL. */
export type DatabaseLocation = { databaseUrl: string } | { sqliteFile: string };

/** The one database handle of a process. */
export type Db = {
  readonly kysely: Kysely<Database>;
  readonly engine: Engine;
  /**
   * Runs `fn` in one transaction. On SQLite it is `BEGIN IMMEDIATE`: several processes share
   * the file, and a deferred transaction that reads then writes can fail with SQLITE_BUSY
   * where an immediate one waits its turn on busy_timeout. Inside, use only `trx`.
   */
  transaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** The SQLite file name under DATA_DIR. */
export const SQLITE_FILE_NAME = 'esign.sqlite';

/** The SQLite file for a data directory (both created if missing, private: 0700 and 0600). */
export function sqliteFileIn(dataDir: string): string {
  ensurePrivateDir(dataDir);
  const file = join(dataDir, SQLITE_FILE_NAME);
  // Before SQLite opens it: its -wal and -shm files are created with the main file's mode.
  ensurePrivateFile(file);
  for (const side of ['-wal', '-shm']) if (existsSync(file + side)) ensurePrivateFile(file + side);
  return file;
}

/** Opens the database (no migrations: see runMigrations). */
export function openDatabase(location: DatabaseLocation): Db {
  if ('databaseUrl' in location) {
    const pool = new pg.Pool({ connectionString: location.databaseUrl, max: 10 });
    // A dropped idle connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    // pg-pool listens for errors only on idle clients: a lent-out one whose backend ends between
    // two queries of a transaction (a database restart, a failover) emitted 'error' with no
    // listener, which ended the process. Its next query fails instead (the transaction rolls
    // back), and the pool drops the broken client when it comes back.
    pool.on('connect', (client) => client.on('error', () => {}));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      engine: 'postgres',
      transaction: (fn) => kysely.transaction().execute((trx: Transaction<Database>) => fn(trx)),
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
      close: () => kysely.destroy(),
    };
  }
  // `timeout` is SQLite's busy_timeout, set at open so that even the first pragma below waits
  // when another process holds the lock (two instances opening a fresh file at once).
  const file = new BetterSqlite3(location.sqliteFile, { timeout: 10_000 });
  // WAL lets readers and one writer work at once across processes; busy_timeout makes a
  // second writer wait for the lock instead of failing at once.
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('synchronous = NORMAL');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return {
    kysely,
    engine: 'sqlite',
    transaction: (fn) =>
      kysely.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (err) {
          await sql`rollback`.execute(conn);
          throw err;
        }
      }),
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: () => kysely.destroy(),
  };
}
