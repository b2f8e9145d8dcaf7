import { issueCertificate } from '@signet/kit';
import type { PemPair } from './certificate-store.ts';

/**
 * The node default certificate (Kong `ssl_cert`/`ssl_cert_key`): the given PEM pair, else a
 * self-signed `localhost` certificate generated now, as Kong generates one at first start.
 */
export function loadDefaultCertificate(given: PemPair | undefined): PemPair {
  if (given !== undefined) return given;
  return issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
}
