import type { FontColor, FontFamily, TabFont } from './tab.ts';
import type { WireField } from './wire-field.ts';

/**
 * DocuSign's fonts (the SDK's list) and the PDF standard family each is drawn in: the signing
 * page and the completed PDF use the standard 14 fonts, so sans fonts draw as Helvetica, serif
 * ones as Times and monospaced ones as Courier. MSGothic and MSMincho (CJK) have no standard
 * counterpart and are refused.
 */
const FONTS: Readonly<Record<string, FontFamily>> = {
  default: 'helvetica', arial: 'helvetica', arialnarrow: 'helvetica', calibri: 'helvetica', helvetica: 'helvetica',
  tahoma: 'helvetica', trebuchet: 'helvetica', verdana: 'helvetica',
  couriernew: 'courier', lucidaconsole: 'courier',
  garamond: 'times', georgia: 'times', timesnewroman: 'times',
};
const SIZES = [7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 36, 48, 72];
const COLORS: readonly FontColor[] = ['Black', 'BrightBlue', 'BrightRed', 'DarkGreen', 'DarkRed', 'Gold', 'Green', 'NavyBlue', 'Purple', 'White'];

/** DocuSign's defaults for a tab's text: Helvetica-like "Default" at Size11, black. */
export const DEFAULT_FONT: TabFont = { font: 'Default', family: 'helvetica', fontSize: 11, bold: false, italic: false, underline: false, fontColor: 'Black' };

export function parseTabFont(tab: WireField): TabFont {
  const name = tab.field('font').optionalString(32);
  const family = (name === undefined ? DEFAULT_FONT.family : FONTS[name.toLowerCase()]) ?? tab.field('font').fail(`must be one of Arial, ArialNarrow, Calibri, CourierNew, Default, Garamond, Georgia, Helvetica, LucidaConsole, Tahoma, TimesNewRoman, Trebuchet, Verdana, got "${name}".`);
  const sizeText = tab.field('fontSize').optionalString(16);
  const size = sizeText === undefined ? DEFAULT_FONT.fontSize : Number(/^size(\d+)$/i.exec(sizeText)?.[1]);
  if (!SIZES.includes(size)) tab.field('fontSize').fail(`must be one of ${SIZES.map((s) => `Size${s}`).join(', ')}, got "${sizeText}".`);
  return {
    font: name ?? DEFAULT_FONT.font,
    family,
    fontSize: size,
    bold: tab.field('bold').boolean(false),
    italic: tab.field('italic').boolean(false),
    underline: tab.field('underline').boolean(false),
    fontColor: tab.field('fontColor').oneOf(COLORS, 'Black'),
  };
}
