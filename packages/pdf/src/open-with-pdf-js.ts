import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Opens a PDF with pdf.js (legacy build: Node 20). pdf.js takes ownership of (detaches) the
 * buffer it is given, so it gets a copy. No eval, no font loading: we only read text.
 * pdf.js loads on the first PDF opened, not with the package: evaluating it costs ~0.15 s of
 * CPU, which every process importing the pdf tools paid although most open PDFs in pdf threads.
 */
export async function openWithPdfJs(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  return getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
}
