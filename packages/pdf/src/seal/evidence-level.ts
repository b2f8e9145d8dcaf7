import * as pkijs from 'pkijs';
import { signatureSlots, slotContents } from './signature-slots.ts';
import { SIGNATURE_TIMESTAMP_OID } from './timestamp-seal.ts';
import { arrayBufferOf } from './array-buffer-of.ts';

/**
 * PAdES baseline levels (ETSI EN 319 142-1 §6): B-B a signature; B-T plus trusted time for it;
 * B-LT plus the validation data (certificates, OCSP/CRL) in a DSS; B-LTA plus a document
 * timestamp over all of that. docs/pdf.md says what each proves.
 */
export type EvidenceLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
export const EVIDENCE_LEVELS: readonly EvidenceLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

/** The level of a file this package sealed (read from our own layout; not for foreign files). */
export function evidenceLevel(pdf: Uint8Array): EvidenceLevel | undefined {
  const slots = signatureSlots(pdf);
  const seal = slots[0];
  if (!seal) return undefined;
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBufferOf(slotContents(pdf, seal))).content });
  const timestamped = signed.signerInfos[0]?.unsignedAttrs?.attributes.some((a) => a.type === SIGNATURE_TIMESTAMP_OID) ?? false;
  if (!timestamped) return 'B-B';
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1', seal.byteRange[2] + seal.byteRange[3]);
  const hasDss = /\/DSS\s/.test(text);
  if (!hasDss) return 'B-T';
  return slots.length > 1 && /\/DocTimeStamp/.test(text) ? 'B-LTA' : 'B-LT';
}

/** Whether `level` is at least `target`. */
export function reaches(level: EvidenceLevel | undefined, target: EvidenceLevel): boolean {
  return level !== undefined && EVIDENCE_LEVELS.indexOf(level) >= EVIDENCE_LEVELS.indexOf(target);
}
