/** The package's one error class and its catalog (code → status → message). */
export { PdfError, PDF_ERRORS, type PdfErrorCode } from './pdf-error.ts';

/** Documents → PDF: warm LibreOffice for office formats, warm Chromium for html, pdf validated. */
export {
  buildConverter,
  type Converter,
  type ConverterOptions,
  type ConvertInput,
  type ConverterStats,
} from './convert/build-converter.ts';
/** Which extensions convert, and with which engine. */
export { documentKind, normalizeExtension, SUPPORTED_EXTENSIONS, type DocumentKind } from './convert/document-kind.ts';
/** Checks that bytes are a readable, unencrypted PDF; resolves with its page count. */
export { validatePdf } from './convert/validate-pdf.ts';
/** Paper sizes for html documents. */
export type { PaperFormat } from './convert/html-converter.ts';

/** Anchor search in one call: pdf bytes + DocuSign anchor options → tab positions. */
export { findAnchors } from './anchor/find-anchors.ts';
/** Text with positions of every page (pdf.js), to search many anchors without re-parsing. */
export { extractText } from './anchor/extract-text.ts';
/** The pure search over extracted text. */
export { searchAnchors, type AnchorMatch } from './anchor/search-anchors.ts';
/** DocuSign anchor fields → validated search (units to points, wire booleans). */
export { toAnchorSearch, POINTS_PER_UNIT, type AnchorOptions, type AnchorSearch, type AnchorUnits } from './anchor/anchor-options.ts';
/** The positioned text model anchor search works on. */
export type { DocumentText, PageText, TextRun } from './anchor/page-text.ts';
