import type { Kysely } from 'kysely';
import type { EnvelopeTables } from './envelope-tables.ts';
import type { Migration } from './migrations.ts';

/**
 * Mail delivery's schema steps (issue 10, reliability), versions 40-49 (this file owns that
 * range; registered in migrations.ts). `db` is the migration's transaction.
 */
export const MAIL_MIGRATIONS: readonly Migration[] = [
  {
    version: 40,
    name: 'dev mailbox keeps one message per Message-ID',
    async up(untyped) {
      const s = (untyped as unknown as Kysely<EnvelopeTables>).schema;
      // Messages stored before this step have none (NULL); unique indexes allow many NULLs on
      // SQLite and PostgreSQL alike.
      await s.alterTable('dev_mailbox').addColumn('message_id', 'text').execute();
      await s.createIndex('dev_mailbox_message_id_idx').on('dev_mailbox').column('message_id').unique().execute();
    },
  },
];
