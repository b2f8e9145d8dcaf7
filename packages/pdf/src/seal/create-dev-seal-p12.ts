import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** A PKCS#12 bundle (certificate + private key) and the passphrase that opens it. */
export type SealIdentity = { p12: Uint8Array; passphrase: string };

export type DevSealOptions = {
  commonName?: string;
  organization?: string;
  passphrase?: string;
  days?: number;
  /** notBefore/notAfter are stamped from this; injectable for tests. */
  now?: Date;
};

/**
 * A self-signed seal certificate for development: generate once and let the caller persist
 * the P12 (validators then show the same, if untrusted, signer every time). Production passes
 * its own P12. The key usages are the ones a document-signing certificate carries
 * (RFC 5280 §4.2.1.3: digitalSignature and nonRepudiation/contentCommitment).
 */
export function createDevSealP12(options: DevSealOptions = {}): SealIdentity {
  const passphrase = options.passphrase ?? randomBytes(18).toString('base64url');
  // Native key generation (~50 ms); forge only builds the certificate and the P12.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  const now = options.now ?? new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + (options.days ?? 3650) * 86_400_000);
  const subject = [
    { name: 'commonName', value: options.commonName ?? 'Signet development seal' },
    { name: 'organizationName', value: options.organization ?? 'Signet development' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: '3des', friendlyName: 'Signet seal' });
  const der = forge.asn1.toDer(asn1).getBytes();
  return { p12: new Uint8Array(Buffer.from(der, 'binary')), passphrase };
}
