import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** A PEM certificate with its PEM private key (PKCS#8). */
export type KeyPair = { certPem: string; keyPem: string };

export type CertificateRequest = {
  commonName: string;
  /** subjectAltName DNS entries; wildcards allowed. */
  dnsNames?: readonly string[];
  /** subjectAltName IP entries. */
  ipAddresses?: readonly string[];
  days?: number;
  /** Used to stamp notBefore/notAfter; injectable for tests. */
  now?: Date;
};

// Key generation is native (node:crypto, ~50 ms); node-forge only builds and signs the X.509.
function newRsaKey(): { keyPem: string; forgeKey: forge.pki.rsa.PrivateKey; forgePublic: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(keyPem);
  const forgePublic = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  return { keyPem, forgeKey, forgePublic };
}

// node-forge writes PEM with CRLF; a YAML block scalar (how kong.yml must hold a PEM) cannot keep \r.
const toLf = (pem: string): string => pem.replace(/\r\n/g, '\n');

function baseCertificate(publicKey: forge.pki.PublicKey, req: CertificateRequest): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // Positive 16-byte serial (RFC 5280 §4.1.2.2: at most 20 octets, non-negative).
  cert.serialNumber = '01' + randomBytes(15).toString('hex');
  const now = req.now ?? new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + (req.days ?? 825) * 86_400_000);
  return cert;
}

/**
 * The only names a CA may issue for (RFC 5280 §4.2.1.10, critical): DNS names match themselves
 * and their subdomains; IP ranges are CIDR blocks. TLS clients (OpenSSL, so Node and curl)
 * refuse a certificate from the CA for any other name, so a development CA that a machine
 * trusts, or whose key leaks, cannot vouch for a real site.
 */
export type NameConstraints = { dnsNames: readonly string[]; ipRanges: readonly string[] };

/** An IP range as GeneralName iPAddress bytes: the address then the mask (RFC 5280 §4.2.1.10). */
function ipRangeBytes(cidr: string): string {
  const [address = '', bitsText] = cidr.split('/');
  const v6 = address.includes(':');
  const width = v6 ? 128 : 32;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) throw new TypeError(`bad IP range ${cidr}`);
  // node-forge has bytesFromIP (it encodes IP subjectAltNames with it); its typings omit it.
  const addr = (forge.util as unknown as { bytesFromIP(ip: string): string | null }).bytesFromIP(address);
  if (!addr || addr.length !== width / 8) throw new TypeError(`bad IP range ${cidr}`);
  let mask = '';
  for (let i = 0; i < width / 8; i++) mask += String.fromCharCode(bits >= (i + 1) * 8 ? 0xff : bits <= i * 8 ? 0 : (0xff << (8 - (bits - i * 8))) & 0xff);
  return addr + mask;
}

function nameConstraintsExtension(permitted: NameConstraints): { id: string; critical: true; value: forge.asn1.Asn1 } {
  const { asn1 } = forge;
  const subtree = (general: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [general]);
  const subtrees = [
    ...permitted.dnsNames.map((name) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, name))),
    ...permitted.ipRanges.map((range) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, ipRangeBytes(range)))),
  ];
  // NameConstraints ::= SEQUENCE { permittedSubtrees [0] IMPLICIT GeneralSubtrees }
  const value = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, subtrees)]);
  return { id: '2.5.29.30', critical: true, value };
}

/** A self-signed certificate authority for development and tests, optionally name-constrained. */
export function createCertificateAuthority(req: CertificateRequest & { permitted?: NameConstraints }): KeyPair {
  const key = newRsaKey();
  const cert = baseCertificate(key.forgePublic, req);
  const subject = [{ name: 'commonName', value: req.commonName }, { name: 'organizationName', value: 'Signet development' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    ...(req.permitted ? [nameConstraintsExtension(req.permitted)] : []),
  ]);
  cert.sign(key.forgeKey, forge.md.sha256.create());
  return { certPem: toLf(forge.pki.certificateToPem(cert)), keyPem: key.keyPem };
}

/** A server certificate issued by `issuer` (or self-signed when `issuer` is omitted). */
export function issueCertificate(req: CertificateRequest, issuer?: KeyPair): KeyPair {
  const key = newRsaKey();
  const cert = baseCertificate(key.forgePublic, req);
  cert.setSubject([{ name: 'commonName', value: req.commonName }]);
  const altNames = [
    ...(req.dnsNames ?? [req.commonName]).map((value) => ({ type: 2, value })),
    ...(req.ipAddresses ?? []).map((ip) => ({ type: 7, ip })),
  ];
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  if (issuer) {
    const caCert = forge.pki.certificateFromPem(issuer.certPem);
    cert.setIssuer(caCert.subject.attributes);
    cert.sign(forge.pki.privateKeyFromPem(issuer.keyPem), forge.md.sha256.create());
  } else {
    cert.setIssuer(cert.subject.attributes);
    cert.sign(key.forgeKey, forge.md.sha256.create());
  }
  return { certPem: toLf(forge.pki.certificateToPem(cert)), keyPem: key.keyPem };
}
