import type { Migration } from './migrations.ts';
import type { DocumentSupplement } from '../domain/envelope/document-supplement.ts';

/**
 * Supplemental documents (domain/envelope/document-supplement.ts): a document's display,
 * signerMustAcknowledge and includeInDownload as one JSON column (null: an inline document),
 * and the document an audit line is about (a supplement viewed or accepted), which Finish reads
 * back to know what the signer viewed.
 */
export const DOCUMENT_SUPPLEMENT_MIGRATION: Migration = {
  version: 131,
  name: 'supplemental documents and the document of an audit line',
  async up(db) {
    await db.schema.alterTable('envelope_documents').addColumn('supplement_json', 'text').execute();
    await db.schema.alterTable('envelope_audit_events').addColumn('document_id', 'text').execute();
  },
};

export function supplementColumn(s: DocumentSupplement | undefined): string | null {
  return s ? JSON.stringify({ display: s.display, signerMustAcknowledge: s.signerMustAcknowledge, includeInDownload: s.includeInDownload }) : null;
}

export function supplementOf(column: string | null | undefined): { supplement: DocumentSupplement } | Record<string, never> {
  if (column === null || column === undefined) return {};
  return { supplement: JSON.parse(column) as DocumentSupplement };
}
