import { sql, type Kysely } from 'kysely';
import { JWT_ASSERTIONS_MIGRATION, SIGNUP_REQUESTS_MIGRATION } from './account-security-tables.ts';
import { CONNECT_INCLUDE_DOCUMENTS_MIGRATION, CONNECT_TABLES_MIGRATION } from './connect-tables.ts';
import { ENVELOPE_CUSTOM_FIELDS_MIGRATION, ENVELOPE_DELETED_AT_MIGRATION, ENVELOPE_TAB_FAMILY_MIGRATION, ENVELOPE_TABLES_MIGRATION } from './envelope-tables.ts';
import { EVIDENCE_TABLES_MIGRATION } from './evidence-tables.ts';
import { DEV_MAILBOX_MESSAGE_ID_MIGRATION, MAIL_OUTBOX_ACCOUNT_MIGRATION } from './mail-tables.ts';
import { SEND_ALLOWANCE_MIGRATION } from './send-allowance.ts';
import { API_USAGE_MIGRATION } from './api-usage-repository.ts';
import { NOTIFICATION_BACKFILL_MIGRATION, NOTIFICATION_TABLES_MIGRATION } from './notification-tables.ts';
import type { Database } from './schema.ts';
import { COMPLETION_FAILURES_MIGRATION, SIGNING_FRAME_MIGRATION, SIGNING_TABLES_MIGRATION } from './signing-tables.ts';
import { TEMPLATE_ENVELOPE_DEFAULTS_MIGRATION, TEMPLATE_TABLES_MIGRATION } from './template-tables.ts';
import { WORKFLOW_TABLES_MIGRATION } from './workflow-tables.ts';
import { ACCESS_CODE_TABLES_MIGRATION } from './access-code-tables.ts';
import { ACCOUNT_VIEW_TABLES_MIGRATION } from './account-view-tables.ts';
import { PASSCODE_TABLES_MIGRATION } from './passcode-tables.ts';
import { RECIPIENT_HOST_MIGRATION } from './recipient-host-columns.ts';
import { RECIPIENT_AGENT_FLAGS_MIGRATION } from './recipient-agent-flags-columns.ts';
import { RECIPIENT_LANGUAGE_MIGRATION } from './recipient-language-column.ts';
import { RECIPIENT_WITNESS_MIGRATION } from './recipient-witness-column.ts';
import { PASSCODE_ASKED_AS_MIGRATION } from './passcode-asked-as-column.ts';
import { DOCUMENT_SUPPLEMENT_MIGRATION } from './document-supplement-columns.ts';
import { DOCUMENT_VISIBILITY_MIGRATION } from './document-visibility-columns.ts';
import { TEMPLATE_RECIPIENT_DETAILS_MIGRATION } from './template-recipient-details-columns.ts';
import { BRAND_TABLES_MIGRATION } from './brand-tables.ts';
import { ACCOUNT_SETTINGS_MIGRATION } from './account-settings-tables.ts';
import { BULK_SEND_TABLES_MIGRATION } from './bulk-send-tables.ts';
import { RECIPIENT_ROLE_NAME_MIGRATION } from './recipient-role-name-column.ts';
import { USER_ADMIN_MIGRATION } from './user-admin-tables.ts';
import { ACCOUNT_CUSTOM_FIELDS_MIGRATION } from './account-custom-field-tables.ts';
import { ENVELOPE_ID_STAMPING_MIGRATION } from './envelope-id-stamping-column.ts';
import { INVITATION_ACTIVATION_CODE_MIGRATION, USER_AUTHORIZATIONS_MIGRATION } from './user-authorization-tables.ts';

export type Engine = 'sqlite' | 'postgres';

/** One schema step. Versions only grow; a released migration is never edited. */
export type Migration = { version: number; name: string; up: (db: Kysely<Database>) => Promise<void> };

/**
 * The schema's history, in order; each step is defined beside the tables it makes. Versions
 * only grow (the gaps are from when each feature had a range of its own; released numbers stay).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, users, apps, sessions, oauth',
    async up(db) {
      const s = db.schema;
      await s.createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s.createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s.createTable('memberships')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'account_id'])
        .execute();
      await s.createTable('apps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s.createIndex('apps_account_idx').on('apps').column('account_id').execute();
      await s.createTable('app_secrets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await s.createIndex('app_secrets_app_idx').on('app_secrets').column('app_id').execute();
      await s.createTable('app_redirect_uris')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('uri', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_redirect_uris_pk', ['app_id', 'uri'])
        .execute();
      await s.createTable('app_rsa_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('public_key_pem', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await s.createIndex('app_rsa_keys_app_idx').on('app_rsa_keys').column('app_id').execute();
      await s.createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await s.createTable('consents')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('consents_pk', ['user_id', 'app_id'])
        .execute();
      await s.createTable('auth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('consumed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s.createTable('tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s.createIndex('tokens_grant_idx').on('tokens').column('grant_id').execute();
    },
  },
  // Envelopes, recipients, tabs, signing tokens, mail outbox, dev mailbox (store/envelope-tables.ts).
  ENVELOPE_TABLES_MIGRATION,
  {
    version: 3,
    name: 'login throttle',
    async up(db) {
      await db.schema.createTable('login_failures')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('first_failed_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .execute();
    },
  },
  // Audit trail, adopted signatures, completion results, recipient views (store/signing-tables.ts).
  SIGNING_TABLES_MIGRATION,
  // Completion failures and their backoff (store/signing-tables.ts).
  COMPLETION_FAILURES_MIGRATION,
  CONNECT_TABLES_MIGRATION,
  CONNECT_INCLUDE_DOCUMENTS_MIGRATION,
  NOTIFICATION_TABLES_MIGRATION,
  NOTIFICATION_BACKFILL_MIGRATION,
  DEV_MAILBOX_MESSAGE_ID_MIGRATION,
  JWT_ASSERTIONS_MIGRATION,
  SIGNUP_REQUESTS_MIGRATION,
  // Templates, their documents and roles (store/template-tables.ts).
  TEMPLATE_TABLES_MIGRATION,
  // Every tab type, its spec as JSON and its value (store/envelope-tables.ts).
  ENVELOPE_TAB_FAMILY_MIGRATION,
  // The evidence upgrade queue and sealed file hashes (store/evidence-tables.ts).
  EVIDENCE_TABLES_MIGRATION,
  // The recycle bin (store/envelope-tables.ts).
  ENVELOPE_DELETED_AT_MIGRATION,
  // Scheduled sending, pauses and delayed routing (store/workflow-tables.ts).
  WORKFLOW_TABLES_MIGRATION,
  // Signers' access codes and the grants a right code earns (store/access-code-tables.ts).
  ACCESS_CODE_TABLES_MIGRATION,
  // One-time passcode checks, the development text outbox (store/passcode-tables.ts).
  PASSCODE_TABLES_MIGRATION,
  // An in-person signer's host (store/recipient-host-columns.ts).
  RECIPIENT_HOST_MIGRATION,
  // 90: focused views (signing-tables.ts).
  SIGNING_FRAME_MIGRATION,
  // 91: sender, edit and console views (account-view-tables.ts).
  ACCOUNT_VIEW_TABLES_MIGRATION,
  // 92: envelope custom fields (store/envelope-tables.ts).
  ENVELOPE_CUSTOM_FIELDS_MIGRATION,
  // 97: brands, their logo images, envelope and template brands (store/brand-tables.ts).
  BRAND_TABLES_MIGRATION,
  // 98: template custom fields and notification defaults (store/template-tables.ts).
  TEMPLATE_ENVELOPE_DEFAULTS_MIGRATION,
  // 99: a recipient's language (store/recipient-language-column.ts).
  RECIPIENT_LANGUAGE_MIGRATION,
  // 100: what an agent may change of a recipient (store/recipient-agent-flags-columns.ts).
  RECIPIENT_AGENT_FLAGS_MIGRATION,
  // 110: account settings and account administrators (store/account-settings-tables.ts).
  ACCOUNT_SETTINGS_MIGRATION,
  // 130: the signer a witness witnesses (store/recipient-witness-column.ts).
  RECIPIENT_WITNESS_MIGRATION,
  // 131: supplemental documents, the document of an audit line (store/document-supplement-columns.ts).
  DOCUMENT_SUPPLEMENT_MIGRATION,
  // 132: enforceSignerVisibility and a recipient's excludedDocuments (store/document-visibility-columns.ts).
  DOCUMENT_VISIBILITY_MIGRATION,
  // 140: users, groups, permission profiles, invitations (store/user-admin-tables.ts).
  USER_ADMIN_MIGRATION,
  // 150, 151: bulk send lists and batches, a recipient's roleName (store/bulk-send-tables.ts, recipient-role-name-column.ts).
  BULK_SEND_TABLES_MIGRATION,
  RECIPIENT_ROLE_NAME_MIGRATION,
  // 152: account custom fields (store/account-custom-field-tables.ts).
  ACCOUNT_CUSTOM_FIELDS_MIGRATION,
  // 153: envelopeIdStamping (store/envelope-id-stamping-column.ts).
  ENVELOPE_ID_STAMPING_MIGRATION,
  // 170: template roles of every recipient type, template document visibility (store/template-recipient-details-columns.ts).
  TEMPLATE_RECIPIENT_DETAILS_MIGRATION,
  // 190, 191: user authorizations and their use (shared access), invitation activation codes (store/user-authorization-tables.ts).
  USER_AUTHORIZATIONS_MIGRATION,
  INVITATION_ACTIVATION_CODE_MIGRATION,
  // 200: the mail outbox row's account, for serving accounts in turn (store/mail-tables.ts).
  MAIL_OUTBOX_ACCOUNT_MIGRATION,
  // 210: what each account's sends reached, hour by hour, against its send allowance (store/send-allowance.ts).
  SEND_ALLOWANCE_MIGRATION,
  // 211: every instance's API calls per account and hour, pooled (store/api-usage-repository.ts).
  API_USAGE_MIGRATION,
  // 215: how the sender asked for a one-time passcode check (store/passcode-asked-as-column.ts).
  PASSCODE_ASKED_AS_MIGRATION,
];

/** Applies the missing migrations (all inside the caller's locked transaction). */
async function applyPending(db: Kysely<Database>, migrations: readonly Migration[], now: () => Date): Promise<number[]> {
  await db.schema.createTable('signet_migrations').ifNotExists()
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
  const done = new Set((await db.selectFrom('signet_migrations').select('version').execute()).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    await m.up(db);
    await db.insertInto('signet_migrations').values({ version: m.version, name: m.name, applied_at: now().toISOString() }).execute();
    applied.push(m.version);
  }
  return applied;
}

// Any constant; the advisory lock only has to be the same in every process.
const PG_MIGRATION_LOCK = 5_190_317;

/**
 * Runs the pending migrations, serialized across processes: several esign instances start at
 * once on one SQLite file (packages/system/src/plan.ts) or one PostgreSQL database.
 * SQLite: `BEGIN IMMEDIATE` takes the write lock up front, so a second process waits on
 * busy_timeout instead of failing a read-to-write upgrade. PostgreSQL: a transaction-scoped
 * advisory lock. Both engines have transactional DDL, so a failed step leaves nothing behind.
 * Returns the versions this call applied.
 */
export async function runMigrations(
  db: Kysely<Database>,
  engine: Engine,
  { migrations = MIGRATIONS, now = () => new Date() }: { migrations?: readonly Migration[]; now?: () => Date } = {},
): Promise<number[]> {
  if (engine === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(trx);
      return applyPending(trx, migrations, now);
    });
  }
  // better-sqlite3 behind Kysely is one connection; hold it for the whole migration.
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const applied = await applyPending(conn, migrations, now);
      await sql`commit`.execute(conn);
      return applied;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}
