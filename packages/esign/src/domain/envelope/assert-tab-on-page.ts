import { EsignError } from '../../errors.ts';

/** A page's visible box (CropBox) in points, the space tab positions are measured in. */
export type PageSize = { readonly width: number; readonly height: number };

/** Where a SignHere tab ended up: given absolutely, or resolved from an anchor and its offsets. */
export type TabPlacement = { readonly documentId: string; readonly pageNumber: number; readonly xPosition: number; readonly yPosition: number };

/**
 * Refuses a tab that is not on a page of its document, as DocuSign does at creation:
 * `TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT` for a page the document does not have, `TAB_OUT_OF_BOUNDS`
 * ("Tab is placed off of the page", docusign-esign-csharp-client#3) for a position outside the
 * page. The tab's top-left corner must lie on the page, x in [0, width) and y in [0, height)
 * from the top-left; its box may run over the right or bottom edge (the pdf stamp draws
 * whatever overlaps the page, so such a tab still signs). `what` names the tab in the message.
 */
export function assertTabOnPage(tab: TabPlacement, pages: readonly PageSize[], what: string): void {
  const page = Number.isInteger(tab.pageNumber) ? pages[tab.pageNumber - 1] : undefined;
  if (!page) {
    throw new EsignError('TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT', `${what}: page ${tab.pageNumber} of documentId ${tab.documentId}, which has ${pages.length} page(s).`);
  }
  const onPage = (v: number, size: number) => Number.isFinite(v) && v >= 0 && v < size;
  if (!onPage(tab.xPosition, page.width) || !onPage(tab.yPosition, page.height)) {
    throw new EsignError('TAB_OUT_OF_BOUNDS', `${what} is located off of page ${tab.pageNumber} of documentId ${tab.documentId}: (${round(tab.xPosition)}, ${round(tab.yPosition)}) on a page of ${round(page.width)} × ${round(page.height)} points.`);
  }
}

function round(v: number): string {
  return Number.isFinite(v) ? String(Math.round(v * 100) / 100) : String(v);
}
