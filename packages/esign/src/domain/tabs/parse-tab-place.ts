import { parseAnchorSpec } from './parse-anchor-spec.ts';
import type { TabPlace } from './tab.ts';
import type { WireField } from './wire-field.ts';

/**
 * Where a tab goes: by anchor when it has an anchorString (documentId and pageNumber are then
 * not needed, DocuSign "Auto-place (anchor tagging)"), else at documentId/pageNumber/xPosition/yPosition, as the
 * SignHere parser reads them (pageNumber 1 and positions 0 when absent). Whether the page exists
 * and the point lies on it is checked once the documents are converted (assertTabOnPage).
 * A labelled tab with neither an anchor nor a position may take a PDF form field of its label
 * (FormFieldPlace, DocuSign "PDF form field transformation"); whether one is so named is known
 * only once the documents are read, so its refusal comes at placement (place-tabs.ts).
 */
export function parseTabPlace(tab: WireField, groupDocumentId?: string): TabPlace {
  const anchor = parseAnchorSpec(tab);
  if (anchor) return { kind: 'anchor', anchor };
  // A radio has no documentId of its own: its group's applies.
  const documentId = groupDocumentId ?? tab.field('documentId').optionalString(10);
  const positioned = tab.field('xPosition').present || tab.field('yPosition').present;
  const label = tab.field('tabLabel').optionalString(500);
  if (groupDocumentId === undefined && !positioned && label !== undefined && label !== '') {
    const pageNumber = tab.field('pageNumber').optionalInteger(1, 100_000) ?? 1;
    return {
      kind: 'formField',
      ...(documentId !== undefined ? { documentId, otherwise: { kind: 'absolute', documentId, pageNumber, xPosition: 0, yPosition: 0 } } : {}),
      valueGiven: givesValue(tab),
    };
  }
  if (documentId === undefined) return tab.fail('needs an anchorString, or a documentId with pageNumber, xPosition and yPosition.');
  const position = (field: 'xPosition' | 'yPosition'): number => {
    const value = tab.field(field).optionalNumber() ?? 0;
    return value < 0 ? tab.field(field).fail('must not be negative.') : value;
  };
  return { kind: 'absolute', documentId, pageNumber: tab.field('pageNumber').optionalInteger(1, 100_000) ?? 1, xPosition: position('xPosition'), yPosition: position('yPosition') };
}

/** Whether the sender gave the tab a value: a non-blank value, a checkbox's selected, a chosen list item. */
function givesValue(tab: WireField): boolean {
  const filled = (f: WireField) => f.present && String(f.value).trim() !== '';
  if (['value', 'numericalValue', 'listSelectedValue'].some((name) => filled(tab.field(name)))) return true;
  if (tab.field('selected').present) return true;
  return tab.field('listItems').present && Array.isArray(tab.field('listItems').value) && tab.field('listItems').items().some((i) => i.field('selected').boolean(false));
}
