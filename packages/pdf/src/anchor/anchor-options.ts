import { PdfError } from '../pdf-error.ts';

/** DocuSign's anchorUnits values. */
export type AnchorUnits = 'pixels' | 'inches' | 'mms' | 'cms';

/**
 * The anchor fields of a DocuSign tab, as they arrive on the wire: the SDK sends strings
 * ("true", "1.5"), hand-written JSON often sends booleans and numbers; both are accepted.
 */
export type AnchorOptions = {
  anchorString: string;
  anchorXOffset?: string | number | undefined;
  anchorYOffset?: string | number | undefined;
  anchorUnits?: string | undefined;
  anchorCaseSensitive?: string | boolean | undefined;
  anchorMatchWholeWord?: string | boolean | undefined;
  anchorHorizontalAlignment?: string | undefined;
  anchorAllowWhiteSpaceInCharacters?: string | boolean | undefined;
};

/** {@link AnchorOptions} after validation: offsets in points, flags as booleans. */
export type AnchorSearch = {
  anchorString: string;
  xOffset: number;
  yOffset: number;
  caseSensitive: boolean;
  matchWholeWord: boolean;
  alignRight: boolean;
  allowWhiteSpaceInCharacters: boolean;
};

/**
 * Points per anchor unit. DocuSign's tab coordinates are points, 1/72 in ("Fixed
 * positioning": "A point is 1/72nd inch"), and its "pixels" are those same units: a tab's
 * xPosition/yPosition are documented in pixels and measured in points. So pixels = 1 pt.
 */
export const POINTS_PER_UNIT: Readonly<Record<AnchorUnits, number>> = {
  pixels: 1,
  inches: 72,
  mms: 72 / 25.4,
  cms: 72 / 2.54,
};

function flag(name: string, value: string | boolean | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new PdfError('INVALID_ANCHOR', `${name} must be true or false, got "${value}".`);
}

function offset(name: string, value: string | number | undefined, perUnit: number): number {
  if (value === undefined || value === '') return 0;
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n)) throw new PdfError('INVALID_ANCHOR', `${name} must be a number, got "${value}".`);
  return n * perUnit;
}

/**
 * Validates and normalises the wire options. Defaults follow DocuSign's REST reference:
 * case-insensitive, not whole-word (DocuSign "Auto-place (anchor tagging)"; the SDK's model text in docusign-esign
 * src/model/SignHere.js says the opposite),
 * left alignment, pixels.
 */
export function toAnchorSearch(options: AnchorOptions): AnchorSearch {
  if (typeof options.anchorString !== 'string' || options.anchorString.trim() === '') {
    throw new PdfError('INVALID_ANCHOR', 'anchorString must be a non-empty string.');
  }
  const unitName = (options.anchorUnits ?? '').trim().toLowerCase() || 'pixels';
  if (!Object.hasOwn(POINTS_PER_UNIT, unitName)) {
    throw new PdfError('INVALID_ANCHOR', `anchorUnits must be one of ${Object.keys(POINTS_PER_UNIT).join(', ')}, got "${options.anchorUnits}".`);
  }
  const perUnit = POINTS_PER_UNIT[unitName as AnchorUnits];
  const alignment = (options.anchorHorizontalAlignment ?? '').trim().toLowerCase() || 'left';
  if (alignment !== 'left' && alignment !== 'right') {
    throw new PdfError('INVALID_ANCHOR', `anchorHorizontalAlignment must be left or right, got "${options.anchorHorizontalAlignment}".`);
  }
  return {
    anchorString: options.anchorString,
    xOffset: offset('anchorXOffset', options.anchorXOffset, perUnit),
    yOffset: offset('anchorYOffset', options.anchorYOffset, perUnit),
    caseSensitive: flag('anchorCaseSensitive', options.anchorCaseSensitive, false),
    matchWholeWord: flag('anchorMatchWholeWord', options.anchorMatchWholeWord, false),
    alignRight: alignment === 'right',
    allowWhiteSpaceInCharacters: flag('anchorAllowWhiteSpaceInCharacters', options.anchorAllowWhiteSpaceInCharacters, false),
  };
}
