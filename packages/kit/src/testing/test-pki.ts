import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A certificate the test CA issued: its PEM, its key's PEM and the files holding them. */
export type IssuedCertificate = { certPem: string; keyPem: string; certFile: string; keyFile: string };

/**
 * A throwaway CA hierarchy for trust-service tests, kept by `openssl ca` in a temp directory
 * (so its index.txt is the revocation database the OCSP harness answers from): one root that
 * issues a seal certificate, a timestamping (TSA) certificate and an OCSP-signing certificate,
 * each with an authorityInfoAccess OCSP URL pointing at `ocspUrl`, and a second seal certificate
 * (`crlSeal`) that names no OCSP responder, only a CRL distribution point (`crlUrl`, served by
 * the OCSP harness from the same database): the case of an issuer that publishes only CRLs.
 */
export type TestPki = {
  readonly dir: string;
  readonly root: IssuedCertificate;
  readonly seal: IssuedCertificate & { p12: Uint8Array; passphrase: string };
  readonly tsa: IssuedCertificate;
  readonly ocsp: IssuedCertificate;
  /** A seal certificate whose revocation status is published only as a CRL at `crlUrl`. */
  readonly crlSeal: IssuedCertificate & { p12: Uint8Array; passphrase: string };
  readonly crlUrl: string;
  /** The root's current CRL (DER), made by `openssl ca -gencrl` from the database. */
  crl(): Promise<Uint8Array>;
  /** The openssl ca config (for the OCSP and TSA harnesses). */
  readonly caConfig: string;
  readonly indexFile: string;
  revoke(cert: IssuedCertificate): Promise<void>;
  remove(): Promise<void>;
};

function caConfig(dir: string, ocspUrl: string, crlUrl: string): string {
  return `
[ ca ]
default_ca = test_ca
[ test_ca ]
dir = ${dir}
database = ${dir}/index.txt
new_certs_dir = ${dir}
serial = ${dir}/serial
certificate = ${dir}/root.pem
private_key = ${dir}/root.key
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
default_days = 30
default_crl_days = 7
[ anything ]
commonName = supplied
organizationName = optional
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ root_ext ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ seal_ext ]
basicConstraints = CA:false
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:${ocspUrl}
[ crl_seal_ext ]
basicConstraints = CA:false
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${crlUrl}
[ tsa_ext ]
basicConstraints = CA:false
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:${ocspUrl}
[ ocsp_ext ]
basicConstraints = CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, OCSPSigning
noCheck = ignored
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;
}

/** Builds the hierarchy with Debian's openssl; `ocspUrl` is what the issued certificates name. */
export async function createTestPki(ocspUrl: string): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-test-pki-'));
  const config = join(dir, 'ca.cnf');
  const crlUrl = new URL('/crl.der', ocspUrl).href;
  await writeFile(config, caConfig(dir, ocspUrl, crlUrl));
  await writeFile(join(dir, 'index.txt'), '');
  await writeFile(join(dir, 'serial'), '1000\n');
  const ssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  const files = (name: string) => ({ certFile: join(dir, `${name}.pem`), keyFile: join(dir, `${name}.key`) });
  const load = async (name: string): Promise<IssuedCertificate> => {
    const f = files(name);
    return { ...f, certPem: await readFile(f.certFile, 'utf8'), keyPem: await readFile(f.keyFile, 'utf8') };
  };

  // Valid from an hour ago: a token or response made in the same second as the certificate
  // must not fall before its notBefore.
  const startDate = new Date(Date.now() - 3_600_000).toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  const rootFiles = files('root');
  const rootCsr = join(dir, 'root.csr');
  await ssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', rootFiles.keyFile, '-out', rootCsr, '-subj', '/CN=Signet Test Root CA/O=Signet tests', '-config', config);
  await ssl('ca', '-batch', '-selfsign', '-config', config, '-keyfile', rootFiles.keyFile, '-extensions', 'root_ext', '-startdate', startDate, '-days', '60', '-in', rootCsr, '-out', rootFiles.certFile, '-notext');
  const issue = async (name: string, subject: string, extensions: string): Promise<IssuedCertificate> => {
    const f = files(name);
    const csr = join(dir, `${name}.csr`);
    await ssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', f.keyFile, '-out', csr, '-subj', subject, '-config', config);
    await ssl('ca', '-batch', '-config', config, '-extensions', extensions, '-startdate', startDate, '-in', csr, '-out', f.certFile, '-notext');
    return load(name);
  };
  const root = await load('root');
  const seal = await issue('seal', '/CN=Signet Test Seal/O=Signet tests', 'seal_ext');
  const tsa = await issue('tsa', '/CN=Signet Test TSA/O=Signet tests', 'tsa_ext');
  const ocsp = await issue('ocsp', '/CN=Signet Test OCSP/O=Signet tests', 'ocsp_ext');
  const crlSeal = await issue('crl-seal', '/CN=Signet Test CRL Seal/O=Signet tests', 'crl_seal_ext');
  const passphrase = 'test-seal-passphrase';
  // The P12 carries the root too, so the seal's CMS holds the whole chain.
  const p12Of = async (cert: IssuedCertificate, name: string): Promise<Uint8Array> => {
    const p12File = join(dir, `${name}.p12`);
    await ssl('pkcs12', '-export', '-inkey', cert.keyFile, '-in', cert.certFile, '-certfile', root.certFile,
      '-out', p12File, '-passout', `pass:${passphrase}`, '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1');
    return new Uint8Array(await readFile(p12File));
  };
  return {
    dir, root, tsa, ocsp, caConfig: config, indexFile: join(dir, 'index.txt'), crlUrl,
    seal: { ...seal, p12: await p12Of(seal, 'seal'), passphrase },
    crlSeal: { ...crlSeal, p12: await p12Of(crlSeal, 'crl-seal'), passphrase },
    async crl() {
      const pem = join(dir, `crl-${process.hrtime.bigint()}.pem`);
      try {
        await ssl('ca', '-gencrl', '-config', config, '-out', pem);
        const { stdout } = await run('openssl', ['crl', '-in', pem, '-outform', 'DER'], { encoding: 'buffer' });
        return new Uint8Array(stdout);
      } finally {
        await rm(pem, { force: true });
      }
    },
    async revoke(cert) {
      await ssl('ca', '-config', config, '-revoke', cert.certFile, '-crl_reason', 'keyCompromise');
    },
    async remove() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
