import { loadFontkit } from './load-fontkit.ts';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { encodes } from './safe-text.ts';
import { loadUnicodeFont } from './unicode-font.ts';

/** The font to draw `text` in: the chosen one, or the Unicode font where the chosen one lacks a character. */
export type FontForText = (font: PDFFont, text: string) => Promise<PDFFont>;

/**
 * For one document: text the chosen font encodes keeps it; text in another script (a name in
 * kanji, Cyrillic) gets the Unicode font, embedded the first time it is needed, once per
 * document, as a subset of the glyphs used. Without that font installed, the chosen font (its `?`).
 */
export function unicodeFallback(pdf: PDFDocument): FontForText {
  let unicode: Promise<PDFFont | undefined> | undefined;
  return async (font, text) => {
    if (encodes(font, text)) return font;
    unicode ??= loadUnicodeFont().then(async (bytes) => {
      if (bytes === undefined) return undefined;
      pdf.registerFontkit(await loadFontkit());
      return pdf.embedFont(bytes, { subset: true });
    });
    return (await unicode) ?? font;
  };
}
