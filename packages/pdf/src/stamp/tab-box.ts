import type { PDFPage } from 'pdf-lib';

/** A rectangle in DocuSign tab space: points from the page's top-left corner, y down. */
export type TabBox = { x: number; y: number; width: number; height: number };

/** The same rectangle in the page's PDF user space (bottom-left origin), CropBox-aware. */
export function toPdfRect(page: PDFPage, box: TabBox): { x: number; y: number; width: number; height: number } {
  const crop = page.getCropBox();
  return { x: crop.x + box.x, y: crop.y + crop.height - box.y - box.height, width: box.width, height: box.height };
}
