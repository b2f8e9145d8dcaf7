import * as pkijs from 'pkijs';
import { PdfError } from '../pdf-error.ts';
import { fetchOnceMore } from './fetch-once-more.ts';
import { arrayBufferOf } from './array-buffer-of.ts';
import { subjectText } from './embedded-certificates.ts';
import { readBounded } from './read-bounded.ts';

const AIA_OID = '1.3.6.1.5.5.7.1.1';
const OCSP_METHOD_OID = '1.3.6.1.5.5.7.48.1';
const MAX_RESPONSE_BYTES = 256 * 1024;

/** The OCSP responder URL a certificate names in its authorityInfoAccess, if any (http/https only). */
export function ocspUrlOf(cert: pkijs.Certificate): string | undefined {
  const aia = cert.extensions?.find((e) => e.extnID === AIA_OID)?.parsedValue as pkijs.InfoAccess | undefined;
  for (const d of aia?.accessDescriptions ?? []) {
    const value: unknown = d.accessLocation.value;
    if (d.accessMethod === OCSP_METHOD_OID && d.accessLocation.type === 6 && typeof value === 'string' && /^https?:\/\//i.test(value)) return value;
  }
  return undefined;
}

/**
 * A checked OCSP answer: the OCSPResponse DER (what a DSS holds), the responder's certificates,
 * and its verdict (the caller decides what a "revoked" or "unknown" means for it).
 */
export type OcspEvidence = { der: Uint8Array; certificates: pkijs.Certificate[]; status: 'good' | 'revoked' | 'unknown' };

/** Clock skew allowed between us and a responder. */
const SKEW_MS = 5 * 60_000;
/** An answer without nextUpdate says newer status is always available (RFC 6960 §4.2.2.1): it must be this recent. */
const MAX_AGE_WITHOUT_NEXT_UPDATE_MS = 24 * 3_600_000;

/**
 * Asks `cert`'s OCSP responder about it (RFC 6960, POST) and accepts only a successful,
 * signed answer about this very certificate whose signature chains to the issuer (directly or
 * through a responder certificate the issuer delegated to), and which is current at `now`:
 * thisUpdate not ahead, nextUpdate not passed (5 minutes' skew; without nextUpdate, at most a
 * day old), so a stale "good" replayed from before a revocation is not kept as proof.
 * Anything else is VALIDATION_DATA_FAILED.
 */
export async function fetchOcsp(cert: pkijs.Certificate, issuer: pkijs.Certificate, timeoutMs = 15_000, now = new Date()): Promise<OcspEvidence> {
  const subject = subjectText(cert);
  const fail = (why: string, cause?: unknown): never => {
    throw new PdfError('VALIDATION_DATA_FAILED', `OCSP for "${subject}": ${why}.`, cause ? { cause } : undefined);
  };
  const url = ocspUrlOf(cert) ?? fail('the certificate names no OCSP responder');
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(cert, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  let bytes: Uint8Array;
  try {
    const res = await fetchOnceMore(url, { method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: new Uint8Array(request.toSchema(true).toBER(false)), timeoutMs });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    bytes = await readBounded(res, MAX_RESPONSE_BYTES);
  } catch (err) {
    return fail(`the responder at ${new URL(url).origin} did not answer (${(err as Error).message})`, err);
  }
  let basic: pkijs.BasicOCSPResponse;
  try {
    const response = pkijs.OCSPResponse.fromBER(arrayBufferOf(bytes));
    if (response.responseStatus.valueBlock.valueDec !== 0 || !response.responseBytes) return fail(`the responder refused (status ${response.responseStatus.valueBlock.valueDec})`);
    basic = pkijs.BasicOCSPResponse.fromBER(arrayBufferOf(response.responseBytes.response.valueBlock.valueHexView));
  } catch (err) {
    if (err instanceof PdfError) throw err;
    return fail('the answer is not an OCSP response', err);
  }
  const verified = await basic.verify({ trustedCerts: [issuer] }).catch(() => false);
  if (!verified) fail('the answer is not signed by the issuer or its delegated responder');
  const status = await basic.getCertificateStatus(cert, issuer);
  if (!status.isForCertificate) fail('the answer is about another certificate');
  const single = basic.tbsResponseData.responses.find((r) => r.certID.serialNumber.isEqual(cert.serialNumber)) ?? fail('the answer is about another certificate');
  const t = now.getTime();
  if (single.thisUpdate.getTime() > t + SKEW_MS) fail('the answer is dated in the future');
  if (single.nextUpdate ? single.nextUpdate.getTime() < t - SKEW_MS : single.thisUpdate.getTime() < t - MAX_AGE_WITHOUT_NEXT_UPDATE_MS) fail('the answer is out of date (past its nextUpdate)');
  return { der: bytes, certificates: basic.certs ?? [], status: status.status === 0 ? 'good' : status.status === 1 ? 'revoked' : 'unknown' };
}

/** Parses a DER certificate. */
export const derOf = (cert: pkijs.Certificate): Uint8Array => new Uint8Array(cert.toSchema(true).toBER(false));
