import type { PDFDocument } from 'pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];

let loading: Promise<Fontkit> | undefined;

/**
 * fontkit, loaded the first time a document embeds a font file (signature fonts, the Unicode
 * fallback). Evaluating its module takes about 0.3 s of CPU, which every process and pdf thread
 * importing the stamp tools paid at start, although most never embed such a font.
 */
export function loadFontkit(): Promise<Fontkit> {
  loading ??= import('@pdf-lib/fontkit').then((m) => m.default);
  return loading;
}
