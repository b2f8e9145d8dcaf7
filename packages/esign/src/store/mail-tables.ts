import type { Migration } from './migrations.ts';

/** Mail delivery's schema step (listed in order in migrations.ts). `db` is the migration's transaction. */
export const DEV_MAILBOX_MESSAGE_ID_MIGRATION: Migration = {
  version: 40,
  name: 'dev mailbox keeps one message per Message-ID',
  async up(db) {
    const s = db.schema;
    // Messages stored before this step have none (NULL); unique indexes allow many NULLs on
    // SQLite and PostgreSQL alike.
    await s.alterTable('dev_mailbox').addColumn('message_id', 'text').execute();
    await s.createIndex('dev_mailbox_message_id_idx').on('dev_mailbox').column('message_id').unique().execute();
  },
};
