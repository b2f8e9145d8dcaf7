import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import { evidenceLevel, type EvidenceLevel } from './evidence-level.ts';
import { signatureSlots, signedBytes, slotClaimedTime, slotContents, type SignatureSlot } from './signature-slots.ts';
import { SIGNATURE_TIMESTAMP_OID } from './timestamp-seal.ts';
import { arrayBufferOf } from './array-buffer-of.ts';

const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4';
const SIGNING_TIME_OID = '1.2.840.113549.1.9.5';
const CN_OID = '2.5.4.3';
const O_OID = '2.5.4.10';
/** A hostile file could declare thousands; ours have at most two (seal and document timestamp) per renewal. */
const MAX_SIGNATURES = 8;

/** Who signed: the names in the signer certificate's subject. */
export type SignerName = { readonly commonName?: string; readonly organization?: string };

/** One signature of a PDF, as checked from its own bytes (nothing here says whom to trust). */
export type SignatureReport = {
  readonly kind: 'signature' | 'document-timestamp';
  /** The cryptography holds: the digest of the signed byte ranges matches and the signature verifies. */
  readonly intact: boolean;
  /** Its byte ranges reach the end of the file (nothing was appended after it). */
  readonly coversWholeFile: boolean;
  readonly signer?: SignerName;
  /** The signer's own claimed time (ISO 8601), for a signature; the TSA's time for a document timestamp. */
  readonly signingTime?: string;
  /** The signature timestamp (trusted time) on a signature. */
  readonly timestamp?: { readonly time: string; readonly authority?: SignerName; readonly intact: boolean };
};

/** What a PDF's bytes say about its signatures; computed without trusting anything in it. */
export type PdfInspection = {
  readonly sha256: string;
  readonly byteLength: number;
  readonly signatures: readonly SignatureReport[];
  /** The PAdES level, when the file has our layout; undefined otherwise. */
  readonly level?: EvidenceLevel;
};


function nameOf(cert: pkijs.Certificate | undefined): SignerName | undefined {
  if (!cert) return undefined;
  const get = (oid: string) => {
    const v: unknown = cert.subject.typesAndValues.find((t) => t.type === oid)?.value.valueBlock.value;
    return typeof v === 'string' ? v.slice(0, 200) : undefined;
  };
  const commonName = get(CN_OID);
  const organization = get(O_OID);
  return { ...(commonName ? { commonName } : {}), ...(organization ? { organization } : {}) };
}

function signerCertificate(signed: pkijs.SignedData): pkijs.Certificate | undefined {
  const sid: unknown = signed.signerInfos[0]?.sid;
  const certs = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  if (sid instanceof pkijs.IssuerAndSerialNumber) return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  return certs[0];
}

async function verifies(signed: pkijs.SignedData, data: Uint8Array): Promise<boolean> {
  try {
    const result = await signed.verify({ signer: 0, data: arrayBufferOf(data), checkChain: false, extendedMode: true });
    return result.signatureVerified === true;
  } catch {
    return false;
  }
}

const tstTime = (signed: pkijs.SignedData): string | undefined => {
  const content = signed.encapContentInfo.eContent;
  return content ? pkijs.TSTInfo.fromBER(content.getValue()).genTime.toISOString() : undefined;
};

async function inspectOne(pdf: Uint8Array, slot: SignatureSlot): Promise<SignatureReport> {
  const coversWholeFile = slot.byteRange[2] + slot.byteRange[3] === pdf.byteLength;
  let signed: pkijs.SignedData;
  try {
    signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBufferOf(slotContents(pdf, slot))).content });
  } catch {
    return { kind: 'signature', intact: false, coversWholeFile };
  }
  const data = signedBytes(pdf, slot);
  const signer = nameOf(signerCertificate(signed));
  if (signed.encapContentInfo.eContentType === TST_INFO_OID) {
    const time = tstTime(signed);
    return { kind: 'document-timestamp', intact: await verifies(signed, data), coversWholeFile, ...(signer ? { signer } : {}), ...(time ? { signingTime: time } : {}) };
  }
  const info = signed.signerInfos[0];
  const claimed = info?.signedAttrs?.attributes.find((a) => a.type === SIGNING_TIME_OID)?.values[0] as { toDate?: () => Date } | undefined;
  // Seals made before CadesSigner carry a CMS signing-time; PAdES ones claim their time in /M.
  const signingTime = claimed?.toDate?.().toISOString() ?? slotClaimedTime(pdf, slot);
  let timestamp: SignatureReport['timestamp'];
  const tokenAttr = info?.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP_OID)?.values[0] as { toBER(): ArrayBuffer } | undefined;
  if (info && tokenAttr) {
    try {
      const token = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(tokenAttr.toBER()).content });
      const time = tstTime(token);
      const authority = nameOf(signerCertificate(token));
      if (time) timestamp = { time, intact: await verifies(token, new Uint8Array(info.signature.valueBlock.valueHexView)), ...(authority ? { authority } : {}) };
    } catch {
      timestamp = undefined;
    }
  }
  return { kind: 'signature', intact: await verifies(signed, data), coversWholeFile, ...(signer ? { signer } : {}), ...(signingTime ? { signingTime } : {}), ...(timestamp ? { timestamp } : {}) };
}

/**
 * Checks every signature a PDF carries against its own bytes: for /verify, where the file is
 * anyone's upload. It reads signatures by their /ByteRange (bounded: at most 8), verifies each
 * CMS over its ranges and each timestamp over what it stamps, and hashes the file (the caller
 * looks the hash up among the files it sealed). It trusts no certificate: whose seal it is
 * comes from the caller's records, not from names in the file.
 */
export async function inspectSignatures(pdf: Uint8Array): Promise<PdfInspection> {
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const slots = signatureSlots(pdf).slice(0, MAX_SIGNATURES);
  const signatures: SignatureReport[] = [];
  for (const slot of slots) signatures.push(await inspectOne(pdf, slot));
  let level: EvidenceLevel | undefined;
  try {
    level = signatures.length > 0 ? evidenceLevel(pdf) : undefined;
  } catch {
    level = undefined;
  }
  return { sha256, byteLength: pdf.byteLength, signatures, ...(level ? { level } : {}) };
}
