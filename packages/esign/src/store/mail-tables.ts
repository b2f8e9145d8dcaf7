import { sql } from 'kysely';
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

/**
 * Outbox rows name their account, so the worker can serve accounts in turn
 * (store/outbox-repository.ts). Mail of no account (sign-up verification) keeps NULL, its own
 * turn. Rows written before this step get their envelope's account; the rest stay NULL. The
 * index serves the claim's walk over accounts.
 */
export const MAIL_OUTBOX_ACCOUNT_MIGRATION: Migration = {
  version: 200,
  name: 'mail outbox rows know their account',
  async up(db) {
    await db.schema.alterTable('mail_outbox').addColumn('account_id', 'text').execute();
    // A claim walks the accounts with pending mail and reads each one's oldest due rows along it.
    await db.schema.createIndex('mail_outbox_lane_idx').on('mail_outbox').columns(['status', 'account_id', 'next_attempt_at']).execute();
    await sql`update mail_outbox set account_id = (select e.account_id from envelopes e where e.id = mail_outbox.envelope_id)
      where envelope_id is not null and status = 'pending'`.execute(db);
  },
};
