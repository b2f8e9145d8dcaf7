import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestPki, startTestOcsp, startTestTsa, type TestOcsp, type TestPki, type TestTsa } from '@signet/kit/testing';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { listenOnLoopback } from '@signet/kit/testing';
import { addDocumentTimestamp, addValidationData, createDevSealP12, evidenceLevel, inspectSignatures, PdfError, PdfThreads, requestTimestamp, sealPdf, timestampSeal } from '../src/index.ts';
import { makePdf } from './documents.fixture.ts';
import { dssOf, opensslCmsVerify, opensslDocTimestampVerify, opensslOcspVerify, opensslTsVerify, pdfsig, sealTimestampToken } from './evidence.fixture.ts';

describe('evidence levels: trusted time and long-term validation', () => {
  let ocsp: TestOcsp;
  let pki: TestPki;
  let tsa: TestTsa;
  let sealed: Uint8Array;

  before(async () => {
    ocsp = await startTestOcsp();
    pki = await createTestPki(ocsp.url);
    ocsp.attach(pki);
    tsa = await startTestTsa(pki, { username: 'signet', password: 'tsa-secret' });
    sealed = await sealPdf(await makePdf(), { p12: pki.seal.p12, passphrase: pki.seal.passphrase });
  });
  after(async () => {
    await tsa.stop();
    await ocsp.stop();
    await pki.remove();
  });

  test('B-T: the seal gets a signature timestamp in place; pdfsig and openssl (cms and ts) accept it', async () => {
    const { pdf, genTime } = await timestampSeal(sealed, { url: tsa.url, username: 'signet', password: 'tsa-secret' });
    assert.ok(genTime instanceof Date);
    assert.equal(pdf.byteLength, sealed.byteLength, 'same file size: /Contents was rewritten in its reserved room');
    const report = await pdfsig(pdf);
    assert.match(report, /Signature is Valid/);
    assert.match(report, /Total document signed/);
    assert.match(report, /Signer Certificate Common Name: Signet Test Seal/);
    const cms = await opensslCmsVerify(pdf, pki.root.certPem);
    assert.ok(cms.ok, cms.stderr);
    assert.match(cms.stderr, /Verification successful/);
    const token = sealTimestampToken(pdf);
    assert.ok(token, 'the SignerInfo carries signatureTimeStampToken');
    const ts = await opensslTsVerify(token.token, token.digestHex, pki.root.certPem);
    assert.ok(ts.ok, ts.stderr + ts.stdout);
    assert.match(ts.stdout, /Verification: OK/);
    // Idempotent: a timestamped seal is not stamped twice.
    const issued = tsa.issued();
    const again = await timestampSeal(pdf, { url: tsa.url, username: 'signet', password: 'tsa-secret' });
    assert.equal(tsa.issued(), issued);
    assert.deepEqual(again.pdf, pdf);
  });

  test('openssl ts -verify refuses the token for other data', async () => {
    const { pdf } = await timestampSeal(sealed, { url: tsa.url, username: 'signet', password: 'tsa-secret' });
    const token = sealTimestampToken(pdf);
    assert.ok(token);
    const ts = await opensslTsVerify(token.token, '00'.repeat(32), pki.root.certPem);
    assert.equal(ts.ok, false);
  });

  test('a TSA that is down, or refuses our credentials, is TIMESTAMP_FAILED and the seal is left as it was', async () => {
    await assert.rejects(timestampSeal(sealed, { url: tsa.url, username: 'signet', password: 'wrong' }), (e: unknown) => e instanceof PdfError && e.code === 'TIMESTAMP_FAILED' && /401/.test(e.message));
    tsa.failing = true;
    try {
      await assert.rejects(timestampSeal(sealed, { url: tsa.url, username: 'signet', password: 'tsa-secret' }), (e: unknown) => e instanceof PdfError && e.code === 'TIMESTAMP_FAILED' && /503/.test(e.message));
    } finally {
      tsa.failing = false;
    }
    assert.equal(sealTimestampToken(sealed), undefined);
  });

  test('a TSA reply that is not the answer to our query is refused and the seal left as it was: other data, another nonce, a broken signature, not a reply', async () => {
    let mode: 'other data' | 'another nonce' | 'broken signature' | 'not a reply' = 'other data';
    const basic = `Basic ${Buffer.from('signet:tsa-secret').toString('base64')}`;
    const forward = async (query: ArrayBuffer): Promise<Uint8Array> => new Uint8Array(await (await fetch(tsa.url, { method: 'POST', headers: { 'content-type': 'application/timestamp-query', authorization: basic }, body: new Uint8Array(query) })).arrayBuffer());
    // Between us and the TSA: it answers each query with a genuine token for a query it changed.
    const between = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = new Uint8Array(Buffer.concat(chunks));
          const query = pkijs.TimeStampReq.fromBER(body.slice().buffer);
          let reply: Uint8Array;
          if (mode === 'other data') {
            query.messageImprint.hashedMessage = new asn1js.OctetString({ valueHex: new Uint8Array(32).fill(7).buffer });
            reply = await forward(query.toSchema().toBER(false));
          } else if (mode === 'another nonce') {
            query.nonce = new asn1js.Integer({ value: 0x5a5a5a });
            reply = await forward(query.toSchema().toBER(false));
          } else if (mode === 'broken signature') {
            // The SignerInfo's signature value is the last thing in the reply.
            reply = await forward(body.slice().buffer);
            reply[reply.byteLength - 1] = (reply[reply.byteLength - 1] ?? 0) ^ 0x01;
          } else {
            reply = new TextEncoder().encode('<html>not a timestamp</html>');
          }
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply);
        })().catch((err: unknown) => res.writeHead(500).end(String(err)));
      });
    });
    const port = await listenOnLoopback(between);
    try {
      const expected = { 'other data': /timestamps other data/, 'another nonce': /nonce is not ours/, 'broken signature': /signature does not verify/, 'not a reply': /not a TimeStampResp/ } as const;
      for (const m of Object.keys(expected) as (keyof typeof expected)[]) {
        mode = m;
        await assert.rejects(timestampSeal(sealed, { url: `http://127.0.0.1:${port}/tsa` }), (e: unknown) => e instanceof PdfError && e.code === 'TIMESTAMP_FAILED' && expected[m].test(e.message), m);
      }
    } finally {
      between.closeAllConnections();
      await new Promise<void>((resolve) => between.close(() => resolve()));
    }
    assert.equal(sealTimestampToken(sealed), undefined);
  });

  test('B-LT then B-LTA: a DSS with the chain and good OCSP answers, then a document timestamp; pdfsig and openssl check each', async () => {
    const tsaConfig = { url: tsa.url, username: 'signet', password: 'tsa-secret' };
    const bt = (await timestampSeal(sealed, tsaConfig)).pdf;
    const answeredBefore = ocsp.answered();
    const lt = await addValidationData(bt);
    assert.equal(evidenceLevel(lt), 'B-LT');
    assert.deepEqual(lt.subarray(0, bt.byteLength), bt, 'an incremental update: the sealed bytes are untouched');
    assert.equal(ocsp.answered() - answeredBefore, 2, 'one OCSP answer for the seal and one for the TSA certificate; none for the root');
    const dss = await dssOf(lt) ?? assert.fail('a DSS');
    const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
    const derOfPem = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
    const certHashes = new Set(dss.certs.map(sha));
    for (const c of [pki.root, pki.seal, pki.tsa, pki.ocsp]) assert.ok(certHashes.has(sha(derOfPem(c.certPem))), 'the DSS holds every certificate of both chains and the responder');
    assert.equal(dss.ocsps.length, 2);
    const statuses: string[] = [];
    for (const response of dss.ocsps) {
      // Each response is checked by openssl against the test root; it names seal or TSA as good.
      const forSeal = await opensslOcspVerify(response, pki.root.certPem, pki.seal.certPem);
      const forTsa = await opensslOcspVerify(response, pki.root.certPem, pki.tsa.certPem);
      assert.match(forSeal.stderr + forTsa.stderr, /Response verify OK/);
      if (/cert\.pem: good/.test(forSeal.stdout) && !/WARNING: Status times invalid/.test(forSeal.stdout)) statuses.push('seal');
      if (/cert\.pem: good/.test(forTsa.stdout)) statuses.push('tsa');
    }
    assert.deepEqual(statuses.sort(), ['seal', 'tsa']);
    const ltReport = await pdfsig(lt);
    assert.match(ltReport, /Signature #1[\s\S]*Signature is Valid/);

    const { pdf: lta, genTime } = await addDocumentTimestamp(lt, tsaConfig);
    assert.ok(genTime instanceof Date);
    assert.equal(evidenceLevel(lta), 'B-LTA');
    assert.deepEqual(lta.subarray(0, lt.byteLength), lt);
    const report = await pdfsig(lta);
    assert.match(report, /Signature #1:[\s\S]*Signature is Valid[\s\S]*Signature #2:/);
    assert.match(report, /Signature #2:[\s\S]*Total document signed/);
    const seal = await opensslCmsVerify(lta, pki.root.certPem, 0);
    assert.ok(seal.ok, seal.stderr);
    const docTs = await opensslDocTimestampVerify(lta, pki.root.certPem, 1);
    assert.match(docTs.stdout, /Verification: OK/, docTs.stderr);
    // One byte changed in the DSS revision: the document timestamp no longer matches.
    const tampered = new Uint8Array(lta);
    tampered[bt.byteLength + 20] = (tampered[bt.byteLength + 20] ?? 0) ^ 0x01;
    const bad = await opensslDocTimestampVerify(tampered, pki.root.certPem, 1);
    assert.equal(bad.ok, false);
  });

  test('inspectSignatures (on a pdf thread): a B-LTA file is intact with trusted time; one changed byte is not; a plain PDF has no signature', async () => {
    const tsaConfig = { url: tsa.url, username: 'signet', password: 'tsa-secret' };
    const lta = (await addDocumentTimestamp(await addValidationData((await timestampSeal(sealed, tsaConfig)).pdf), tsaConfig)).pdf;
    const threads = new PdfThreads(1);
    try {
      const good = await threads.inspectSignatures(lta);
      assert.equal(good.sha256, createHash('sha256').update(lta).digest('hex'));
      assert.equal(good.level, 'B-LTA');
      assert.equal(good.signatures.length, 2);
      const [seal, docTs] = good.signatures;
      assert.deepEqual({ kind: seal?.kind, intact: seal?.intact, whole: seal?.coversWholeFile, cn: seal?.signer?.commonName }, { kind: 'signature', intact: true, whole: false, cn: 'Signet Test Seal' });
      assert.equal(seal?.timestamp?.intact, true);
      assert.equal(seal?.timestamp?.authority?.commonName, 'Signet Test TSA');
      assert.deepEqual({ kind: docTs?.kind, intact: docTs?.intact, whole: docTs?.coversWholeFile }, { kind: 'document-timestamp', intact: true, whole: true });

      // One byte inside the seal's signed range (the header's minor version).
      const tampered = new Uint8Array(lta);
      tampered[7] = tampered[7] === 0x36 ? 0x37 : 0x36;
      const bad = await threads.inspectSignatures(tampered);
      assert.equal(bad.signatures[0]?.intact, false);
      assert.equal(bad.signatures[1]?.intact, false);

      // Another party's seal: intact on its own terms, and named as what it is.
      const other = createDevSealP12({ commonName: 'Someone Else' });
      const foreign = await threads.inspectSignatures(await sealPdf(await makePdf(), other));
      assert.equal(foreign.signatures[0]?.intact, true);
      assert.equal(foreign.signatures[0]?.signer?.commonName, 'Someone Else');
      assert.equal(foreign.signatures[0]?.timestamp, undefined);

      assert.deepEqual((await inspectSignatures(await makePdf())).signatures, []);
    } finally {
      await threads.close();
    }
  });

  test('on a pdf thread: B-T, B-LT and B-LTA through PdfThreads reach their levels off the event loop; a TSA refusal crosses as TIMESTAMP_FAILED', async () => {
    const threads = new PdfThreads(1);
    try {
      const tsaConfig = { url: tsa.url, username: 'signet', password: 'tsa-secret' };
      const bt = await threads.timestampSeal(sealed, tsaConfig);
      assert.ok(bt.genTime instanceof Date, 'the token\'s time crosses the thread as a Date');
      assert.equal(evidenceLevel(bt.pdf), 'B-T');
      const lt = await threads.addValidationData(bt.pdf);
      assert.equal(evidenceLevel(lt), 'B-LT');
      const lta = await threads.addDocumentTimestamp(lt, tsaConfig);
      assert.equal(evidenceLevel(lta.pdf), 'B-LTA');
      assert.match(await pdfsig(lta.pdf), /Signature #1:[\s\S]*Signature is Valid/);
      await assert.rejects(threads.timestampSeal(sealed, { ...tsaConfig, password: 'wrong' }), (e: unknown) => e instanceof PdfError && e.code === 'TIMESTAMP_FAILED' && /401/.test(e.message));
    } finally {
      await threads.close();
    }
  });

  test('a revoked certificate gets no B-LT: VALIDATION_DATA_FAILED names it and the file is unchanged', async () => {
    const bt = (await timestampSeal(sealed, { url: tsa.url, username: 'signet', password: 'tsa-secret' })).pdf;
    await pki.revoke(pki.seal);
    await assert.rejects(addValidationData(bt), (e: unknown) => e instanceof PdfError && e.code === 'VALIDATION_DATA_FAILED' && /Signet Test Seal/.test(e.message) && /REVOKED/.test(e.message));
  });

  test('every query\'s nonce is a minimal DER INTEGER (openssl refused the ~1 in 256 that began 0x00 0x0-0x7f)', async () => {
    const nonces: Uint8Array[] = [];
    const recorder = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const query = pkijs.TimeStampReq.fromBER(new Uint8Array(Buffer.concat(chunks)).buffer);
        if (query.nonce) nonces.push(new Uint8Array(query.nonce.valueBlock.valueHexView));
        res.writeHead(503).end();
      });
    });
    const port = await listenOnLoopback(recorder);
    try {
      for (let i = 0; i < 300; i++) await requestTimestamp({ url: `http://127.0.0.1:${port}/` }, new Uint8Array([i & 0xff])).catch(() => undefined);
    } finally {
      recorder.closeAllConnections();
      await new Promise<void>((resolve) => recorder.close(() => resolve()));
    }
    assert.equal(nonces.length, 300);
    for (const n of nonces) {
      assert.equal(n.byteLength, 8);
      assert.ok((n[0] ?? 0) >= 0x40 && (n[0] ?? 0) <= 0x7f, 'positive, and no leading zero octet');
      // asn1js re-encodes it the same way: it is already minimal.
      assert.deepEqual(new Uint8Array(new asn1js.Integer({ valueHex: n.slice().buffer }).toBER()).subarray(2), n);
    }
  });
});
