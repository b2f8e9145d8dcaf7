import { PdfError } from '../pdf-error.ts';

/** Which engine turns a document into PDF. */
export type DocumentKind = 'html' | 'office' | 'pdf';

// DocuSign's fileExtension is free text ("pdf", ".DOCX"); these are the ones we convert.
// Office formats go to LibreOffice Writer; html goes to Chromium, whose import is far better
// (docs/pdf.md, "Conversion": LibreOffice collapses 100%-width tables).
const KINDS: Readonly<Record<string, DocumentKind>> = {
  html: 'html',
  htm: 'html',
  docx: 'office',
  doc: 'office',
  odt: 'office',
  rtf: 'office',
  txt: 'office',
  pdf: 'pdf',
};

/** Lower-cased extension without the dot, e.g. ".DOCX" → "docx". */
export function normalizeExtension(fileExtension: string): string {
  return fileExtension.trim().replace(/^\./, '').toLowerCase();
}

/** The engine for a file extension; UNSUPPORTED_FORMAT for anything else. */
export function documentKind(fileExtension: string): DocumentKind {
  const ext = normalizeExtension(fileExtension);
  const kind = Object.hasOwn(KINDS, ext) ? KINDS[ext] : undefined;
  if (!kind) throw new PdfError('UNSUPPORTED_FORMAT', `fileExtension "${fileExtension}" is not one of ${SUPPORTED_EXTENSIONS.join(', ')}.`);
  return kind;
}

/** Every extension {@link documentKind} accepts. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(KINDS);
