import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '@signet/kit';

/** Paths of the development TLS material kept in the data dir. */
export type DevTls = { dir: string; caPath: string; certPath: string; keyPath: string; created: boolean };

/** Renew the localhost certificate when less than this is left. */
const RENEW_BEFORE_MS = 7 * 86_400_000;

function isUsable(certPath: string, caPem: string, now: Date): boolean {
  try {
    const cert = new X509Certificate(readFileSync(certPath));
    const ca = new X509Certificate(caPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey) && new Date(cert.validTo).getTime() - now.getTime() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

// Write-then-rename: a crash never leaves a half-written PEM that the next start would trust.
function writeAtomic(path: string, content: string, mode: number): void {
  writeFileSync(`${path}.tmp`, content, { mode });
  renameSync(`${path}.tmp`, path);
}

/**
 * The development CA (generated on first start, kept so clients can trust it through
 * NODE_EXTRA_CA_CERTS) and the `localhost` certificate it issues for the gateway.
 */
export function ensureDevTls(dataDir: string, now = new Date()): DevTls {
  const dir = join(dataDir, 'tls');
  const caPath = join(dir, 'ca.pem');
  const caKeyPath = join(dir, 'ca-key.pem');
  const certPath = join(dir, 'localhost.pem');
  const keyPath = join(dir, 'localhost-key.pem');
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  let created = false;
  if (!existsSync(caPath) || !existsSync(caKeyPath)) {
    const ca = createCertificateAuthority({ commonName: 'Signet development CA', days: 3650, now });
    writeAtomic(caKeyPath, ca.keyPem, 0o600);
    writeAtomic(caPath, ca.certPem, 0o644);
    created = true;
  }
  const ca = { certPem: readFileSync(caPath, 'utf8'), keyPem: readFileSync(caKeyPath, 'utf8') };
  if (created || !existsSync(keyPath) || !isUsable(certPath, ca.certPem, now)) {
    const leaf = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1', '::1'], days: 397, now }, ca);
    writeAtomic(keyPath, leaf.keyPem, 0o600);
    writeAtomic(certPath, leaf.certPem, 0o644);
    created = true;
  }
  return { dir, caPath, certPath, keyPath, created };
}
