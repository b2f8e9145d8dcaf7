import { loadFontkit } from './load-fontkit.ts';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';
import { safeText } from './safe-text.ts';
import { readSignatureImage } from './signature-image.ts';
import { loadSignatureFont } from './signature-font.ts';
import { unicodeFallback } from './unicode-fallback.ts';
import { placeTabBox } from './place-tab-box.ts';
import type { TabBox } from './tab-box.ts';

/** What the signer adopted: a drawn signature (PNG or JPEG) or their name typed. */
export type Signature = { type: 'image'; image: Uint8Array } | { type: 'typed'; text: string };

/** One signature to draw, in DocuSign tab space (points from the page's top-left, y down). */
export type SignatureStamp = {
  /** 1-based. */
  pageNumber: number;
  x: number;
  y: number;
  /** Default {@link SIGN_HERE_SIZE}. */
  width?: number;
  height?: number;
  signature: Signature;
  /** A small line under the signature, e.g. {@link signedCaption}. */
  caption?: string;
};

/** The box a SignHere tab gets when none is given: 2 in × 0.55 in, about DocuSign's. */
export const SIGN_HERE_SIZE = { width: 144, height: 40 } as const;

export type StampOptions = {
  /** The typed-signature font's bytes; default Debian's Dancing Script ({@link loadSignatureFont}). */
  signatureFont?: Uint8Array;
};

const CAPTION_SIZE = 6;
const INK = rgb(0.05, 0.1, 0.35);

/** "Signed by Ada Lovelace at 2026-11-21 20:15:03 UTC". */
export function signedCaption(name: string, at: Date): string {
  return `Signed by ${name} at ${at.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}`;
}

/**
 * The image's header is checked against the pixel budget before pdf-lib decodes it: decoding
 * allocates width×height×4 bytes at once.
 */
async function embedImage(pdf: PDFDocument, bytes: Uint8Array): Promise<PDFImage> {
  const { kind } = readSignatureImage(bytes);
  try {
    return kind === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  } catch (err) {
    throw new PdfError('INVALID_SIGNATURE_IMAGE', 'It could not be decoded.', { cause: err });
  }
}

function drawCaption(page: PDFPage, rect: { x: number; y: number; height: number }, caption: string, font: PDFFont): void {
  const text = safeText(font, caption);
  const crop = page.getCropBox();
  // Under the signature; above it when the tab sits on the page's bottom edge.
  const below = rect.y - CAPTION_SIZE - 1;
  const y = below >= crop.y ? below : rect.y + rect.height + 1;
  page.drawText(text, { x: rect.x, y, size: CAPTION_SIZE, font, color: rgb(0.3, 0.3, 0.3) });
}

/**
 * Draws signatures into one PDF at their tab positions and returns the new PDF. Stamping
 * happens before the seal: re-saving with pdf-lib after sealing would break the signature
 * (docs/pdf.md, "Stamping, certificate, seal").
 */
export async function stampSignatures(pdfBytes: Uint8Array, stamps: readonly SignatureStamp[], options: StampOptions = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(pdfBytes);
  const pages = pdf.getPages();
  const helvetica = await pdf.embedFont(StandardFonts.Helvetica);
  let script: PDFFont | undefined;
  // Text the fonts above lack (a name typed or captioned in kanji, Cyrillic): the Unicode font.
  const fallback = unicodeFallback(pdf);
  for (const stamp of stamps) {
    const box: TabBox = { x: stamp.x, y: stamp.y, width: stamp.width ?? SIGN_HERE_SIZE.width, height: stamp.height ?? SIGN_HERE_SIZE.height };
    const { page, rect } = placeTabBox(pages, stamp.pageNumber, box);
    if (stamp.signature.type === 'image') {
      const image = await embedImage(pdf, stamp.signature.image);
      const scale = Math.min(rect.width / image.width, rect.height / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: rect.x, y: rect.y + (rect.height - h) / 2, width: w, height: h });
    } else {
      // Whole font (~70 KB): pdf-lib's subsetting of CFF fonts writes a file poppler rejects.
      if (script === undefined) {
        // Only a typed signature embeds a font file: a document of drawn ones never loads fontkit.
        pdf.registerFontkit(await loadFontkit());
        script = await pdf.embedFont(options.signatureFont ?? (await loadSignatureFont()), { subset: false });
      }
      const text = stamp.signature.text.replace(/\s+/g, ' ').trim();
      const font = await fallback(script, text);
      const size = Math.min(rect.height * 0.7, (rect.height * 0.7 * rect.width) / Math.max(1, font.widthOfTextAtSize(text, rect.height * 0.7)));
      page.drawText(safeText(font, text), { x: rect.x, y: rect.y + rect.height * 0.3, size, font, color: INK });
    }
    if (stamp.caption) drawCaption(page, rect, stamp.caption, await fallback(helvetica, stamp.caption));
  }
  return pdf.save();
}
