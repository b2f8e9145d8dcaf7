import { toAnchorSearch, type AnchorOptions } from './anchor-options.ts';
import { extractText } from './extract-text.ts';
import { searchAnchors, type AnchorMatch } from './search-anchors.ts';

/**
 * Every occurrence of one anchor across all documents, one tab position each. For many tabs
 * over the same documents, call {@link extractText} once and {@link searchAnchors} per tab.
 */
export async function findAnchors(pdfs: readonly Uint8Array[], options: AnchorOptions): Promise<AnchorMatch[]> {
  const search = toAnchorSearch(options);
  return searchAnchors(await extractText(pdfs), search);
}
