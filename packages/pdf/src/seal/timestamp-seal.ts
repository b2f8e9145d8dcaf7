import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PdfError } from '../pdf-error.ts';
import { requestTimestamp, type TimestampAuthority } from './request-timestamp.ts';
import { signatureSlots, slotContents, writeSlotContents } from './signature-slots.ts';
import { arrayBufferOf } from './array-buffer-of.ts';

/** id-aa-signatureTimeStampToken (RFC 3161 Appendix A; ETSI EN 319 122-1 §5.3). */
export const SIGNATURE_TIMESTAMP_OID = '1.2.840.113549.1.9.16.2.14';


/**
 * PAdES B-B → B-T in place: a TSA timestamps the seal's signature value and the token goes
 * into the SignerInfo's unsigned attributes. /Contents lies outside the signed byte ranges,
 * so rewriting it (same reserved length) leaves the seal valid; the file keeps its size and
 * no revision is added. A seal already timestamped is returned as it is.
 */
export async function timestampSeal(pdf: Uint8Array, tsa: TimestampAuthority): Promise<{ pdf: Uint8Array; genTime: Date | undefined }> {
  const slot = signatureSlots(pdf)[0];
  if (!slot) throw new PdfError('SEAL_FAILED', 'The PDF has no seal to timestamp.');
  const cms = slotContents(pdf, slot);
  const info = pkijs.ContentInfo.fromBER(arrayBufferOf(cms));
  const signed = new pkijs.SignedData({ schema: info.content });
  const signer = signed.signerInfos[0];
  if (!signer) throw new PdfError('SEAL_FAILED', 'The seal has no signer.');
  if (signer.unsignedAttrs?.attributes.some((a) => a.type === SIGNATURE_TIMESTAMP_OID)) return { pdf, genTime: undefined };
  // RFC 3161 Appendix A: the imprint is over the SignerInfo's signature value.
  const token = await requestTimestamp(tsa, new Uint8Array(signer.signature.valueBlock.valueHexView));
  const attribute = new pkijs.Attribute({ type: SIGNATURE_TIMESTAMP_OID, values: [asn1js.fromBER(arrayBufferOf(token.der)).result] });
  signer.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 1, attributes: [...(signer.unsignedAttrs?.attributes ?? []), attribute] });
  const out = new pkijs.ContentInfo({ contentType: info.contentType, content: signed.toSchema(true) }).toSchema().toBER(false);
  return { pdf: writeSlotContents(pdf, slot, new Uint8Array(out)), genTime: token.genTime };
}
