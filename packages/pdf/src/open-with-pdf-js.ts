import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Opens a PDF with pdf.js (legacy build: Node 20). pdf.js takes ownership of (detaches) the
 * buffer it is given, so it gets a copy. No eval, no font loading: we only read text.
 */
export async function openWithPdfJs(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
}
