import type { Migration } from './migrations.ts';

/**
 * Document visibility (domain/envelope/document-visibility.ts): the envelope's
 * enforceSignerVisibility (1, or null for off) and each recipient's excludedDocuments (a JSON
 * array of documentIds, null for none).
 */
export const DOCUMENT_VISIBILITY_MIGRATION: Migration = {
  version: 132,
  name: 'document visibility: enforceSignerVisibility and excludedDocuments',
  async up(db) {
    await db.schema.alterTable('envelopes').addColumn('enforce_signer_visibility', 'integer').execute();
    await db.schema.alterTable('envelope_recipients').addColumn('excluded_documents_json', 'text').execute();
  },
};
