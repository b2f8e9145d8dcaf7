import { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { PdfError } from '../pdf-error.ts';
import { CadesSigner } from './cades-signer.ts';
import type { SealIdentity } from './create-dev-seal-p12.ts';
import { readSealP12 } from './read-seal-p12.ts';

export type SealOptions = SealIdentity & {
  reason?: string;
  name?: string;
  location?: string;
  contactInfo?: string;
  /** Default now; injectable for reproducible output. */
  signingTime?: Date;
};

// Room for the CMS blob in /Contents: RSA-2048 + one certificate is ~1.5 KB of DER; 16 KB
// leaves space for a chain (hex doubles it in the file).
const SIGNATURE_LENGTH = 16_384;

/**
 * Applies ONE digital seal (ETSI.CAdES.detached, the PAdES subfilter) over the whole PDF with
 * the service's P12: PAdES baseline B-B (CadesSigner: ESS signing-certificate-v2, the time in
 * /M). Must be the last write: any later re-save by pdf-lib invalidates it (docs/pdf.md,
 * "Stamping, certificate, seal"); later levels are added by incremental updates.
 */
export async function sealPdf(pdfBytes: Uint8Array, options: SealOptions): Promise<Uint8Array> {
  let prepared: Uint8Array;
  try {
    const doc = await PDFDocument.load(pdfBytes);
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: options.reason ?? 'Signed and sealed by Signet: the envelope is complete.',
      contactInfo: options.contactInfo ?? '',
      name: options.name ?? 'Signet',
      location: options.location ?? '',
      signatureLength: SIGNATURE_LENGTH,
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      appName: 'Signet',
      ...(options.signingTime ? { signingTime: options.signingTime } : {}),
    });
    // Classic xref table: @signpdf finds and fills the ByteRange placeholder in plain objects.
    prepared = await doc.save({ useObjectStreams: false });
  } catch (err) {
    throw new PdfError('SEAL_FAILED', 'The PDF could not be prepared for sealing.', { cause: err });
  }
  try {
    const signer = new CadesSigner(readSealP12(options.p12, options.passphrase));
    const signed = await new SignPdf().sign(Buffer.from(prepared), signer, options.signingTime);
    return new Uint8Array(signed.buffer, signed.byteOffset, signed.byteLength);
  } catch (err) {
    throw new PdfError('SEAL_FAILED', 'Check the seal P12 and its passphrase.', { cause: err });
  }
}
