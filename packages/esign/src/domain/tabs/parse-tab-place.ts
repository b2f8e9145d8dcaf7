import { parseAnchorSpec } from './parse-anchor-spec.ts';
import type { TabPlace } from './tab.ts';
import type { WireField } from './wire-field.ts';

/**
 * Where a tab goes: by anchor when it has an anchorString (documentId and pageNumber are then
 * not needed, DocuSign "Auto-place (anchor tagging)"), else at documentId/pageNumber/xPosition/yPosition, as the
 * SignHere parser reads them (pageNumber 1 and positions 0 when absent). Whether the page exists
 * and the point lies on it is checked once the documents are converted (assertTabOnPage).
 */
export function parseTabPlace(tab: WireField, groupDocumentId?: string): TabPlace {
  const anchor = parseAnchorSpec(tab);
  if (anchor) return { kind: 'anchor', anchor };
  // A radio has no documentId of its own: its group's applies.
  const documentId = groupDocumentId ?? tab.field('documentId').optionalString(10);
  if (documentId === undefined) return tab.fail('needs an anchorString, or a documentId with pageNumber, xPosition and yPosition.');
  const position = (field: 'xPosition' | 'yPosition'): number => {
    const value = tab.field(field).optionalNumber() ?? 0;
    return value < 0 ? tab.field(field).fail('must not be negative.') : value;
  };
  return { kind: 'absolute', documentId, pageNumber: tab.field('pageNumber').optionalInteger(1, 100_000) ?? 1, xPosition: position('xPosition'), yPosition: position('yPosition') };
}
