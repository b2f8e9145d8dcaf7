import { PostgresAdapter } from 'kysely';
import type { Migration } from './migrations.ts';

/**
 * A user authorization (DocuSign's UserAuthorization): the agent may act for the principal in
 * the account, at `permission`, from `start_date` until `end_date` (null: open-ended). Dates are
 * ISO-8601 UTC text, as everywhere in this store.
 */
export type UserAuthorizationRow = {
  id: string; account_id: string; principal_user_id: string; agent_user_id: string; permission: string;
  start_date: string; end_date: string | null; created_at: string; created_by: string; modified_at: string; modified_by: string;
};
/** One request an agent made as a principal (X-DocuSign-Act-On-Behalf): append-only. */
export type SharedAccessEventRow = {
  seq?: number; at: string; account_id: string; agent_user_id: string; principal_user_id: string; authorization_id: string;
  method: string; route: string; status_code: number;
};

export type UserAuthorizationTables = {
  user_authorizations: UserAuthorizationRow;
  shared_access_events: SharedAccessEventRow;
};

/** Shared access (docs/esign-shared-access.md): user authorizations and the audit of their use. */
export const USER_AUTHORIZATIONS_MIGRATION: Migration = {
  version: 190,
  name: 'user authorizations and shared access events',
  async up(db) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.createTable('user_authorizations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('principal_user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('agent_user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('permission', 'text', (c) => c.notNull())
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('modified_at', 'text', (c) => c.notNull())
      .addColumn('modified_by', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_authorizations_principal').on('user_authorizations').columns(['account_id', 'principal_user_id']).execute();
    await db.schema.createIndex('user_authorizations_agent').on('user_authorizations').columns(['account_id', 'agent_user_id']).execute();
    await db.schema.createTable('shared_access_events')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('agent_user_id', 'text', (c) => c.notNull())
      .addColumn('principal_user_id', 'text', (c) => c.notNull())
      .addColumn('authorization_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('shared_access_events_account').on('shared_access_events').columns(['account_id', 'seq']).execute();
  },
};

/**
 * An invitation may carry an activation code (UsersApi.create `activationAccessCode`): the
 * invited user must type it to activate. Only its scrypt hash is kept; `code_failures` counts
 * wrong tries, and too many retire the link.
 */
export const INVITATION_ACTIVATION_CODE_MIGRATION: Migration = {
  version: 191,
  name: 'invitation activation codes',
  async up(db) {
    await db.schema.alterTable('user_invitations').addColumn('activation_code_hash', 'text').execute();
    await db.schema.alterTable('user_invitations').addColumn('code_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
