import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';
import {
  createDevSealP12, mergePdfs, PdfError, renderCertificate, sealPdf, sha256Hex, signedCaption, stampSignatures, validatePdf,
  type SealIdentity,
} from '../src/index.ts';
import { inspectSignatures } from '../src/index.ts';
import { signatureSlots, slotContents } from '../src/seal/signature-slots.ts';
import { makePdf, popplerText } from './documents.fixture.ts';
import { opensslCmsVerify, withFiles } from './evidence.fixture.ts';
import { darkPixels, makeSignaturePng, renderPage } from './raster.fixture.ts';

const run = promisify(execFile);

/** poppler's verdict on every signature in the file. */
async function pdfsig(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-pdfsig-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    // pdfsig exits non-zero for an invalid signature; its report is what we check.
    const out = await run('pdfsig', [join(dir, 'in.pdf')]).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
    return `${out.stdout}\n${out.stderr}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the digital seal', () => {
  let identity: SealIdentity;
  let completed: Uint8Array;

  before(async () => {
    identity = createDevSealP12({ commonName: 'Signet test seal' });
    // The whole completion pipeline: stamp, merge with the certificate, then seal last.
    const doc = await makePdf();
    const stamped = await stampSignatures(doc, [{ pageNumber: 1, x: 200, y: 370, signature: { type: 'image', image: makeSignaturePng() }, caption: signedCaption('Ada', new Date()) }]);
    const certificate = await renderCertificate({
      envelopeId: 'env-1', signers: [{ name: 'Ada', email: 'ada@example.com', ipAddress: '192.0.2.1', signedAt: new Date() }],
      events: [{ at: new Date(), event: 'completed' }], documents: [{ name: 'po.pdf', sha256: sha256Hex(doc) }],
    });
    completed = await mergePdfs([stamped, certificate]);
  });

  test('the development P12 opens with its passphrase and holds a document-signing certificate', () => {
    const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(Buffer.from(identity.p12).toString('binary')), identity.passphrase);
    const bags = p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [];
    const cert = bags[0]?.cert;
    assert.ok(cert);
    const cn = cert.subject.getField('CN') as { value?: string } | null;
    assert.equal(cn?.value, 'Signet test seal');
    const ku: { digitalSignature?: boolean; nonRepudiation?: boolean } | undefined = cert.getExtension('keyUsage');
    assert.equal(ku?.digitalSignature, true);
    assert.equal(ku?.nonRepudiation, true);
    assert.throws(() => forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(Buffer.from(identity.p12).toString('binary')), 'wrong'));
  });

  test('pdfsig: one ETSI.CAdES.detached signature, valid, covering the total document', async () => {
    const sealed = await sealPdf(completed, { ...identity, reason: 'Envelope env-1 completed' });
    const report = await pdfsig(sealed);
    assert.match(report, /Signature #1/);
    assert.doesNotMatch(report, /Signature #2/);
    assert.match(report, /Signature Type: ETSI\.CAdES\.detached/);
    assert.match(report, /Signer Certificate Common Name: Signet test seal/);
    assert.match(report, /Total document signed/);
    assert.match(report, /Signature is Valid/);
    // Sealing kept every page and the stamped signature.
    assert.equal(await validatePdf(sealed), 3);
    assert.match(await popplerText(sealed), /Certificate of Completion/);
    assert.ok(darkPixels(await renderPage(sealed, 1), { x: 200, y: 370, width: 144, height: 40 }) > 300);
  });

  test('changing one byte of the signed range makes the seal invalid', async () => {
    const sealed = Buffer.from(await sealPdf(completed, identity));
    // Change the minor version in the header ("%PDF-1.7" → "%PDF-1.6"): signed, still parseable.
    const at = sealed.indexOf('%PDF-1.') + '%PDF-1.'.length;
    assert.equal(at, 7);
    const tampered = Buffer.from(sealed);
    tampered[at] = tampered[at] === 0x36 ? 0x37 : 0x36;
    const byteRange = /\/ByteRange \[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(sealed.toString('latin1'));
    assert.ok(byteRange, 'the seal has a ByteRange');
    assert.ok(at < Number(byteRange[2]) || at >= Number(byteRange[3]), 'the byte is inside the signed range');
    const report = await pdfsig(tampered);
    assert.doesNotMatch(report, /Signature is Valid/);
    assert.match(report, /Signature is Invalid|Digest Mismatch/);
  });

  test('PAdES B-B: signed attributes content-type, message-digest and ESS signing-certificate-v2 of the seal certificate, no signing-time; the time is /M', async () => {
    const at = new Date('2026-11-26T17:45:12Z');
    const sealed = await sealPdf(completed, { ...identity, signingTime: at });
    const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(Buffer.from(identity.p12).toString('binary')), identity.passphrase);
    const cert = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])[0]?.cert ?? assert.fail('a certificate');
    const certPem = forge.pki.certificateToPem(cert);
    const certDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
    const slot = signatureSlots(sealed)[0] ?? assert.fail('a signature');
    const printed = await withFiles({ 'sig.der': slotContents(sealed, slot) }, 'openssl', (d) => ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', join(d, 'sig.der')]);
    assert.ok(printed.ok, printed.stderr);
    const signedAttrs = /signedAttrs:([\s\S]*?)signatureAlgorithm/.exec(printed.stdout)?.[1] ?? assert.fail('signed attributes');
    assert.match(signedAttrs, /contentType/);
    assert.match(signedAttrs, /messageDigest/);
    assert.match(signedAttrs, /id-smime-aa-signingCertificateV2/);
    assert.doesNotMatch(signedAttrs, /signingTime/, 'PAdES baseline: no signing-time attribute');
    // The ESS certificate hash is the SHA-256 of the seal certificate itself.
    const certHash = createHash('sha256').update(certDer).digest('hex');
    assert.ok(Buffer.from(slotContents(sealed, slot)).toString('hex').includes(`0420${certHash}`), 'ESSCertIDv2.certHash');
    // openssl 3 checks the ESS attribute against the signer certificate while verifying.
    const verified = await opensslCmsVerify(sealed, certPem);
    assert.ok(verified.ok, verified.stderr);
    assert.match(await pdfsig(sealed), /Signature is Valid/);
    const report = await inspectSignatures(sealed);
    assert.equal(report.signatures[0]?.signingTime, at.toISOString(), 'the claimed time is read from /M');
    assert.equal(report.signatures[0]?.intact, true);
  });

  test('a wrong passphrase or a damaged P12 is SEAL_FAILED', async () => {
    await assert.rejects(sealPdf(completed, { ...identity, passphrase: 'nope' }), (e: unknown) => e instanceof PdfError && e.code === 'SEAL_FAILED');
    await assert.rejects(sealPdf(completed, { p12: Buffer.from('not a p12'), passphrase: 'x' }), (e: unknown) => e instanceof PdfError && e.code === 'SEAL_FAILED');
  });
});
