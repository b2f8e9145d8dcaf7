import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as pkijs from 'pkijs';
import { createTestPki, listenOnLoopback, startTestOcsp, startTestTsa, type TestOcsp, type TestPki, type TestTsa } from '@signet/kit/testing';
import { addValidationData, evidenceLevel, PdfError, sealPdf, timestampSeal } from '../src/index.ts';
import { revocationEvidence } from '../src/seal/revocation-evidence.ts';
import { fetchOcsp } from '../src/seal/fetch-ocsp.ts';
import { makePdf } from './documents.fixture.ts';
import { certificateOutsideDatabase, dssOf, opensslCmsVerify, opensslCrlVerify, opensslOcspVerify, opensslVerifyWithCrl, pdfsig } from './evidence.fixture.ts';

const derOfPem = (pem: string): Buffer => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
const certOf = (pem: string): pkijs.Certificate => pkijs.Certificate.fromBER(new Uint8Array(derOfPem(pem)));
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('B-LT from CRLs: an issuer that publishes only CRLs, and CRLs as the fallback of OCSP', () => {
  let ocsp: TestOcsp;
  let pki: TestPki;
  let tsa: TestTsa;
  const tsaConfig = () => ({ url: tsa.url, username: 'signet', password: 'tsa-secret' });

  before(async () => {
    ocsp = await startTestOcsp();
    pki = await createTestPki(ocsp.url);
    ocsp.attach(pki);
    tsa = await startTestTsa(pki, { username: 'signet', password: 'tsa-secret' });
  });
  after(async () => {
    await tsa.stop();
    await ocsp.stop();
    await pki.remove();
  });

  test('a seal certificate with only a CRL distribution point reaches B-LT: its CRL in the DSS, the TSA by OCSP; openssl and pdfsig accept it', async () => {
    const sealed = await sealPdf(await makePdf(), { p12: pki.crlSeal.p12, passphrase: pki.crlSeal.passphrase });
    const bt = (await timestampSeal(sealed, tsaConfig())).pdf;
    const crlsBefore = ocsp.crlsServed();
    const ocspBefore = ocsp.answered();
    const lt = await addValidationData(bt);
    assert.equal(evidenceLevel(lt), 'B-LT');
    assert.deepEqual(lt.subarray(0, bt.byteLength), bt, 'an incremental update');
    assert.equal(ocsp.crlsServed() - crlsBefore, 1, 'the seal\'s CRL, fetched once');
    assert.equal(ocsp.answered() - ocspBefore, 1, 'OCSP only for the TSA certificate, which names a responder');
    const dss = await dssOf(lt) ?? assert.fail('a DSS');
    assert.equal(dss.crls.length, 1);
    assert.equal(dss.ocsps.length, 1);
    const crl = dss.crls[0] ?? assert.fail('a CRL');
    const crlCheck = await opensslCrlVerify(crl, pki.root.certPem);
    assert.match(crlCheck.stderr, /verify OK/, 'the CRL is signed by the root');
    assert.match(crlCheck.stdout, /Issuer: CN = Signet Test Root CA/);
    const chain = await opensslVerifyWithCrl(pki.crlSeal.certPem, crl, pki.root.certPem);
    assert.match(chain.stdout, /cert\.pem: OK/, chain.stderr);
    const tsaAnswer = await opensslOcspVerify(dss.ocsps[0] ?? assert.fail('an OCSP answer'), pki.root.certPem, pki.tsa.certPem);
    assert.match(tsaAnswer.stdout, /cert\.pem: good/);
    const certs = new Set(dss.certs.map(sha));
    for (const c of [pki.root, pki.crlSeal, pki.tsa]) assert.ok(certs.has(sha(derOfPem(c.certPem))));
    assert.match(await pdfsig(lt), /Signature #1[\s\S]*Signature is Valid/);
    assert.ok((await opensslCmsVerify(lt, pki.root.certPem, 0)).ok);

    // A renewal keeps the first CRL and adds the current one.
    const again = await addValidationData(lt);
    assert.equal((await dssOf(again))?.crls.length, 2);
  });

  test('OCSP first; a responder that is down, or does not know the certificate, leaves the CRL to decide', async () => {
    const root = certOf(pki.root.certPem);
    const closed = createServer();
    const deadPort = await listenOnLoopback(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const both = (ocspUrl: string) => `basicConstraints = CA:false\nkeyUsage = critical, digitalSignature\nauthorityInfoAccess = OCSP;URI:${ocspUrl}\ncrlDistributionPoints = URI:${pki.crlUrl}`;

    // Known to no database: OCSP answers "unknown", the root's CRL does not list it.
    const outsider = certOf(await certificateOutsideDatabase(pki, both(ocsp.url)));
    const viaUnknown = await revocationEvidence(outsider, root, 5_000);
    assert.equal(viaUnknown.kind, 'crl');

    const offline = certOf(await certificateOutsideDatabase(pki, both(`http://127.0.0.1:${deadPort}/ocsp`)));
    const viaDown = await revocationEvidence(offline, root, 5_000);
    assert.equal(viaDown.kind, 'crl');

    // Without a CRL to fall back on, the same answers fail, naming why.
    const ocspOnly = certOf(await certificateOutsideDatabase(pki, `basicConstraints = CA:false\nauthorityInfoAccess = OCSP;URI:http://127.0.0.1:${deadPort}/ocsp`));
    await assert.rejects(revocationEvidence(ocspOnly, root, 5_000), (e: unknown) => e instanceof PdfError && e.code === 'VALIDATION_DATA_FAILED' && /did not answer/.test(e.message));
    const neither = certOf(await certificateOutsideDatabase(pki, 'basicConstraints = CA:false'));
    await assert.rejects(revocationEvidence(neither, root, 5_000), (e: unknown) => e instanceof PdfError && /neither an OCSP responder nor a CRL/.test(e.message));

    // Both sources down: one error that names both.
    ocsp.failing = true;
    try {
      const dual = certOf(await certificateOutsideDatabase(pki, both(ocsp.url)));
      await assert.rejects(revocationEvidence(dual, root, 5_000), (e: unknown) => e instanceof PdfError && /OCSP for/.test(e.message) && /CRL for/.test(e.message));
    } finally {
      ocsp.failing = false;
    }
  });

  test('a CRL is refused unless it is the issuer\'s, signed by it, current and not too large', async () => {
    const root = certOf(pki.root.certPem);
    const genuine = await pki.crl();
    let served: () => Uint8Array | string = () => genuine;
    const fake = createServer((_req, res) => {
      const body = served();
      res.writeHead(200).end(body);
    });
    const port = await listenOnLoopback(fake);
    try {
      const cert = certOf(await certificateOutsideDatabase(pki, `basicConstraints = CA:false\ncrlDistributionPoints = URI:http://127.0.0.1:${port}/crl.der`));
      assert.equal((await revocationEvidence(cert, root, 5_000)).kind, 'crl', 'the genuine CRL from another address is fine');

      const refuse = async (body: () => Uint8Array | string, why: RegExp) => {
        served = body;
        await assert.rejects(revocationEvidence(cert, root, 5_000), (e: unknown) => e instanceof PdfError && e.code === 'VALIDATION_DATA_FAILED' && why.test(e.message));
      };
      await refuse(() => 'not a crl', /not a CRL/);
      // One changed byte inside the signed part: the signature no longer holds.
      const tampered = new Uint8Array(genuine);
      tampered[40] = (tampered[40] ?? 0) ^ 0x01;
      await refuse(() => tampered, /not a CRL|another CA|not signed by/);
      // Signed by another CA with the same name is still another key.
      const other = await createTestPki(ocsp.url);
      try {
        const foreign = await other.crl();
        await refuse(() => foreign, /not signed by/);
      } finally {
        await other.remove();
      }
      await refuse(() => new Uint8Array(9 * 1024 * 1024), /too large/);
    } finally {
      fake.closeAllConnections();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });

  test('an OCSP answer is refused unless it is current, about this very certificate and signed for its issuer', async () => {
    const root = certOf(pki.root.certPem);
    const seal = certOf(pki.seal.certPem);
    const day = 86_400_000;
    // The test responder answers with thisUpdate now and nextUpdate in 7 days.
    assert.equal((await fetchOcsp(seal, root, 5_000)).status, 'good');
    await assert.rejects(fetchOcsp(seal, root, 5_000, new Date(Date.now() + 8 * day)), (e: unknown) => e instanceof PdfError && e.code === 'VALIDATION_DATA_FAILED' && /out of date/.test(e.message), 'an answer past its nextUpdate (a replayed one) is stale');
    await assert.rejects(fetchOcsp(seal, root, 5_000, new Date(Date.now() - day)), (e: unknown) => e instanceof PdfError && /dated in the future/.test(e.message));

    // Between us and the responder: it answers with a genuine answer to another question.
    const other = await createTestPki(ocsp.url);
    let mode: 'another certificate' | 'another CA' = 'another certificate';
    const between = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const dir = await mkdtemp(join(tmpdir(), 'signet-ocsp-between-'));
          try {
            await writeFile(join(dir, 'req.der'), Buffer.concat(chunks));
            // About the TSA certificate instead, from the real responder; or from another CA's responder.
            const args = mode === 'another certificate'
              ? ['ocsp', '-index', pki.indexFile, '-CA', pki.root.certFile, '-rsigner', pki.ocsp.certFile, '-rkey', pki.ocsp.keyFile, '-issuer', pki.root.certFile, '-cert', pki.tsa.certFile, '-respout', join(dir, 'resp.der'), '-ndays', '7']
              : ['ocsp', '-index', other.indexFile, '-CA', other.root.certFile, '-rsigner', other.ocsp.certFile, '-rkey', other.ocsp.keyFile, '-reqin', join(dir, 'req.der'), '-respout', join(dir, 'resp.der'), '-ndays', '7'];
            await promisify(execFile)('openssl', args);
            res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(await readFile(join(dir, 'resp.der')));
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        })().catch((err: unknown) => res.writeHead(500).end(String(err)));
      });
    });
    const port = await listenOnLoopback(between);
    try {
      const asked = certOf(await certificateOutsideDatabase(pki, `basicConstraints = CA:false\nauthorityInfoAccess = OCSP;URI:http://127.0.0.1:${port}/ocsp`));
      await assert.rejects(fetchOcsp(asked, root, 5_000), (e: unknown) => e instanceof PdfError && /about another certificate/.test(e.message));
      mode = 'another CA';
      await assert.rejects(fetchOcsp(asked, root, 5_000), (e: unknown) => e instanceof PdfError && /not signed by the issuer/.test(e.message));
    } finally {
      between.closeAllConnections();
      await new Promise<void>((resolve) => between.close(() => resolve()));
      await other.remove();
    }
  });

  test('a certificate its CRL lists as revoked gets no B-LT, even when OCSP does not know it', async () => {
    const sealed = await sealPdf(await makePdf(), { p12: pki.crlSeal.p12, passphrase: pki.crlSeal.passphrase });
    const bt = (await timestampSeal(sealed, tsaConfig())).pdf;
    await pki.revoke(pki.crlSeal);
    await assert.rejects(addValidationData(bt), (e: unknown) => e instanceof PdfError && e.code === 'VALIDATION_DATA_FAILED' && /Signet Test CRL Seal/.test(e.message) && /REVOKED/.test(e.message));
  });
});
