import { PDFDocument } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';
import { checkSignatureImage } from '../stamp/signature-image.ts';
import { validatePdf } from './validate-pdf.ts';

/** What a signer may upload: the kinds DocuSign's signer attachments take that we can keep as PDF. */
export type AttachmentKind = 'pdf' | 'png' | 'jpeg';

/** The largest image an attachment may be (a phone photo of a page fits). */
export const ATTACHMENT_IMAGE_LIMITS = { maxWidth: 6000, maxHeight: 6000 } as const;

// A US Letter page (points): an image is fitted inside it with a half-inch margin.
const PAGE = { width: 612, height: 792, margin: 36 };

/** The kind of an upload by its first bytes (never by its name or declared type), or undefined. */
export function sniffAttachment(bytes: Uint8Array): AttachmentKind | undefined {
  const starts = (magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  return undefined;
}

/**
 * A signer's upload as a PDF the envelope can hold: a PDF is checked (readable, unencrypted) and
 * kept as it is; a PNG or JPEG, decoded within the signature images' pixel budget, becomes one
 * Letter page with the image fitted in. Anything else is UNSUPPORTED_FORMAT.
 */
export async function attachmentToPdf(bytes: Uint8Array): Promise<{ pdf: Uint8Array; pages: number }> {
  const kind = sniffAttachment(bytes);
  if (kind === undefined) throw new PdfError('UNSUPPORTED_FORMAT', 'An attachment must be a PDF, PNG or JPEG file.');
  if (kind === 'pdf') return { pdf: bytes, pages: await validatePdf(bytes) };
  try {
    // Decoded in full once, within a pixel budget: a small file must not inflate into gigabytes.
    await checkSignatureImage(bytes, ATTACHMENT_IMAGE_LIMITS);
  } catch (err) {
    throw new PdfError('UNSUPPORTED_FORMAT', `The ${kind === 'png' ? 'PNG' : 'JPEG'} attachment is unusable: ${err instanceof PdfError ? err.detail ?? err.message : 'it could not be decoded'}`, { cause: err });
  }
  const doc = await PDFDocument.create();
  const image = kind === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const fit = Math.min(1, (PAGE.width - 2 * PAGE.margin) / image.width, (PAGE.height - 2 * PAGE.margin) / image.height);
  const width = image.width * fit;
  const height = image.height * fit;
  page.drawImage(image, { x: (PAGE.width - width) / 2, y: PAGE.height - PAGE.margin - height, width, height });
  return { pdf: await doc.save(), pages: 1 };
}
