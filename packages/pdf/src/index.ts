/** The package's one error class and its catalog (code → status → message). */
export { PdfError, PDF_ERRORS, type PdfErrorCode } from './pdf-error.ts';

/** Documents → PDF: warm LibreOffice for office formats, warm Chromium for html, pdf validated. */
export {
  buildConverter,
  type Converter,
  type ConverterOptions,
  type ConvertInput,
  type WorkOwner,
  type ConverterStats,
} from './convert/build-converter.ts';
/** Which extensions convert, and with which engine. */
export { documentKind, normalizeExtension, SUPPORTED_EXTENSIONS, type DocumentKind } from './convert/document-kind.ts';
/** A signer's upload (PDF, PNG, JPEG, told by its bytes) as a PDF for the envelope. */
export { attachmentToPdf, sniffAttachment, ATTACHMENT_IMAGE_LIMITS, type AttachmentKind } from './convert/attachment-to-pdf.ts';
/** Checks that bytes are a readable, unencrypted PDF; resolves with its page count. */
export { validatePdf, MAX_DOCUMENT_PAGES } from './convert/validate-pdf.ts';
/** Paper sizes for html documents. */
export type { PaperFormat } from './convert/html-converter.ts';

/** pdf.js/pdf-lib parsing on worker threads (the converter owns one; usable on its own too). */
export { PdfThreads } from './threads/pdf-threads.ts';

/** Anchor search in one call: pdf bytes + DocuSign anchor options → tab positions. */
export { findAnchors } from './anchor/find-anchors.ts';
/** Text with positions of every page (pdf.js), to search many anchors without re-parsing. */
export { extractText } from './anchor/extract-text.ts';
/** The pure search over extracted text. */
export { searchAnchors, newSearchBudget, ANCHOR_SEARCH_BUDGET, type AnchorMatch, type SearchBudget } from './anchor/search-anchors.ts';
/** DocuSign anchor fields → validated search (units to points, wire booleans). */
export { toAnchorSearch, POINTS_PER_UNIT, type AnchorOptions, type AnchorSearch, type AnchorUnits } from './anchor/anchor-options.ts';
/** The positioned text model anchor search works on. */
export type { DocumentText, PageText, TextRun } from './anchor/page-text.ts';

/** Draws adopted signatures (image or typed name) with a caption at tab positions. */
export {
  stampSignatures,
  signedCaption,
  SIGN_HERE_SIZE,
  type Signature,
  type SignatureStamp,
  type StampOptions,
} from './stamp/stamp-signatures.ts';
/** Draws tabs' final values (text in a standard font, checked boxes, selected radios) at their places. */
export { drawTabValues, TAB_VALUE_SIZES, type TabValueStamp, type TextFamily, type TextStyle } from './stamp/draw-tab-values.ts';
/** The AcroForm fields of an uploaded PDF (text, checkbox, radio, choice, signature) with their widgets' places. */
export { readFormFields, MAX_FORM_FIELDS, type FormField, type FieldWidget } from './form/read-form-fields.ts';
/** The PDF without its form (widgets, AcroForm, field objects); named fields keep their look as page content. */
export { removeFormFields } from './form/remove-form-fields.ts';
/** Signature images: the pixel budget from the header, and a full decode (run it on PdfThreads). */
export { checkSignatureImage, readSignatureImage, SIGNATURE_IMAGE_LIMITS, type SignatureImageInfo } from './stamp/signature-image.ts';
/** The handwriting-style font (Dancing Script, OFL) used for typed signatures. */
export { loadSignatureFont, SIGNATURE_FONT_PATH } from './stamp/signature-font.ts';
export { loadUnicodeFont, unicodeFontAvailable, UNICODE_FONT_PATH } from './stamp/unicode-font.ts';
/** Concatenates PDFs in order: the envelope's combined document. */
export { mergePdfs } from './stamp/merge-pdfs.ts';
/** A PDF portfolio: the envelope's documents embedded whole in one PDF (getDocument "portfolio"). */
export { buildPortfolio, type PortfolioFile } from './portfolio/build-portfolio.ts';
/** The certificate-of-completion pages, rendered from plain data. */
export { renderCertificate, ENGLISH_CERTIFICATE_LABELS, type CertificateData, type CertificateLabels } from './stamp/render-certificate.ts';
/** Hex SHA-256 of a document, as the certificate prints it. */
export { sha256Hex } from './stamp/sha256-hex.ts';

/** ONE digital seal (ETSI.CAdES.detached) over the final PDF; the last write. */
export { sealPdf, type SealOptions } from './seal/seal-pdf.ts';
/** A self-signed development seal P12, generated once and persisted by the caller. */
export { createDevSealP12, type SealIdentity, type DevSealOptions } from './seal/create-dev-seal-p12.ts';
/** PAdES B-T: an RFC 3161 signature timestamp added to the seal in place. */
export { timestampSeal } from './seal/timestamp-seal.ts';
export { requestTimestamp, type TimestampAuthority, type TimestampToken } from './seal/request-timestamp.ts';
/** Which PAdES baseline level a sealed file reaches (B-B, B-T, B-LT, B-LTA). */
export { evidenceLevel, reaches, EVIDENCE_LEVELS, type EvidenceLevel } from './seal/evidence-level.ts';
/** PAdES B-LT: a DSS (certificates, OCSP responses) in an incremental update. */
export { addValidationData, type ValidationDataOptions } from './seal/add-validation-data.ts';
/** PAdES B-LTA: a document timestamp (ETSI.RFC3161) in an incremental update. */
export { addDocumentTimestamp } from './seal/add-document-timestamp.ts';
/** What a PDF's own bytes say about its signatures (for /verify; trusts nothing in the file). */
export { inspectSignatures, type PdfInspection, type SignatureReport, type SignerName } from './seal/inspect-signatures.ts';
/** When a B-LTA file's last document timestamp certificate expires (renew before). */
export { documentTimestampExpiry } from './seal/timestamp-expiry.ts';
