import type { Migration } from './migrations.ts';

/**
 * Bulk send (domain/bulk-send): lists with one row per copy, and batches whose rows are the
 * list's copies at the time of sending (a list edited later leaves a running batch alone).
 * A batch row is claimed by one worker at a time (lease, as mail_outbox), and its envelope id is
 * fixed by batch and row (domain/bulk-send/send-bulk-copy.ts), so each row makes one envelope.
 * Same conventions as schema.ts: ISO-8601 UTC text timestamps.
 */
export type BulkSendListRow = { id: string; account_id: string; name: string; created_by: string; created_at: string; copy_count: number };
export type BulkSendListCopyRow = { list_id: string; row_no: number; copy_json: string };
export type BulkSendBatchRow = {
  id: string;
  account_id: string;
  name: string;
  list_id: string;
  list_name: string;
  source_envelope_id: string;
  sender_user_id: string;
  size: number;
  submitted_at: string;
};
export type BulkSendBatchCopyRow = {
  id: string;
  batch_id: string;
  account_id: string;
  row_no: number;
  copy_json: string;
  /** queued, sent or failed. */
  status: string;
  envelope_id: string | null;
  error: string | null;
  claimed_by: string | null;
  lease_until: string | null;
  finished_at: string | null;
};

export type BulkSendTables = {
  bulk_send_lists: BulkSendListRow;
  bulk_send_list_copies: BulkSendListCopyRow;
  bulk_send_batches: BulkSendBatchRow;
  bulk_send_batch_rows: BulkSendBatchCopyRow;
};

export const BULK_SEND_TABLES_MIGRATION: Migration = {
  version: 150,
  name: 'bulk send lists, batches and their rows',
  async up(db) {
    const s = db.schema;
    await s.createTable('bulk_send_lists')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('copy_count', 'integer', (c) => c.notNull())
      .execute();
    await s.createIndex('bulk_send_lists_account_idx').on('bulk_send_lists').column('account_id').execute();
    await s.createTable('bulk_send_list_copies')
      .addColumn('list_id', 'text', (c) => c.notNull().references('bulk_send_lists.id'))
      .addColumn('row_no', 'integer', (c) => c.notNull())
      .addColumn('copy_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('bulk_send_list_copies_pk', ['list_id', 'row_no'])
      .execute();
    await s.createTable('bulk_send_batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('list_id', 'text', (c) => c.notNull())
      .addColumn('list_name', 'text', (c) => c.notNull())
      .addColumn('source_envelope_id', 'text', (c) => c.notNull())
      .addColumn('sender_user_id', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('submitted_at', 'text', (c) => c.notNull())
      .execute();
    await s.createIndex('bulk_send_batches_account_idx').on('bulk_send_batches').columns(['account_id', 'submitted_at']).execute();
    await s.createTable('bulk_send_batch_rows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('batch_id', 'text', (c) => c.notNull().references('bulk_send_batches.id'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('row_no', 'integer', (c) => c.notNull())
      .addColumn('copy_json', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('envelope_id', 'text')
      .addColumn('error', 'text')
      .addColumn('claimed_by', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('finished_at', 'text')
      .execute();
    await s.createIndex('bulk_send_batch_rows_batch_idx').on('bulk_send_batch_rows').columns(['batch_id', 'row_no']).execute();
    await s.createIndex('bulk_send_batch_rows_queue_idx').on('bulk_send_batch_rows').columns(['status', 'account_id']).execute();
  },
};
