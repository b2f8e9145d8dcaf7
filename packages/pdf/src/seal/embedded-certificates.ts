import * as pkijs from 'pkijs';
import { signatureSlots, slotContents } from './signature-slots.ts';
import { SIGNATURE_TIMESTAMP_OID } from './timestamp-seal.ts';
import { arrayBufferOf } from './array-buffer-of.ts';

const signedDataOf = (der: Uint8Array): pkijs.SignedData => new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBufferOf(der)).content });

function certificatesOf(signed: pkijs.SignedData): pkijs.Certificate[] {
  return (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
}

/**
 * Every certificate the file's signatures carry: the seal's chain (its CMS), each signature
 * timestamp's TSA chain, and each document timestamp's. These are what a DSS must vouch for.
 */
export function embeddedCertificates(pdf: Uint8Array): pkijs.Certificate[] {
  const found: pkijs.Certificate[] = [];
  for (const slot of signatureSlots(pdf)) {
    const signed = signedDataOf(slotContents(pdf, slot));
    found.push(...certificatesOf(signed));
    for (const signer of signed.signerInfos) {
      for (const attr of signer.unsignedAttrs?.attributes ?? []) {
        if (attr.type !== SIGNATURE_TIMESTAMP_OID) continue;
        for (const value of attr.values as { toBER(): ArrayBuffer }[]) found.push(...certificatesOf(signedDataOf(new Uint8Array(value.toBER()))));
      }
    }
  }
  return uniqueCertificates(found);
}

export function uniqueCertificates(certs: readonly pkijs.Certificate[]): pkijs.Certificate[] {
  const seen = new Set<string>();
  return certs.filter((c) => {
    const key = Buffer.from(c.toSchema(true).toBER(false)).toString('hex');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The certificate in `pool` whose key signed `cert`; undefined when the chain stops here. */
export async function issuerOf(cert: pkijs.Certificate, pool: readonly pkijs.Certificate[]): Promise<pkijs.Certificate | undefined> {
  for (const candidate of pool) {
    if (!candidate.subject.isEqual(cert.issuer)) continue;
    if (await cert.verify(candidate).catch(() => false)) return candidate;
  }
  return undefined;
}

export const isSelfSigned = (cert: pkijs.Certificate): boolean => cert.subject.isEqual(cert.issuer);

/** A certificate's subject as readable text, for messages ("Signet Test Seal, Signet tests"). */
export const subjectText = (cert: pkijs.Certificate): string => cert.subject.typesAndValues.map((t) => String(t.value.valueBlock.value)).join(', ');
