import type { Migration } from './migrations.ts';

/**
 * Connect (event notifications): account configurations, HMAC keys, envelopes' own
 * eventNotification, and the delivery outbox. Same conventions as schema.ts: ISO-8601 UTC
 * text timestamps, 0/1 flags; subscriptions are stored as the JSON of EventSubscription.
 */
export type ConnectConfigurationRow = {
  connect_id: string;
  account_id: string;
  name: string;
  enabled: number;
  /** The ConnectConfiguration minus its ids, as JSON. */
  configuration_json: string;
  created_at: string;
  updated_at: string;
};
export type ConnectHmacKeyRow = {
  key_id: string;
  account_id: string;
  /** The secret sealed by connect/secret-box.ts (AES-256-GCM under the service's key). */
  sealed_secret: string;
  /** Its last four characters, to tell keys apart in the console. */
  hint: string;
  created_at: string;
  revoked_at: string | null;
};
export type ConnectEnvelopeNotificationRow = {
  envelope_id: string;
  account_id: string;
  subscription_json: string;
  created_at: string;
};
export type ConnectDeliveryRow = {
  id: string;
  account_id: string;
  envelope_id: string;
  recipient_id: string | null;
  event: string;
  /** Position within its change: deliveries of one change go out in the order they happened. */
  seq: number;
  /** The configuration's connectId, or "0" for the envelope's own eventNotification. */
  configuration_id: string;
  url: string;
  include_hmac: number;
  /** includeDocuments: the worker adds each document's PDFBytes to the summary when it sends (migration 21). */
  include_documents: number;
  /** The SIM message without retryCount (connect/build-connect-message.ts). */
  message_json: string;
  /** pending → delivered; failed after the last attempt; discarded when deleted from the failure log. */
  status: string;
  attempts: number;
  /** Attempts made before the last republish: the retry budget counts from here. */
  attempts_base: number;
  next_attempt_at: string;
  claimed_by: string | null;
  lease_until: string | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
};

/** The Connect tables as Kysely sees them (part of the Database type, schema.ts). */
export type ConnectTables = {
  connect_configurations: ConnectConfigurationRow;
  connect_hmac_keys: ConnectHmacKeyRow;
  connect_envelope_notifications: ConnectEnvelopeNotificationRow;
  connect_deliveries: ConnectDeliveryRow;
};

/** Connect's schema steps (listed in order in migrations.ts). `db` is the migration's transaction. */
export const CONNECT_TABLES_MIGRATION: Migration = {
  version: 20,
  name: 'connect configurations, hmac keys, envelope notifications, deliveries',
  async up(db) {
    const s = db.schema;
    await s.createTable('connect_configurations')
      .addColumn('connect_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('configuration_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await s.createIndex('connect_configurations_account_idx').on('connect_configurations').column('account_id').execute();
    await s.createTable('connect_hmac_keys')
      .addColumn('key_id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('sealed_secret', 'text', (c) => c.notNull())
      .addColumn('hint', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await s.createIndex('connect_hmac_keys_account_idx').on('connect_hmac_keys').column('account_id').execute();
    await s.createTable('connect_envelope_notifications')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('subscription_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await s.createTable('connect_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('envelope_id', 'text', (c) => c.notNull())
      .addColumn('recipient_id', 'text')
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('configuration_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('include_hmac', 'integer', (c) => c.notNull())
      .addColumn('message_json', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('attempts_base', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute();
    // The worker's claim scans pending rows in due order; the failure log and republish go by account and envelope.
    await s.createIndex('connect_deliveries_due_idx').on('connect_deliveries').columns(['status', 'next_attempt_at']).execute();
    await s.createIndex('connect_deliveries_account_idx').on('connect_deliveries').columns(['account_id', 'envelope_id']).execute();
  },
};

export const CONNECT_INCLUDE_DOCUMENTS_MIGRATION: Migration = {
  version: 21,
  name: 'connect deliveries carry includeDocuments',
  async up(db) {
    await db.schema.alterTable('connect_deliveries')
      .addColumn('include_documents', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
