import { PDFDocument } from 'pdf-lib';

/** Concatenates PDFs, in order, into one (the envelope's "combined" document). */
export async function mergePdfs(pdfs: readonly Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  for (const bytes of pdfs) {
    const src = await PDFDocument.load(bytes);
    const pages = await out.copyPages(src, src.getPageIndices());
    for (const page of pages) out.addPage(page);
  }
  return out.save();
}
