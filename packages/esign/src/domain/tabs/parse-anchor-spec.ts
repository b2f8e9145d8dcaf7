import type { AnchorUnits } from '../envelope/envelope.ts';
import type { TabAnchor } from './tab.ts';
import type { WireField } from './wire-field.ts';

const UNITS: readonly AnchorUnits[] = ['pixels', 'inches', 'mms', 'cms'];

/**
 * A tab's anchor options, undefined when it has no anchorString: every tab's, the SignHere
 * parser in restapi/envelopes included, plus anchorAllowWhiteSpaceInCharacters, which the pdf
 * anchor search honours.
 */
export function parseAnchorSpec(tab: WireField): TabAnchor | undefined {
  const anchorString = tab.field('anchorString').optionalString(500);
  if (anchorString === undefined) return undefined;
  return {
    anchorString,
    units: tab.field('anchorUnits').oneOf(UNITS, 'pixels'),
    xOffset: tab.field('anchorXOffset').optionalNumber() ?? 0,
    yOffset: tab.field('anchorYOffset').optionalNumber() ?? 0,
    ignoreIfNotPresent: tab.field('anchorIgnoreIfNotPresent').boolean(false),
    // DocuSign "Auto-place (anchor tagging)": the REST reference's defaults (case-insensitive, not whole-word).
    caseSensitive: tab.field('anchorCaseSensitive').boolean(false),
    matchWholeWord: tab.field('anchorMatchWholeWord').boolean(false),
    horizontalAlignment: tab.field('anchorHorizontalAlignment').oneOf(['left', 'right'] as const, 'left'),
    allowWhiteSpaceInCharacters: tab.field('anchorAllowWhiteSpaceInCharacters').boolean(false),
  };
}
