import type { TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api.js';
import { PdfError } from '../pdf-error.ts';
import { openWithPdfJs } from '../open-with-pdf-js.ts';
import { assertPageCount } from '../convert/validate-pdf.ts';
import type { DocumentText, PageText, TextRun } from './page-text.ts';

const DEFAULT_ASCENT = 0.8;

/**
 * Reads the positioned text of every page with pdf.js. Invisible text (white, or rendering
 * mode 3) is text all the same: pdf.js reports it, which is how hidden anchors are found.
 * Positions are made relative to the page's view box (CropBox) so they match what is shown.
 */
export async function extractText(pdfs: readonly Uint8Array[]): Promise<DocumentText[]> {
  const out: DocumentText[] = [];
  for (const [documentIndex, bytes] of pdfs.entries()) {
    let doc;
    try {
      doc = await openWithPdfJs(bytes);
    } catch (err) {
      throw new PdfError('CORRUPT_DOCUMENT', `Document ${documentIndex + 1} could not be read.`, { cause: err });
    }
    try {
      // Converted documents (html, office) come here first: the bound applies before a page is read.
      assertPageCount(doc.numPages, `Document ${documentIndex + 1}`);
      const pages: PageText[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
        const content = await page.getTextContent();
        const styles: Record<string, TextStyle> = content.styles;
        const runs: TextRun[] = [];
        for (const item of content.items) {
          if (!('str' in item)) continue;
          const t: TextItem = item;
          // transform = [a, b, c, d, e, f]: (e, f) is the run's baseline origin.
          const transform = t.transform as readonly number[];
          const e = transform[4] ?? 0;
          const f = transform[5] ?? 0;
          const ascent = styles[t.fontName]?.ascent;
          runs.push({
            str: t.str,
            x: e - x0,
            y: f - y0,
            width: t.width,
            height: t.height,
            ascent: ascent && ascent > 0 && ascent < 1.5 ? ascent : DEFAULT_ASCENT,
            eol: t.hasEOL,
          });
        }
        pages.push({ pageNumber: n, width: x1 - x0, height: y1 - y0, runs });
        page.cleanup();
      }
      out.push({ documentIndex, pages });
    } finally {
      await doc.destroy();
    }
  }
  return out;
}
