import { PostgresAdapter } from 'kysely';
import type { Migration } from './migrations.ts';

/**
 * Tables of envelopes, their documents, recipients and tabs, signing tokens, the mail outbox
 * and the dev mailbox. Same conventions as schema.ts: ISO-8601 UTC text timestamps, 0/1 flags.
 */
export type EnvelopeRow = {
  id: string;
  account_id: string;
  sender_user_id: string;
  status: string;
  email_subject: string;
  email_blurb: string | null;
  created_at: string;
  status_changed_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  completed_at: string | null;
  declined_at: string | null;
  voided_at: string | null;
  voided_reason: string | null;
  version: number;
  /** In the recycle bin since (FoldersApi.moveEnvelopes); null otherwise. */
  deleted_at: string | null;
  /** Migration 132 (document-visibility-columns.ts): 1 when enforceSignerVisibility. */
  enforce_signer_visibility?: number | null;
  /** Migration 153 (envelope-id-stamping-column.ts): 1 when envelopeIdStamping. */
  envelope_id_stamping?: number | null;
};
/** An envelope custom field (domain/envelope/custom-fields.ts); list_items is a JSON array for list fields. */
export type EnvelopeCustomFieldRow = {
  envelope_id: string;
  field_id: string;
  field_order: number;
  kind: string;
  name: string;
  value: string;
  show: number;
  required: number;
  list_items_json: string | null;
};
export type EnvelopeDocumentRow = {
  envelope_id: string;
  document_id: string;
  name: string;
  file_extension: string;
  doc_order: number;
  page_count: number;
  sha256: string;
  pdf: Uint8Array;
  /** Migration 131 (document-supplement-columns.ts): null for an inline document. */
  supplement_json?: string | null;
};
export type EnvelopeRecipientRow = {
  envelope_id: string;
  recipient_id: string;
  recipient_id_guid: string;
  /** Position in the request (signers first, then carbon copies), kept for reads. */
  recipient_order: number;
  type: string;
  email: string;
  name: string;
  routing_order: number;
  status: string;
  client_user_id: string | null;
  /** Signer.roleName (store/recipient-role-name-column.ts); undefined on rows read before it. */
  role_name?: string | null;
  /** An in-person signer's host (store/recipient-host-columns.ts). */
  host_name: string | null;
  host_email: string | null;
  /** A recipient's language (store/recipient-language-column.ts). */
  language: string | null;
  /** What an earlier agent may change (store/recipient-agent-flags-columns.ts). */
  agent_can_edit_name: number | null;
  agent_can_edit_email: number | null;
  /** A witness's signer (store/recipient-witness-column.ts). */
  witness_for: string | null;
  /** Migration 132 (document-visibility-columns.ts): a JSON array of documentIds, null for none. */
  excluded_documents_json?: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  signed_at: string | null;
  completed_at: string | null;
  declined_at: string | null;
  declined_reason: string | null;
};
export type EnvelopeTabRow = {
  tab_id: string;
  envelope_id: string;
  recipient_id: string;
  document_id: string;
  tab_order: number;
  page_number: number;
  x_position: number;
  y_position: number;
  /** The AnchorSpec as JSON when the tab came from an anchor. */
  anchor_json: string | null;
  tab_label: string | null;
  name: string | null;
  optional: number;
  scale_value: number | null;
  /**
   * The tab as asked (domain/tabs/tab.ts Tab) as JSON (store/placed-tab-json.ts), since the tab
   * family (version 70); NULL on older rows, which are signHere tabs described by the columns above.
   */
  tab_json: string | null;
  /** The tab's current value as the wire carries it; NULL on older rows (a signHere tab has none). */
  value: string | null;
  /** A radio group's radios, each with its tabId and spot (PlacedRadio[]) as JSON; NULL otherwise. */
  radios_json: string | null;
};
export type SigningTokenRow = { token_hash: string; envelope_id: string; recipient_id: string; purpose: string; created_at: string; consumed_at: string | null };
export type MailOutboxRow = {
  id: string;
  envelope_id: string | null;
  /** Whose mail it is (the outbox serves accounts in turn); NULL for mail of no account, such as sign-up. */
  account_id: string | null;
  kind: string;
  recipient_email: string;
  /** The rendered MailMessage; cleared once delivered (it may hold a signing link). */
  message_json: string | null;
  /** pending → delivered, or dead after the last attempt. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  claimed_by: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
};
export type DevMailboxRow = {
  id: string;
  received_at: string;
  kind: string;
  envelope_id: string | null;
  to_email: string;
  to_name: string;
  subject: string;
  text_body: string;
  html_body: string;
  attachments_json: string;
  /** The Message-ID it was delivered with (store/mail-tables.ts, version 40); NULL for older rows. */
  message_id: string | null;
};

/** The envelope tables as Kysely sees them (part of the Database type, schema.ts). */
export type EnvelopeTables = {
  envelopes: EnvelopeRow;
  envelope_documents: EnvelopeDocumentRow;
  envelope_recipients: EnvelopeRecipientRow;
  envelope_tabs: EnvelopeTabRow;
  envelope_custom_fields: EnvelopeCustomFieldRow;
  signing_tokens: SigningTokenRow;
  mail_outbox: MailOutboxRow;
  dev_mailbox: DevMailboxRow;
};

/** Schema step for the tables above; `db` is the migration's transaction. */
export const ENVELOPE_TABLES_MIGRATION: Migration = {
  version: 2,
  name: 'envelopes, documents, recipients, tabs, signing tokens, mail outbox, dev mailbox',
  async up(db) {
    // PDFs are bytes: bytea on PostgreSQL, blob on SQLite (both come back as Buffers).
    const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
    const s = db.schema;
    await s.createTable('envelopes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('sender_user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('email_subject', 'text', (c) => c.notNull())
      .addColumn('email_blurb', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('status_changed_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('declined_at', 'text')
      .addColumn('voided_at', 'text')
      .addColumn('voided_reason', 'text')
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    // listStatusChanges filters an account's envelopes by status-change time.
    await s.createIndex('envelopes_account_changed_idx').on('envelopes').columns(['account_id', 'status_changed_at']).execute();
    await s.createTable('envelope_documents')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('file_extension', 'text', (c) => c.notNull())
      .addColumn('doc_order', 'integer', (c) => c.notNull())
      .addColumn('page_count', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('pdf', bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint('envelope_documents_pk', ['envelope_id', 'document_id'])
      .execute();
    await s.createTable('envelope_recipients')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('recipient_id_guid', 'text', (c) => c.notNull())
      .addColumn('recipient_order', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('routing_order', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('client_user_id', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('signed_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('declined_at', 'text')
      .addColumn('declined_reason', 'text')
      .addPrimaryKeyConstraint('envelope_recipients_pk', ['envelope_id', 'recipient_id'])
      .execute();
    await s.createTable('envelope_tabs')
      .addColumn('tab_id', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('tab_order', 'integer', (c) => c.notNull())
      .addColumn('page_number', 'integer', (c) => c.notNull())
      .addColumn('x_position', 'double precision', (c) => c.notNull())
      .addColumn('y_position', 'double precision', (c) => c.notNull())
      .addColumn('anchor_json', 'text')
      .addColumn('tab_label', 'text')
      .addColumn('name', 'text')
      .addColumn('optional', 'integer', (c) => c.notNull())
      .addColumn('scale_value', 'double precision')
      .execute();
    await s.createIndex('envelope_tabs_envelope_idx').on('envelope_tabs').column('envelope_id').execute();
    await s.createTable('signing_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();
    await s.createTable('mail_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('envelope_id', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recipient_email', 'text', (c) => c.notNull())
      .addColumn('message_json', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute();
    // The worker's claim scans pending rows in due order.
    await s.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
    await s.createTable('dev_mailbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('envelope_id', 'text')
      .addColumn('to_email', 'text', (c) => c.notNull())
      .addColumn('to_name', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text', (c) => c.notNull())
      .addColumn('attachments_json', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * The tab family: every tab type in envelope_tabs. The SignHere columns stay filled for every
 * tab (its spot, label, name, required as `optional`), so older readers and ad-hoc queries keep
 * working; the type and its rules are in tab_json, the value beside it.
 */
export const ENVELOPE_TAB_FAMILY_MIGRATION: Migration = {
  version: 70,
  name: 'envelope tabs of every type: tab spec, value, radios',
  async up(db) {
    await db.schema.alterTable('envelope_tabs').addColumn('tab_json', 'text').execute();
    await db.schema.alterTable('envelope_tabs').addColumn('value', 'text').execute();
    await db.schema.alterTable('envelope_tabs').addColumn('radios_json', 'text').execute();
  },
};

/** The recycle bin: when an envelope was deleted (domain/envelope/folders.ts). */
export const ENVELOPE_DELETED_AT_MIGRATION: Migration = {
  version: 82,
  name: 'envelopes.deleted_at (recycle bin)',
  async up(db) {
    await db.schema.alterTable('envelopes').addColumn('deleted_at', 'text').execute();
  },
};

/** Envelope custom fields (domain/envelope/custom-fields.ts). */
export const ENVELOPE_CUSTOM_FIELDS_MIGRATION: Migration = {
  version: 92,
  name: 'envelope custom fields',
  async up(db) {
    await db.schema.createTable('envelope_custom_fields')
      .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
      .addColumn('field_id', 'text', (c) => c.notNull())
      .addColumn('field_order', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('show', 'integer', (c) => c.notNull())
      .addColumn('required', 'integer', (c) => c.notNull())
      .addColumn('list_items_json', 'text')
      .addPrimaryKeyConstraint('envelope_custom_fields_pk', ['envelope_id', 'field_id'])
      .execute();
  },
};
