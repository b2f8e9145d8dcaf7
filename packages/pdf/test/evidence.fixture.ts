import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { signatureSlots, signedBytes, slotContents } from '../src/seal/signature-slots.ts';
import { SIGNATURE_TIMESTAMP_OID } from '../src/seal/timestamp-seal.ts';
import { arrayBufferOf } from '../src/seal/array-buffer-of.ts';

const run = promisify(execFile);
type Out = { stdout: string; stderr: string; ok: boolean };

/** Runs a tool in a temp dir holding `files`; its exit status and output, never a throw. */
export async function withFiles(files: Record<string, Uint8Array | string>, cmd: string, args: (dir: string) => string[]): Promise<Out> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-evidence-'));
  try {
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
    return await run(cmd, args(dir)).then((o) => ({ ...o, ok: true }), (err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '', ok: false }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** poppler's verdict on every signature in the file. */
export async function pdfsig(pdf: Uint8Array): Promise<string> {
  const o = await withFiles({ 'in.pdf': pdf }, 'pdfsig', (d) => [join(d, 'in.pdf')]);
  return `${o.stdout}\n${o.stderr}`;
}

/** openssl's independent check of signature `index`: CMS over its byte ranges, chained to `rootPem`. */
export async function opensslCmsVerify(pdf: Uint8Array, rootPem: string, index = 0): Promise<Out> {
  const slot = signatureSlots(pdf)[index];
  if (!slot) throw new Error(`no signature #${index}`);
  return withFiles({ 'sig.der': slotContents(pdf, slot), 'data.bin': signedBytes(pdf, slot), 'root.pem': rootPem }, 'openssl',
    (d) => ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(d, 'sig.der'), '-content', join(d, 'data.bin'), '-CAfile', join(d, 'root.pem'), '-purpose', 'any', '-out', '/dev/null']);
}

/** The seal's signature timestamp token (DER) and the digest it must carry (of the signature value). */
export function sealTimestampToken(pdf: Uint8Array): { token: Uint8Array; digestHex: string } | undefined {
  const slot = signatureSlots(pdf)[0];
  if (!slot) return undefined;
  const cms = slotContents(pdf, slot);
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(arrayBufferOf(cms)).content });
  const signer = signed.signerInfos[0];
  const attr = signer?.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP_OID);
  if (!signer || !attr) return undefined;
  const token = new Uint8Array((attr.values[0] as { toBER(): ArrayBuffer }).toBER());
  return { token, digestHex: createHash('sha256').update(new Uint8Array(signer.signature.valueBlock.valueHexView)).digest('hex') };
}

/** `openssl ts -verify` of a token against the test root, for data whose SHA-256 is `digestHex`. */
export async function opensslTsVerify(token: Uint8Array, digestHex: string, rootPem: string): Promise<Out> {
  return withFiles({ 'token.der': token, 'root.pem': rootPem }, 'openssl',
    (d) => ['ts', '-verify', '-token_in', '-in', join(d, 'token.der'), '-digest', digestHex, '-CAfile', join(d, 'root.pem')]);
}

/** The DSS of a file: its certificate, OCSP response and CRL blobs (decoded streams). */
export async function dssOf(pdf: Uint8Array): Promise<{ certs: Uint8Array[]; ocsps: Uint8Array[]; crls: Uint8Array[] } | undefined> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) return undefined;
  const blobs = (key: string) => {
    const array = dss.lookupMaybe(PDFName.of(key), PDFArray);
    const out: Uint8Array[] = [];
    for (let i = 0; i < (array?.size() ?? 0); i++) out.push(decodePDFRawStream(array?.lookup(i, PDFRawStream) as PDFRawStream).decode());
    return out;
  };
  return { certs: blobs('Certs'), ocsps: blobs('OCSPs'), crls: blobs('CRLs') };
}

/** `openssl ocsp -respin` of a DSS response: verified against the test root, the status for `certPem`. */
export async function opensslOcspVerify(response: Uint8Array, rootPem: string, certPem: string): Promise<Out> {
  return withFiles({ 'resp.der': response, 'root.pem': rootPem, 'cert.pem': certPem }, 'openssl',
    (d) => ['ocsp', '-respin', join(d, 'resp.der'), '-CAfile', join(d, 'root.pem'), '-issuer', join(d, 'root.pem'), '-cert', join(d, 'cert.pem'), '-no_nonce']);
}

/** `openssl ts -verify` of document timestamp `index` (its /Contents) over its byte ranges. */
export async function opensslDocTimestampVerify(pdf: Uint8Array, rootPem: string, index: number): Promise<Out> {
  const slot = signatureSlots(pdf)[index];
  if (!slot) throw new Error(`no signature #${index}`);
  return withFiles({ 'token.der': slotContents(pdf, slot), 'data.bin': signedBytes(pdf, slot), 'root.pem': rootPem }, 'openssl',
    (d) => ['ts', '-verify', '-token_in', '-in', join(d, 'token.der'), '-data', join(d, 'data.bin'), '-CAfile', join(d, 'root.pem')]);
}

/** `openssl crl` checks a DSS CRL's signature against the test root and lists it as text. */
export async function opensslCrlVerify(crl: Uint8Array, rootPem: string): Promise<Out> {
  return withFiles({ 'crl.der': crl, 'root.pem': rootPem }, 'openssl',
    (d) => ['crl', '-inform', 'DER', '-in', join(d, 'crl.der'), '-CAfile', join(d, 'root.pem'), '-noout', '-text']);
}

/** `openssl verify -crl_check` of a certificate against the test root and a DSS CRL. */
export async function opensslVerifyWithCrl(certPem: string, crl: Uint8Array, rootPem: string): Promise<Out> {
  return withFiles({ 'cert.pem': certPem, 'crl.der': crl, 'root.pem': rootPem }, 'sh',
    (d) => ['-c', `openssl crl -inform DER -in ${join(d, 'crl.der')} -out ${join(d, 'crl.pem')} && openssl verify -crl_check -CRLfile ${join(d, 'crl.pem')} -CAfile ${join(d, 'root.pem')} ${join(d, 'cert.pem')}`]);
}

/**
 * A certificate signed by the test root outside its database (`openssl x509 -req`, so no OCSP
 * responder or CRL knows it as revoked, and OCSP answers "unknown"), with the extensions given
 * in openssl config syntax.
 */
export async function certificateOutsideDatabase(pki: { root: { certFile: string; keyFile: string } }, extensions: string): Promise<string> {
  const o = await withFiles({ 'ext.cnf': `[ ext ]\n${extensions}\n` }, 'sh', (d) => ['-c', [
    `openssl req -new -newkey rsa:2048 -nodes -keyout ${join(d, 'k.pem')} -out ${join(d, 'c.csr')} -subj '/CN=Signet Test Outsider/O=Signet tests' 2>/dev/null`,
    `openssl x509 -req -in ${join(d, 'c.csr')} -CA ${pki.root.certFile} -CAkey ${pki.root.keyFile} -set_serial 0x${Date.now().toString(16)} -days 7 -extfile ${join(d, 'ext.cnf')} -extensions ext -out ${join(d, 'c.pem')} 2>/dev/null`,
    `cat ${join(d, 'c.pem')}`,
  ].join(' && ')]);
  if (!o.ok) throw new Error(`certificateOutsideDatabase: ${o.stderr}`);
  return o.stdout;
}
