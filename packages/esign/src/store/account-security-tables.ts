import type { Migration } from './migrations.ts';

/** Account security's schema steps (listed in order in migrations.ts): JWT assertions already used (replay), e-mail verification of sign-ups. */
export const JWT_ASSERTIONS_MIGRATION: Migration = {
  version: 50,
  name: 'JWT assertion ids used, kept until the assertion expires',
  async up(db) {
    await db.schema.createTable('jwt_assertions')
      .addColumn('app_id', 'text', (c) => c.notNull())
      .addColumn('jti', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('jwt_assertions_pk', ['app_id', 'jti'])
      .execute();
    await db.schema.createIndex('jwt_assertions_expiry_idx').on('jwt_assertions').column('expires_at').execute();
  },
};

export const SIGNUP_REQUESTS_MIGRATION: Migration = {
  version: 51,
  name: 'sign-up requests waiting for their e-mail to be verified',
  async up(db) {
    await db.schema.createTable('signup_requests')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      // null for the "you already have an account" notice: that row only counts toward the mail limit.
      .addColumn('password_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();
    await db.schema.createIndex('signup_requests_email_idx').on('signup_requests').columns(['email', 'created_at']).execute();
  },
};
