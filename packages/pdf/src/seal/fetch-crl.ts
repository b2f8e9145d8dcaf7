import * as pkijs from 'pkijs';
import { PdfError } from '../pdf-error.ts';
import { arrayBufferOf } from './array-buffer-of.ts';
import { subjectText } from './embedded-certificates.ts';
import { fetchOnceMore } from './fetch-once-more.ts';
import { readBounded } from './read-bounded.ts';

const CRL_DISTRIBUTION_POINTS_OID = '2.5.29.31';
/** CRLs of large CAs run to megabytes; beyond this one is refused rather than held. */
const MAX_CRL_BYTES = 8 * 1024 * 1024;
const URI_NAME = 6;

/** The CRL URLs (http/https, full names only) a certificate's cRLDistributionPoints name. */
export function crlUrlsOf(cert: pkijs.Certificate): string[] {
  const ext = cert.extensions?.find((e) => e.extnID === CRL_DISTRIBUTION_POINTS_OID)?.parsedValue as pkijs.CRLDistributionPoints | undefined;
  const urls: string[] = [];
  for (const point of ext?.distributionPoints ?? []) {
    // A point naming another CRL issuer (an indirect CRL) or only some reasons is not a complete
    // answer about this certificate from its issuer: skipped.
    if (point.cRLIssuer || point.reasons || !Array.isArray(point.distributionPoint)) continue;
    for (const name of point.distributionPoint) {
      const value: unknown = name.value;
      if (name.type === URI_NAME && typeof value === 'string' && /^https?:\/\//i.test(value)) urls.push(value);
    }
  }
  return urls;
}

/** A checked CRL: its DER, as a DSS holds it, and whether it lists the certificate. */
export type CrlEvidence = { der: Uint8Array; revoked: boolean };

/**
 * Downloads `cert`'s CRL (RFC 5280 §4.2.1.13, the first distribution point that answers) and
 * accepts it only when it is a CRL issued by `issuer` (same name, signed by its key), current
 * (thisUpdate not in the future, nextUpdate not passed, both with 5 minutes of clock skew);
 * `revoked` says whether it lists `cert`. Anything else is VALIDATION_DATA_FAILED.
 */
export async function fetchCrl(cert: pkijs.Certificate, issuer: pkijs.Certificate, timeoutMs = 15_000, now = new Date()): Promise<CrlEvidence> {
  const subject = subjectText(cert);
  const fail = (why: string, cause?: unknown): never => {
    throw new PdfError('VALIDATION_DATA_FAILED', `CRL for "${subject}": ${why}.`, cause ? { cause } : undefined);
  };
  const urls = crlUrlsOf(cert);
  if (urls.length === 0) fail('the certificate names no CRL distribution point');
  const problems: string[] = [];
  for (const url of urls) {
    let der: Uint8Array;
    try {
      const res = await fetchOnceMore(url, { method: 'GET', timeoutMs });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      der = await readBounded(res, MAX_CRL_BYTES);
    } catch (err) {
      problems.push(`${new URL(url).origin} did not answer (${(err as Error).message})`);
      continue;
    }
    let crl: pkijs.CertificateRevocationList;
    try {
      crl = pkijs.CertificateRevocationList.fromBER(arrayBufferOf(der));
    } catch (err) {
      return fail(`what ${new URL(url).origin} sent is not a CRL`, err);
    }
    if (!crl.issuer.isEqual(issuer.subject)) fail('the CRL is issued by another CA');
    const signed = await crl.verify({ issuerCertificate: issuer }).catch(() => false);
    if (!signed) fail('the CRL is not signed by the certificate\'s issuer');
    const skewMs = 5 * 60_000;
    if (crl.thisUpdate.value.getTime() > now.getTime() + skewMs) fail('the CRL is dated in the future');
    if (crl.nextUpdate && crl.nextUpdate.value.getTime() < now.getTime() - skewMs) fail('the CRL is out of date (its nextUpdate has passed)');
    return { der, revoked: crl.isCertificateRevoked(cert) };
  }
  return fail(problems.join('; '));
}
