import { AccountsRepository } from './accounts-repository.ts';
import { AppsRepository } from './apps-repository.ts';
import { LoginFailuresRepository } from './login-failures-repository.ts';
import { openDatabase, sqliteFileIn, type Db, type DatabaseLocation } from './database.ts';
import { runMigrations } from './migrations.ts';
import { OAuthRepository } from './oauth-repository.ts';
import { SessionsRepository } from './sessions-repository.ts';
import { SignupRequestsRepository } from './signup-requests-repository.ts';

/** The repositories over one database handle; only store/ touches storage. */
export type Store = {
  readonly db: Db;
  readonly accounts: AccountsRepository;
  readonly apps: AppsRepository;
  readonly sessions: SessionsRepository;
  readonly oauth: OAuthRepository;
  readonly loginFailures: LoginFailuresRepository;
  readonly signups: SignupRequestsRepository;
  close(): Promise<void>;
};

/** Where the store lives for a config: PostgreSQL when DATABASE_URL is set, else the SQLite file in DATA_DIR. */
export function storeLocation(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseLocation {
  return config.databaseUrl ? { databaseUrl: config.databaseUrl } : { sqliteFile: sqliteFileIn(config.dataDir) };
}

/** Opens the database, runs pending migrations (serialized across processes), returns the repositories. */
export async function openStore(location: DatabaseLocation): Promise<Store> {
  const db = openDatabase(location);
  try {
    await runMigrations(db.kysely, db.engine);
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    db,
    accounts: new AccountsRepository(db),
    apps: new AppsRepository(db),
    sessions: new SessionsRepository(db),
    oauth: new OAuthRepository(db),
    loginFailures: new LoginFailuresRepository(db),
    signups: new SignupRequestsRepository(db),
    close: () => db.close(),
  };
}

export { openDatabase, sqliteFileIn, SQLITE_FILE_NAME, type Db, type DatabaseLocation } from './database.ts';
export { runMigrations, MIGRATIONS, type Engine, type Migration } from './migrations.ts';
export type { UserAccount } from './accounts-repository.ts';
export type { SecretInfo, RsaKeyInfo } from './apps-repository.ts';
