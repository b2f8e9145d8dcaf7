import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { createTestPki, startTestOcsp, startTestTsa, type TestOcsp, type TestPki, type TestTsa } from '@signet/kit/testing';
import { evidenceLevel, inspectSignatures, type SealIdentity } from '@signet/pdf';
import { CompletionWorker } from '../../src/completion/completion-worker.ts';
import { EvidenceUpgrader } from '../../src/completion/evidence-upgrader.ts';
import { EvidenceWorker } from '../../src/completion/evidence-worker.ts';
import type { Db } from '../../src/store/database.ts';
import { AuditEventsRepository } from '../../src/store/audit-events-repository.ts';
import { CompletionFailuresRepository } from '../../src/store/completion-failures-repository.ts';
import { EvidenceRepository, sha256Of } from '../../src/store/evidence-repository.ts';
import { SigningRepository } from '../../src/store/signing-repository.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { signedEnvelope as signedEnvelopeIn } from '../support/signed-envelope.ts';
import type { EnvelopeDeps } from '../../src/domain/envelope/ports.ts';
import { dssOf, opensslCmsVerify, opensslDocTimestampVerify, opensslTsVerify, pdfsig, sealTimestampToken } from '../../../pdf/test/evidence.fixture.ts';

/** A `signed` envelope waiting for completion, in a fresh SQLite store. */
async function signedEnvelope(t: TestContext, clock: FakeClock) {
  const db = await openMigrated(t, freshSqlite(t));
  return { db, ...(await signedEnvelopeIn(db, clock)) };
}

describe('completion with a timestamp authority and OCSP (PAdES B-LTA)', () => {
  let ocsp: TestOcsp;
  let pki: TestPki;
  let tsa: TestTsa;
  let seal: SealIdentity;
  before(async () => {
    ocsp = await startTestOcsp();
    pki = await createTestPki(ocsp.url);
    ocsp.attach(pki);
    tsa = await startTestTsa(pki);
    seal = { p12: pki.seal.p12, passphrase: pki.seal.passphrase };
  });
  after(async () => {
    await tsa.stop();
    await ocsp.stop();
    await pki.remove();
  });

  const completionWorker = (db: Db, deps: EnvelopeDeps, deferred: unknown[] = []) => new CompletionWorker({
    envelopes: deps, signing: new SigningRepository(db), audit: new AuditEventsRepository(db), failures: new CompletionFailuresRepository(db),
    publicUrl: 'https://esign.test', seal: () => Promise.resolve(seal),
    evidence: { repository: new EvidenceRepository(db), upgrader: new EvidenceUpgrader({ tsa: { url: tsa.url }, level: 'B-LTA' }) },
    onEvidenceDeferred: (_id, err) => deferred.push(err),
  });

  test('the TSA and OCSP answer: the stored and mailed files are B-LTA, checked by pdfsig and openssl; their hashes are known', async (t) => {
    const clock = new FakeClock(Date.now());
    const { db, deps, signing, accountId, envelopeId } = await signedEnvelope(t, clock);
    const deferred: unknown[] = [];
    assert.equal(await completionWorker(db, deps, deferred).complete(accountId, envelopeId), true);
    assert.deepEqual(deferred, []);
    const result = await signing.result(envelopeId);
    assert.ok(result);
    for (const file of [result.combined_with_certificate, result.combined_documents, result.certificate]) {
      const pdf = new Uint8Array(file);
      assert.equal(evidenceLevel(pdf), 'B-LTA');
      assert.match(await pdfsig(pdf), /Signature #1:[\s\S]*Signature is Valid[\s\S]*Signature #2:/);
      assert.equal((await dssOf(pdf))?.ocsps.length, 2);
      assert.match((await opensslDocTimestampVerify(pdf, pki.root.certPem, 1)).stdout, /Verification: OK/);
      const cms = await opensslCmsVerify(pdf, pki.root.certPem);
      assert.ok(cms.ok, cms.stderr);
      const token = sealTimestampToken(pdf) ?? assert.fail('a signature timestamp');
      const ts = await opensslTsVerify(token.token, token.digestHex, pki.root.certPem);
      assert.match(ts.stdout, /Verification: OK/, ts.stderr);
      const known = await new EvidenceRepository(db).findBySha256(sha256Of(pdf));
      assert.equal(known?.envelopeId, envelopeId);
      assert.equal(known?.level, 'B-LTA');
    }
    assert.equal(await new EvidenceRepository(db).pending(envelopeId), undefined, 'nothing left to upgrade');
  });

  test('the TSA is down: the envelope completes at B-B, then a restarted instance upgrades it after the backoff, once even when two race', async (t) => {
    const clock = new FakeClock(Date.now());
    const { db, deps, signing, accountId, envelopeId } = await signedEnvelope(t, clock);
    tsa.failing = true;
    const deferred: unknown[] = [];
    try {
      assert.equal(await completionWorker(db, deps, deferred).complete(accountId, envelopeId), true);
      assert.equal((await deps.store.find(accountId, envelopeId))?.status, 'completed', 'a TSA outage does not hold the completion');
      assert.equal(deferred.length, 1);
      const bb = await signing.result(envelopeId) ?? assert.fail('a result');
      const mailed = new Uint8Array(bb.combined_with_certificate);
      assert.equal(evidenceLevel(mailed), 'B-B');
      assert.match(await pdfsig(mailed), /Signature is Valid/);
      const queued = await new EvidenceRepository(db).pending(envelopeId) ?? assert.fail('an upgrade is queued');
      assert.equal(queued.next_attempt_at, new Date(clock.now().getTime() + 60_000).toISOString());

      const worker = () => new EvidenceWorker({ repository: new EvidenceRepository(db), upgrader: new EvidenceUpgrader({ tsa: { url: tsa.url }, level: 'B-LTA' }), clock: clock.now });
      assert.deepEqual(await worker().runOnce(), [], 'not due before its backoff');
      clock.advance(61);
      // An instance without a TSA cannot raise it: the upgrade stays queued, as it was, for one
      // that can (it used to be marked done at B-B and dropped for good).
      const withoutTsa = new EvidenceWorker({ repository: new EvidenceRepository(db), upgrader: new EvidenceUpgrader({ level: 'B-B' }), clock: clock.now });
      assert.deepEqual(await withoutTsa.runOnce(), []);
      assert.deepEqual(await new EvidenceRepository(db).pending(envelopeId), queued, 'still queued, untouched');
      assert.deepEqual(await worker().runOnce(), [], 'the TSA is still down');
      const failed = await new EvidenceRepository(db).pending(envelopeId) ?? assert.fail('still queued');
      assert.equal(failed.attempts, 1);
      assert.match(failed.last_error ?? '', /TIMESTAMP_FAILED|503/);
      assert.equal(failed.next_attempt_at, new Date(clock.now().getTime() + 60_000).toISOString());
      // Down again at the next try: the wait grows (domain/signing/evidence-retry.ts).
      clock.advance(61);
      assert.deepEqual(await worker().runOnce(), []);
      const again = await new EvidenceRepository(db).pending(envelopeId) ?? assert.fail('still queued');
      assert.equal(again.attempts, 2);
      assert.equal(again.next_attempt_at, new Date(clock.now().getTime() + 4 * 60_000).toISOString(), 'backoff: 4 minutes after the second failure');

      // The TSA is back; a restarted pair of instances (new objects on the same file) race.
      tsa.failing = false;
      clock.advance(4 * 60 + 1);
      const issuedBefore = tsa.issued();
      const [a, b] = await Promise.all([worker().runOnce(), worker().runOnce()]);
      assert.deepEqual([...a, ...b], [envelopeId], 'exactly one instance upgrades it');
      assert.equal(tsa.issued() - issuedBefore, 6, 'a signature and a document timestamp per sealed file, none twice');
      const upgraded = await signing.result(envelopeId) ?? assert.fail('a result');
      const pdf = new Uint8Array(upgraded.combined_with_certificate);
      assert.equal(evidenceLevel(pdf), 'B-LTA');
      assert.match(await pdfsig(pdf), /Signature #1:[\s\S]*Signature is Valid/);
      const cms = await opensslCmsVerify(pdf, pki.root.certPem);
      assert.ok(cms.ok, cms.stderr);
      const token = sealTimestampToken(pdf) ?? assert.fail('a signature timestamp');
      assert.match((await opensslTsVerify(token.token, token.digestHex, pki.root.certPem)).stdout, /Verification: OK/);
      assert.equal(await new EvidenceRepository(db).pending(envelopeId), undefined);
      // Both the mailed B-B copy and the upgraded one stay verifiable as this envelope's.
      assert.equal((await new EvidenceRepository(db).findBySha256(sha256Of(mailed)))?.level, 'B-B');
      assert.equal((await new EvidenceRepository(db).findBySha256(sha256Of(pdf)))?.level, 'B-LTA');
    } finally {
      tsa.failing = false;
    }
  });

  test('the OCSP responder is down: the files are stored B-T (what could be gained), then raised to B-LTA later', async (t) => {
    const clock = new FakeClock(Date.now());
    const { db, deps, signing, accountId, envelopeId } = await signedEnvelope(t, clock);
    ocsp.failing = true;
    try {
      const deferred: unknown[] = [];
      assert.equal(await completionWorker(db, deps, deferred).complete(accountId, envelopeId), true);
      assert.match(String(deferred[0]), /VALIDATION_DATA_FAILED|OCSP/);
      const stored = await signing.result(envelopeId) ?? assert.fail('a result');
      assert.equal(evidenceLevel(new Uint8Array(stored.combined_with_certificate)), 'B-T');
      assert.ok(await new EvidenceRepository(db).pending(envelopeId));
      ocsp.failing = false;
      clock.advance(61);
      const worker = new EvidenceWorker({ repository: new EvidenceRepository(db), upgrader: new EvidenceUpgrader({ tsa: { url: tsa.url }, level: 'B-LTA' }), clock: clock.now });
      assert.deepEqual(await worker.runOnce(), [envelopeId]);
      const upgraded = await signing.result(envelopeId) ?? assert.fail('a result');
      assert.equal(evidenceLevel(new Uint8Array(upgraded.certificate)), 'B-LTA');
      assert.equal(await new EvidenceRepository(db).pending(envelopeId), undefined);
    } finally {
      ocsp.failing = false;
    }
  });

  test('B-LTA renewal: due before the document timestamp\'s certificate expires, done once by two racing instances, the old file still known', async (t) => {
    const clock = new FakeClock(Date.now());
    const { db, deps, signing, accountId, envelopeId } = await signedEnvelope(t, clock);
    assert.equal(await completionWorker(db, deps).complete(accountId, envelopeId), true);
    const first = new Uint8Array((await signing.result(envelopeId) ?? assert.fail('a result')).combined_with_certificate);
    const scheduled = await new EvidenceRepository(db).renewal(envelopeId) ?? assert.fail('a renewal is scheduled');
    // The test TSA's certificate expires in 30 days, inside the 30-day margin: renewal is due in a day, not at once.
    assert.equal(scheduled.renew_at, new Date(clock.now().getTime() + 86_400_000).toISOString());
    const worker = () => new EvidenceWorker({ repository: new EvidenceRepository(db), upgrader: new EvidenceUpgrader({ tsa: { url: tsa.url }, level: 'B-LTA' }), clock: clock.now });
    assert.deepEqual(await worker().runOnce(), [], 'not due yet');
    clock.advance(86_400 + 60);
    // An instance configured without a TSA (B-B) cannot renew: it leaves the renewal due and the
    // files as they are for one that can, rather than rewriting them unchanged every lease.
    const dueAt = (await new EvidenceRepository(db).renewal(envelopeId))?.renew_at;
    const withoutTsa = new EvidenceWorker({ repository: new EvidenceRepository(db), upgrader: new EvidenceUpgrader({ level: 'B-B' }), clock: clock.now });
    assert.deepEqual(await withoutTsa.runOnce(), []);
    assert.equal((await new EvidenceRepository(db).renewal(envelopeId))?.renew_at, dueAt, 'still due');
    assert.deepEqual(new Uint8Array((await signing.result(envelopeId) ?? assert.fail('a result')).combined_with_certificate), first);
    const issuedBefore = tsa.issued();
    const [a, b] = await Promise.all([worker().runOnce(), worker().runOnce()]);
    assert.deepEqual([...a, ...b], [envelopeId], 'renewed once');
    assert.equal(tsa.issued() - issuedBefore, 3, 'one new document timestamp per sealed file');
    const renewed = new Uint8Array((await signing.result(envelopeId) ?? assert.fail('a result')).combined_with_certificate);
    assert.deepEqual(renewed.subarray(0, first.byteLength), first, 'appended: every earlier signature untouched');
    const inspection = await inspectSignatures(renewed);
    assert.deepEqual(inspection.signatures.map((x) => [x.kind, x.intact]), [['signature', true], ['document-timestamp', true], ['document-timestamp', true]]);
    assert.match((await opensslDocTimestampVerify(renewed, pki.root.certPem, 2)).stdout, /Verification: OK/);
    assert.match((await opensslDocTimestampVerify(renewed, pki.root.certPem, 1)).stdout, /Verification: OK/);
    assert.equal((await new EvidenceRepository(db).renewal(envelopeId))?.renew_at, new Date(clock.now().getTime() + 86_400_000).toISOString());
    assert.equal((await new EvidenceRepository(db).findBySha256(sha256Of(first)))?.envelopeId, envelopeId);
    assert.equal((await new EvidenceRepository(db).findBySha256(sha256Of(renewed)))?.envelopeId, envelopeId);
  });
});
