import type { PDFPage } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';
import { toPdfRect, type TabBox } from './tab-box.ts';

/**
 * The page a tab is drawn on and its rectangle in that page's PDF space, or INVALID_TAB_POSITION
 * for a page the document lacks, a box that is not finite and positive, or one wholly off the
 * page (DocuSign refuses such tabs too: TAB_OUT_OF_BOUNDS, "Tab is placed off of the page").
 */
export function placeTabBox(pages: readonly PDFPage[], pageNumber: number, box: TabBox): { page: PDFPage; rect: TabBox } {
  const page = Number.isInteger(pageNumber) ? pages[pageNumber - 1] : undefined;
  if (!page) throw new PdfError('INVALID_TAB_POSITION', `Page ${pageNumber} does not exist; the document has ${pages.length}.`);
  if (![box.x, box.y, box.width, box.height].every(Number.isFinite) || box.width <= 0 || box.height <= 0) {
    throw new PdfError('INVALID_TAB_POSITION', 'Its position and size must be finite and positive.');
  }
  const rect = toPdfRect(page, box);
  const crop = page.getCropBox();
  if (rect.x >= crop.x + crop.width || rect.x + rect.width <= crop.x || rect.y >= crop.y + crop.height || rect.y + rect.height <= crop.y) {
    throw new PdfError('INVALID_TAB_POSITION', `It lies off page ${pageNumber}.`);
  }
  return { page, rect };
}
