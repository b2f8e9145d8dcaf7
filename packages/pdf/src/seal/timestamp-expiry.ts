import * as pkijs from 'pkijs';
import { arrayBufferOf } from './array-buffer-of.ts';
import { signatureSlots, slotContents } from './signature-slots.ts';

const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4';

/**
 * When the certificate of the file's last document timestamp expires: the date by which a
 * B-LTA file must be renewed (a new DSS and document timestamp over everything), or its
 * evidence can no longer be validated. Undefined for a file with no document timestamp.
 */
export function documentTimestampExpiry(pdf: Uint8Array): Date | undefined {
  let expiry: Date | undefined;
  for (const slot of signatureSlots(pdf)) {
    const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBufferOf(slotContents(pdf, slot))).content });
    if (signed.encapContentInfo.eContentType !== TST_INFO_OID) continue;
    const sid: unknown = signed.signerInfos[0]?.sid;
    const certs = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
    const signer = sid instanceof pkijs.IssuerAndSerialNumber ? certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) : certs[0];
    if (signer) expiry = signer.notAfter.value;
  }
  return expiry;
}
