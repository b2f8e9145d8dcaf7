import type { WireReader } from './wire-reader.ts';

/** More ids than an envelope may hold documents is no list of its documents. */
const MAX_EXCLUDED = 50;

/**
 * A recipient's excludedDocuments (docusign-esign src/model/Signer.js: a list of documentIds),
 * each a documentId string; undefined when absent or empty. Whether the ids exist, and may be
 * excluded, is judged once the documents and tabs are known (domain/envelope/document-visibility.ts).
 */
export function parseExcludedDocuments(r: WireReader): string[] | undefined {
  const field = r.field('excludedDocuments');
  if (!field.present) return undefined;
  const items = field.items();
  if (items.length > MAX_EXCLUDED) field.fail(`may name at most ${MAX_EXCLUDED} documents.`);
  const ids = [...new Set(items.map((i) => i.string(10)))];
  return ids.length > 0 ? ids : undefined;
}
