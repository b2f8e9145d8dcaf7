import type { Migration } from './migrations.ts';

/**
 * The single-use URLs of the sender, edit and console views (restapi/views): a bearer secret
 * (stored as SHA-256) that signs the API's user into the console for one envelope or the
 * console's home. `id` is not secret: the console page names its view by it, so the returnUrl
 * is read from here and never from the page's URL.
 */
export type AccountViewRow = {
  id: string;
  token_hash: string;
  account_id: string;
  user_id: string;
  /** sender | edit | console | correct */
  kind: string;
  envelope_id: string | null;
  /** The sender view's Send: `send` it, or `redirect` to the returnUrl with event=Send unsent. */
  send_action: string;
  /** Null: the page's buttons stay in the console. */
  return_url: string | null;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
};

export type AccountViewTables = { account_views: AccountViewRow };

/** Version 91: account views (version 90 is the focused views' columns, signing-tables.ts). */
export const ACCOUNT_VIEW_TABLES_MIGRATION: Migration = {
  version: 91,
  name: 'sender, edit and console views: single-use URLs into the console',
  async up(db) {
    await db.schema.createTable('account_views')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('envelope_id', 'text')
      .addColumn('send_action', 'text', (c) => c.notNull())
      .addColumn('return_url', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();
    await db.schema.createIndex('account_views_expiry_idx').on('account_views').column('expires_at').execute();
  },
};
