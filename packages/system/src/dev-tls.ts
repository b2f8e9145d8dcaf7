import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createCertificateAuthority, ensurePrivateDir, issueCertificate } from '@signet/kit';

/** Paths of the development TLS material kept in the data dir. */
export type DevTls = { dir: string; caPath: string; certPath: string; keyPath: string; created: boolean };

/**
 * The development CA lives 90 days and may only vouch for localhost and loopback addresses
 * (a critical nameConstraints extension): a machine that trusts it, or anyone who copies its key
 * out of the data directory, gets nothing for any other site. It is replaced 30 days before it
 * ends, and a CA from before the constraints is replaced at once.
 */
export const DEV_CA = { days: 90, renewBeforeDays: 30, permitted: { dnsNames: ['localhost'], ipRanges: ['127.0.0.0/8', '::1/128'] } } as const;
/** The localhost certificate: 30 days, renewed when less than 7 are left. */
export const DEV_LEAF = { days: 30, renewBeforeDays: 7 } as const;
const DAY_MS = 86_400_000;
// DER of the nameConstraints OID 2.5.29.30, as it appears in the extension list.
const NAME_CONSTRAINTS_OID = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x1e]);

function caIsCurrent(caPem: string, now: Date): boolean {
  try {
    const ca = new X509Certificate(caPem);
    return ca.raw.includes(NAME_CONSTRAINTS_OID) && new Date(ca.validTo).getTime() - now.getTime() > DEV_CA.renewBeforeDays * DAY_MS;
  } catch {
    return false;
  }
}

function isUsable(certPath: string, caPem: string, now: Date): boolean {
  try {
    const cert = new X509Certificate(readFileSync(certPath));
    const ca = new X509Certificate(caPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey) && new Date(cert.validTo).getTime() - now.getTime() > DEV_LEAF.renewBeforeDays * DAY_MS;
  } catch {
    return false;
  }
}

// Write-then-rename: a crash never leaves a half-written PEM that the next start would trust.
function writeAtomic(path: string, content: string, mode: number): void {
  writeFileSync(`${path}.tmp`, content, { mode });
  chmodSync(`${path}.tmp`, mode);
  renameSync(`${path}.tmp`, path);
}

/**
 * The development CA (generated on first start, kept so clients can trust it through
 * NODE_EXTRA_CA_CERTS, replaced before it ends) and the `localhost` certificate it issues for
 * the gateway. The data directory and the tls directory are 0700, the keys 0600.
 */
export function ensureDevTls(dataDir: string, now = new Date()): DevTls {
  const dir = join(dataDir, 'tls');
  const caPath = join(dir, 'ca.pem');
  const caKeyPath = join(dir, 'ca-key.pem');
  const certPath = join(dir, 'localhost.pem');
  const keyPath = join(dir, 'localhost-key.pem');
  ensurePrivateDir(dataDir);
  ensurePrivateDir(dir);

  let created = false;
  if (!existsSync(caPath) || !existsSync(caKeyPath) || !caIsCurrent(readFileSync(caPath, 'utf8'), now)) {
    const ca = createCertificateAuthority({ commonName: 'Signet development CA', days: DEV_CA.days, now, permitted: { dnsNames: [...DEV_CA.permitted.dnsNames], ipRanges: [...DEV_CA.permitted.ipRanges] } });
    writeAtomic(caKeyPath, ca.keyPem, 0o600);
    writeAtomic(caPath, ca.certPem, 0o644);
    created = true;
  }
  const ca = { certPem: readFileSync(caPath, 'utf8'), keyPem: readFileSync(caKeyPath, 'utf8') };
  if (created || !existsSync(keyPath) || !isUsable(certPath, ca.certPem, now)) {
    const leaf = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1', '::1'], days: DEV_LEAF.days, now }, ca);
    writeAtomic(keyPath, leaf.keyPem, 0o600);
    writeAtomic(certPath, leaf.certPem, 0o644);
    created = true;
  }
  return { dir, caPath, certPath, keyPath, created };
}
