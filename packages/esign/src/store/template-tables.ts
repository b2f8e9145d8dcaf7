import { PostgresAdapter } from 'kysely';
import type { Migration } from './migrations.ts';

/**
 * Templates, their documents (PDF, converted once) and their recipients (roles), each role with
 * its placed tabs as JSON: a template is read and copied whole, never queried tab by tab.
 * Same conventions as schema.ts: ISO-8601 UTC text timestamps, 0/1 flags.
 */
export type TemplateRow = {
  id: string;
  account_id: string;
  owner_user_id: string;
  name: string;
  description: string | null;
  email_subject: string;
  email_blurb: string | null;
  shared: number;
  /** enforceSignerVisibility: 1, or null for off (migration 170). */
  enforce_signer_visibility: number | null;
  created_at: string;
  last_modified_at: string;
};
export type TemplateDocumentRow = {
  template_id: string;
  document_id: string;
  name: string;
  file_extension: string;
  doc_order: number;
  page_count: number;
  sha256: string;
  pdf: Uint8Array;
};
export type TemplateRecipientRow = {
  template_id: string;
  recipient_id: string;
  /** Position in the request (signers first, then carbon copies). */
  recipient_order: number;
  role_name: string | null;
  type: string;
  name: string;
  email: string;
  routing_order: number;
  client_user_id: string | null;
  /** The role's placed tabs as JSON (store/placed-tab-json.ts; rows written before the tab family hold SignHereTab[]). */
  tabs_json: string;
  /** The role's host, witnessFor, agentCanEdit flags and excludedDocuments as JSON, null for none (migration 170; store/template-role-details.ts). */
  details_json: string | null;
};

/** What a template's envelopes start with: custom fields and notification settings, as JSON (absent: none, the API defaults). */
export type TemplateEnvelopeDefaultsRow = { template_id: string; custom_fields_json: string | null; notification_json: string | null };

export type TemplateTables = {
  template_envelope_defaults: TemplateEnvelopeDefaultsRow;
  templates: TemplateRow;
  template_documents: TemplateDocumentRow;
  template_recipients: TemplateRecipientRow;
};

export const TEMPLATE_TABLES_MIGRATION: Migration = {
  version: 60,
  name: 'templates, template documents and roles',
  async up(db) {
    const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
    const s = db.schema;
    await s.createTable('templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('email_subject', 'text', (c) => c.notNull())
      .addColumn('email_blurb', 'text')
      .addColumn('shared', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_modified_at', 'text', (c) => c.notNull())
      .execute();
    // listTemplates reads one account's templates by name.
    await s.createIndex('templates_account_name_idx').on('templates').columns(['account_id', 'name']).execute();
    await s.createTable('template_documents')
      .addColumn('template_id', 'text', (c) => c.notNull().references('templates.id').onDelete('cascade'))
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('file_extension', 'text', (c) => c.notNull())
      .addColumn('doc_order', 'integer', (c) => c.notNull())
      .addColumn('page_count', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('pdf', bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint('template_documents_pk', ['template_id', 'document_id'])
      .execute();
    await s.createTable('template_recipients')
      .addColumn('template_id', 'text', (c) => c.notNull().references('templates.id').onDelete('cascade'))
      .addColumn('recipient_id', 'text', (c) => c.notNull())
      .addColumn('recipient_order', 'integer', (c) => c.notNull())
      .addColumn('role_name', 'text')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('routing_order', 'integer', (c) => c.notNull())
      .addColumn('client_user_id', 'text')
      .addColumn('tabs_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('template_recipients_pk', ['template_id', 'recipient_id'])
      .execute();
  },
};

/** Template custom fields and notification defaults (domain/templates/template.ts). */
export const TEMPLATE_ENVELOPE_DEFAULTS_MIGRATION: Migration = {
  version: 98,
  name: 'template custom fields and notification defaults',
  async up(db) {
    await db.schema.createTable('template_envelope_defaults')
      .addColumn('template_id', 'text', (c) => c.primaryKey().references('templates.id'))
      .addColumn('custom_fields_json', 'text')
      .addColumn('notification_json', 'text')
      .execute();
  },
};
