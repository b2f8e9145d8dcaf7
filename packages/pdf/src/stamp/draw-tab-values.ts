import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { placeTabBox } from './place-tab-box.ts';
import { safeText } from './safe-text.ts';
import { unicodeFallback } from './unicode-fallback.ts';
import type { TabBox } from './tab-box.ts';

/** The standard-14 families tab text is drawn in (the caller maps its font names onto them). */
export type TextFamily = 'helvetica' | 'times' | 'courier';

export type TextStyle = {
  family?: TextFamily;
  /** Points; default 11. The text shrinks (to 4 pt at least) to fit its box's width. */
  size?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** RGB in 0..1; default black. */
  color?: readonly [number, number, number];
};

/**
 * One tab's final value, in DocuSign tab space (points from the page's top-left, y down):
 * text (any text tab, a list's chosen item, a date already formatted), a checkbox, or one
 * radio button of a group (drawn selected or not).
 */
export type TabValueStamp = {
  /** 1-based. */
  pageNumber: number;
  x: number;
  y: number;
  /** Default: text 120 × 20, checkbox and radio 14 × 14. */
  width?: number;
  height?: number;
  value: { kind: 'text'; text: string; style?: TextStyle } | { kind: 'checkbox'; checked: boolean } | { kind: 'radio'; selected: boolean };
};

export const TAB_VALUE_SIZES = { text: { width: 120, height: 20 }, mark: { width: 14, height: 14 } } as const;
// A document's tabs are bounded by the envelope (200 per recipient); this bounds one call.
export const MAX_TAB_VALUE_STAMPS = 10_000;
const MAX_TEXT = 4000;
const MIN_SIZE = 4;

const FONTS: Record<TextFamily, [StandardFonts, StandardFonts, StandardFonts, StandardFonts]> = {
  helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique, StandardFonts.HelveticaBoldOblique],
  times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold, StandardFonts.TimesRomanItalic, StandardFonts.TimesRomanBoldItalic],
  courier: [StandardFonts.Courier, StandardFonts.CourierBold, StandardFonts.CourierOblique, StandardFonts.CourierBoldOblique],
};
const INK = rgb(0.1, 0.1, 0.1);

function drawText(page: PDFPage, rect: TabBox, text: string, style: TextStyle, font: PDFFont): void {
  const clean = safeText(font, text.slice(0, MAX_TEXT));
  if (clean === '') return;
  const wanted = style.size ?? 11;
  const width = font.widthOfTextAtSize(clean, wanted);
  const room = Math.max(1, rect.width - 2);
  const size = Math.max(MIN_SIZE, width > room ? (wanted * room) / width : wanted);
  const color = style.color ? rgb(...style.color) : INK;
  // The baseline sits so the text is centred in the box's height, as a form field shows it.
  const y = rect.y + (rect.height - size * 0.7) / 2;
  page.drawText(clean, { x: rect.x + 1, y, size, font, color });
  if (style.underline) page.drawLine({ start: { x: rect.x + 1, y: y - size * 0.12 }, end: { x: rect.x + 1 + font.widthOfTextAtSize(clean, size), y: y - size * 0.12 }, thickness: Math.max(0.5, size / 16), color });
}

function drawCheckbox(page: PDFPage, r: TabBox, checked: boolean): void {
  page.drawRectangle({ x: r.x, y: r.y, width: r.width, height: r.height, borderColor: INK, borderWidth: 0.8 });
  if (!checked) return;
  const thickness = Math.max(1, Math.min(r.width, r.height) / 8);
  page.drawLine({ start: { x: r.x + r.width * 0.2, y: r.y + r.height * 0.5 }, end: { x: r.x + r.width * 0.42, y: r.y + r.height * 0.22 }, thickness, color: INK });
  page.drawLine({ start: { x: r.x + r.width * 0.42, y: r.y + r.height * 0.22 }, end: { x: r.x + r.width * 0.82, y: r.y + r.height * 0.8 }, thickness, color: INK });
}

function drawRadio(page: PDFPage, r: TabBox, selected: boolean): void {
  const radius = Math.min(r.width, r.height) / 2;
  const centre = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  page.drawCircle({ ...centre, size: radius, borderColor: INK, borderWidth: 0.8 });
  if (selected) page.drawCircle({ ...centre, size: radius * 0.5, color: INK });
}

/**
 * Draws tabs' final values into one PDF and returns the new PDF: text in a standard font at its
 * size (shrunk to fit the box's width; text in another script in the Unicode font), a checked
 * box, a selected radio. Like the signature stamp, it runs before the seal, and a position off
 * its page is refused (INVALID_TAB_POSITION).
 */
export async function drawTabValues(pdfBytes: Uint8Array, stamps: readonly TabValueStamp[]): Promise<Uint8Array> {
  if (stamps.length > MAX_TAB_VALUE_STAMPS) throw new RangeError(`at most ${MAX_TAB_VALUE_STAMPS} tab values per document`);
  const pdf = await PDFDocument.load(pdfBytes);
  const pages = pdf.getPages();
  const fonts = new Map<StandardFonts, PDFFont>();
  const fallback = unicodeFallback(pdf);
  const fontFor = async (style: TextStyle, text: string): Promise<PDFFont> => {
    const name = FONTS[style.family ?? 'helvetica'][((style.bold ? 1 : 0) + (style.italic ? 2 : 0)) as 0 | 1 | 2 | 3];
    let font = fonts.get(name);
    if (!font) fonts.set(name, (font = await pdf.embedFont(name)));
    return fallback(font, text);
  };
  for (const stamp of stamps) {
    const size = stamp.value.kind === 'text' ? TAB_VALUE_SIZES.text : TAB_VALUE_SIZES.mark;
    const { page, rect } = placeTabBox(pages, stamp.pageNumber, { x: stamp.x, y: stamp.y, width: stamp.width ?? size.width, height: stamp.height ?? size.height });
    const value = stamp.value;
    if (value.kind === 'text') drawText(page, rect, value.text, value.style ?? {}, await fontFor(value.style ?? {}, value.text));
    else if (value.kind === 'checkbox') drawCheckbox(page, rect, value.checked);
    else drawRadio(page, rect, value.selected);
  }
  return pdf.save();
}
