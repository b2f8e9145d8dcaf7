import type * as pkijs from 'pkijs';
import { PdfError } from '../pdf-error.ts';
import { subjectText } from './embedded-certificates.ts';
import { crlUrlsOf, fetchCrl, type CrlEvidence } from './fetch-crl.ts';
import { fetchOcsp, ocspUrlOf, type OcspEvidence } from './fetch-ocsp.ts';

/** What a DSS gets for one certificate: an OCSP answer (with its responder's certificates) or a CRL. */
export type RevocationEvidence =
  | { kind: 'ocsp'; der: Uint8Array; certificates: pkijs.Certificate[] }
  | { kind: 'crl'; der: Uint8Array };

/**
 * Proof that `cert` was not revoked, from its issuer: OCSP first (small, about this one
 * certificate), else the CRL its cRLDistributionPoints name, which is also the fallback when the
 * OCSP responder is down or does not know the certificate. A "revoked" answer from either is
 * final: VALIDATION_DATA_FAILED naming the certificate, never a search for a kinder source.
 */
export async function revocationEvidence(cert: pkijs.Certificate, issuer: pkijs.Certificate, timeoutMs?: number): Promise<RevocationEvidence> {
  const subject = subjectText(cert);
  const revoked = (): never => {
    throw new PdfError('VALIDATION_DATA_FAILED', `"${subject}": the certificate is REVOKED.`);
  };
  const hasCrl = crlUrlsOf(cert).length > 0;
  const hasOcsp = ocspUrlOf(cert) !== undefined;
  if (!hasOcsp && !hasCrl) throw new PdfError('VALIDATION_DATA_FAILED', `"${subject}" names neither an OCSP responder nor a CRL distribution point.`);

  let ocspProblem: PdfError | undefined;
  if (hasOcsp) {
    let answer: OcspEvidence | undefined;
    try {
      answer = await fetchOcsp(cert, issuer, timeoutMs);
    } catch (err) {
      if (!(err instanceof PdfError)) throw err;
      ocspProblem = err;
    }
    if (answer?.status === 'good') return { kind: 'ocsp', der: answer.der, certificates: answer.certificates };
    if (answer?.status === 'revoked') revoked();
    ocspProblem ??= new PdfError('VALIDATION_DATA_FAILED', `OCSP for "${subject}": the responder does not know the certificate.`);
    if (!hasCrl) throw ocspProblem;
  }
  let crl: CrlEvidence;
  try {
    crl = await fetchCrl(cert, issuer, timeoutMs);
  } catch (err) {
    if (!(err instanceof PdfError) || !ocspProblem) throw err;
    throw new PdfError('VALIDATION_DATA_FAILED', `${ocspProblem.detail ?? ''} ${err.detail ?? ''}`.trim(), { cause: err });
  }
  if (crl.revoked) revoked();
  return { kind: 'crl', der: crl.der };
}
