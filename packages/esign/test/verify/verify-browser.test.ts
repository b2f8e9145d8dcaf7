import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { createTestPki, startTestOcsp, startTestTsa, type TestOcsp, type TestPki, type TestTsa } from '@signet/kit/testing';
import { createDevSealP12, sealPdf, timestampSeal } from '@signet/pdf';
import { EvidenceRepository } from '../../src/store/evidence-repository.ts';
import { AccountSettingsRepository } from '../../src/store/account-settings-repository.ts';
import { hashAuditIp } from '../../src/verify/audit-ip-hash.ts';
import { samplePdf } from '../support/sample-pdf.ts';
import { startEsign, type Harness } from '../support/esign-harness.ts';
import { signedEnvelope } from '../support/signed-envelope.ts';

// One browser, one TSA, OCSP responder and CA for the file.
let browser: Browser;
let ocsp: TestOcsp;
let pki: TestPki;
let tsa: TestTsa;
const cleanups: (() => Promise<void> | void)[] = [];
before(async () => {
  ocsp = await startTestOcsp();
  [browser, pki] = await Promise.all([launchChromium(), createTestPki(ocsp.url)]);
  ocsp.attach(pki);
  tsa = await startTestTsa(pki);
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
  await browser.close();
  await tsa.stop();
  await ocsp.stop();
  await pki.remove();
});

type Verdict = {
  status: string; message: string; sha256: string;
  seal?: { intact: boolean; level?: string; trustedTime?: { time: string }; sealedBy?: { commonName?: string } };
  envelope?: { envelopeId: string; subject: string; signers: { name: string; email: string; signedAt?: string }[]; events: { action: string; ipHash?: string }[] };
  language?: string;
};

describe('/verify: anyone checks a sealed PDF', () => {
  let h: Harness;
  let good: Uint8Array;
  let envelopeId: string;
  let accountId: string;
  const postJson = (bytes: Uint8Array | string, headers: Record<string, string> = {}) => fetch(`${h.origin}/verify`, { method: 'POST', headers: { 'content-type': 'application/pdf', accept: 'application/json', ...headers }, body: typeof bytes === 'string' ? bytes : Buffer.from(bytes) });

  before(async () => {
    // The harness registers its teardown on a test context; this file shares one server, torn down in `after`.
    const t = { after: (fn: () => Promise<void> | void) => void cleanups.push(fn) } as unknown as Parameters<typeof startEsign>[0];
    h = await startEsign(t, {
      settings: { TSA_URL: tsa.url },
      deps: { signing: { seal: { p12: pki.seal.p12, passphrase: pki.seal.passphrase }, completionPollMs: 50 }, verify: { maxBytes: 512 * 1024, perMinute: 24 } },
    });
    const signed = await signedEnvelope(h.store.db, h.clock, 'Lease for 12 Elm Street');
    envelopeId = signed.envelopeId;
    accountId = signed.accountId;
    // The server's own completion worker seals the envelope and raises it to B-LTA.
    await pollUntil(async () => (await signed.deps.store.find(signed.accountId, envelopeId))?.status === 'completed', { timeoutMs: 60_000, intervalMs: 100, what: 'completion' });
    const files = await new EvidenceRepository(h.store.db).files(envelopeId) ?? assert.fail('sealed files');
    good = files.combinedWithCertificate;
  });

  const checkInBrowser = async (name: string, bytes: Uint8Array) => {
    const page = await browser.newPage();
    try {
      await page.goto(`${h.origin}/verify`);
      await page.setInputFiles('input[name=file]', { name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
      await Promise.all([page.waitForResponse((r) => r.url() === `${h.origin}/verify` && r.request().method() === 'POST'), page.click('button[type=submit]')]);
      await page.waitForSelector('section.verdict');
      const section = page.locator('section.verdict');
      return { status: await section.getAttribute('data-status'), text: await section.innerText(), html: await page.content(), lang: await page.getAttribute('html', 'lang'), button: await page.locator('button[type=submit]').innerText() };
    } finally {
      await page.close();
    }
  };

  test('a good file: intact, sealed by the seal certificate at trusted time, for its envelope, with signers and no IPs', async () => {
    const seen = await checkInBrowser('lease.pdf', good);
    assert.equal(seen.status, 'verified');
    assert.match(seen.text, /Intact and sealed by this service/);
    assert.match(seen.text, /Signet Test Seal/);
    assert.match(seen.text, /Trusted time[\s\S]*Signet Test TSA/);
    assert.match(seen.text, /PAdES B-LTA/);
    assert.ok(seen.text.includes(envelopeId));
    assert.match(seen.text, /Lease for 12 Elm Street/);
    assert.match(seen.text, /Tess Tenant/);
    assert.match(seen.text, /t•••@example\.com/);
    assert.ok(!seen.html.includes('198.51.100.7'), 'no IP address on the page');
    assert.ok(!seen.html.includes('tenant@example.com'), 'no full e-mail address');

    const json = await (await postJson(good)).json() as Verdict;
    assert.equal(json.status, 'verified');
    assert.equal(json.seal?.intact, true);
    assert.equal(json.seal?.level, 'B-LTA');
    assert.ok(json.seal?.trustedTime?.time);
    assert.equal(json.envelope?.envelopeId, envelopeId);
    assert.deepEqual(json.envelope?.signers.map((s) => s.name), ['Tess Tenant']);
    assert.ok(json.envelope?.events.some((e) => e.action === 'Signed'));
    assert.ok(!JSON.stringify(json).includes('198.51.100.7'));
  });

  test('one changed byte: altered, and nothing about the envelope', async () => {
    const tampered = new Uint8Array(good);
    tampered[7] = tampered[7] === 0x36 ? 0x37 : 0x36;
    const seen = await checkInBrowser('tampered.pdf', tampered);
    assert.equal(seen.status, 'altered');
    assert.match(seen.text, /changed since it was sealed/);
    for (const secret of [envelopeId, 'Lease for 12 Elm Street', 'Tess Tenant', '198.51.100.7']) assert.ok(!seen.html.includes(secret), `the page does not show ${secret}`);
    const json = await (await postJson(tampered)).json() as Verdict;
    assert.equal(json.status, 'altered');
    assert.equal(json.envelope, undefined);
  });

  test('a foreign PDF, sealed by someone else under the same name: unknown, and nothing about any envelope', async () => {
    const foreign = await sealPdf(await samplePdf(1, 'Lease for 12 Elm Street'), createDevSealP12({ commonName: 'Signet Test Seal' }));
    const seen = await checkInBrowser('foreign.pdf', foreign);
    assert.equal(seen.status, 'unknown');
    assert.match(seen.text, /not sealed by this service/);
    for (const secret of [envelopeId, 'Tess Tenant']) assert.ok(!seen.html.includes(secret));
    const json = await (await postJson(foreign)).json() as Verdict;
    assert.equal(json.status, 'unknown');
    assert.equal(json.envelope, undefined);
    // A PDF with no seal at all.
    assert.equal((await (await postJson(await samplePdf(1))).json() as Verdict).status, 'unsigned');
    // A stranger's seal with a timestamp token: nothing here checked whom that token comes from,
    // so it is not presented as trusted time, and the certificate's name is said to be unchecked.
    const stamped = (await timestampSeal(foreign, { url: tsa.url })).pdf;
    const claimed = await (await postJson(stamped)).json() as Verdict;
    assert.equal(claimed.status, 'unknown');
    assert.equal(claimed.seal?.trustedTime, undefined);
    const claimedPage = await checkInBrowser('stamped.pdf', stamped);
    assert.ok(!/Trusted time/.test(claimedPage.text), 'no "Trusted time" for a file this service did not seal');
    assert.match(claimedPage.text, /Named in its certificate \(not checked\)\s*Signet Test Seal/);
    // The names in a stranger's certificate are shown as text, never as markup.
    const hostile = await sealPdf(await samplePdf(1), createDevSealP12({ commonName: '<img id="xss" src="x">Mallory' }));
    const shown = await checkInBrowser('hostile.pdf', hostile);
    assert.equal(shown.status, 'unknown');
    assert.ok(shown.text.includes('<img id="xss" src="x">Mallory'), 'the name as typed');
    assert.ok(!shown.html.includes('<img id="xss"'), 'no element made of it');
  });

  test('an account in German that hashes IPs: the page and the JSON in German, each IP a keyed hash per envelope, never the address', async () => {
    const settings = new AccountSettingsRepository(h.store.db);
    await settings.update(accountId, { language: 'de', verifyAuditIps: 'hashed' }, h.clock.now());
    try {
      const seen = await checkInBrowser('mietvertrag.pdf', good);
      assert.equal(seen.status, 'verified');
      assert.equal(seen.lang, 'de');
      assert.match(seen.text, /Unverändert und von diesem Dienst versiegelt/);
      assert.match(seen.text, /Dieses Dokument ist unverändert\. Es wurde von Signet Test Seal am [\s\S]* versiegelt, als der Umschlag [0-9a-f-]+ abgeschlossen wurde\./);
      assert.match(seen.text, /Vertrauenswürdige Zeit[\s\S]*Signet Test TSA/);
      assert.match(seen.text, /Unterzeichner[\s\S]*Tess Tenant/);
      assert.equal(seen.button, 'Prüfen');
      const hash = hashAuditIp((await settings.verifyPolicy(accountId)).ipKey ?? assert.fail('a key'), envelopeId, '198.51.100.7');
      assert.match(seen.text, /IP \(gehasht\)/);
      assert.ok(seen.html.includes(hash), `the hash ${hash} is shown`);
      assert.ok(!seen.html.includes('198.51.100.7'), 'never the address');
      const json = await (await postJson(good)).json() as Verdict;
      assert.equal(json.language, 'de');
      assert.match(json.message, /^Dieses Dokument ist unverändert\./);
      assert.ok(json.envelope?.events.some((e) => e.ipHash === hash));
      assert.ok(!JSON.stringify(json).includes('198.51.100.7'));
      // Another envelope's hash of the same address differs: an address is not followed across envelopes.
      assert.notEqual(hashAuditIp((await settings.verifyPolicy(accountId)).ipKey ?? '', 'another-envelope', '198.51.100.7'), hash);
    } finally {
      await settings.update(accountId, { language: 'en', verifyAuditIps: 'hidden' }, h.clock.now());
    }
  });

  // A POST whose headers announce `length` bytes of PDF and whose body never comes: what the
  // server answers without reading a body, or the request is aborted at the deadline.
  const stalledUpload = (length: number, headers: Record<string, string> = {}): { req: ClientRequest; response: Promise<IncomingMessage> } => {
    const req = httpRequest(`${h.origin}/verify`, { method: 'POST', headers: { 'content-type': 'application/pdf', accept: 'application/json', 'content-length': String(length), ...headers }, signal: AbortSignal.timeout(20_000) });
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    req.flushHeaders();
    req.write('%PDF-1.7\n');
    return { req, response };
  };
  const jsonOf = async (res: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { errorCode: string };
  };

  test('bounded: no file, not a PDF, too large, a form of many fields, uploads held open, and too many from one address are refused in the surface\'s shape', async () => {
    const none = await postJson('');
    assert.equal(none.status, 400);
    assert.equal(((await none.json()) as { errorCode: string }).errorCode, 'NO_FILE');
    const notPdf = await postJson(new TextEncoder().encode('GIF89a not a pdf'));
    assert.equal(notPdf.status, 400);
    assert.equal(((await notPdf.json()) as { errorCode: string }).errorCode, 'NOT_A_PDF');
    const big = new Uint8Array(520 * 1024).fill(0x20);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    const tooLarge = await postJson(big);
    assert.equal(tooLarge.status, 413);
    assert.equal(((await tooLarge.json()) as { errorCode: string }).errorCode, 'FILE_TOO_LARGE');
    // Past the body limit itself, and a body of another type: refused by the framework, still
    // answered in /verify's own JSON shape (they used to be the HTML error page).
    const huge = new Uint8Array(700 * 1024).fill(0x20);
    huge.set(new TextEncoder().encode('%PDF-1.7\n'));
    const overLimit = await postJson(huge);
    assert.equal(overLimit.status, 413);
    assert.match(String(overLimit.headers.get('content-type')), /application\/json/);
    assert.equal(((await overLimit.json()) as { errorCode: string }).errorCode, 'FILE_TOO_LARGE');
    const wrongType = await fetch(`${h.origin}/verify`, { method: 'POST', headers: { 'content-type': 'image/gif', accept: 'application/json' }, body: 'GIF89a' });
    assert.equal(wrongType.status, 415);
    assert.equal(((await wrongType.json()) as { errorCode: string }).errorCode, 'UNSUPPORTED_MEDIA_TYPE');

    // A form of countless tiny fields is refused after a bounded scan, not parsed field by field
    // on the event loop (the file comes last, so a general parser would have found it).
    const form = new FormData();
    for (let i = 0; i < 4; i++) form.append(`f${i}`, 'x');
    form.append('file', new Blob([Buffer.from(await samplePdf(1))], { type: 'application/pdf' }), 'a.pdf');
    const manyFields = await fetch(`${h.origin}/verify`, { method: 'POST', headers: { accept: 'application/json' }, body: form });
    assert.equal(manyFields.status, 400);
    const refusal = await manyFields.json() as { errorCode: string; message: string };
    assert.equal(refusal.errorCode, 'BAD_FORM');
    assert.match(refusal.message, /at most 4 form fields/);

    // Uploads held open take their client's places in flight: of three held at once from one
    // client (its own, named as the gateway does, so the earlier checks' budget does not count),
    // exactly two are admitted and one is BUSY at once, whatever order they arrive in, without
    // its body being read; when they go away, their places come back.
    const client = { 'x-forwarded-for': '198.51.100.44' };
    const held = [stalledUpload(400 * 1024, client), stalledUpload(400 * 1024, client), stalledUpload(400 * 1024, client)];
    for (const { response } of held) response.catch(() => undefined);
    const refused = await Promise.race(held.map((x) => x.response));
    assert.equal(refused.statusCode, 503);
    assert.equal((await jsonOf(refused)).errorCode, 'BUSY');
    for (const { req } of held) req.destroy();
    await pollUntil(async () => {
      const res = await postJson(await samplePdf(1), client);
      await res.arrayBuffer();
      return res.status !== 503;
    }, { timeoutMs: 20_000, intervalMs: 300, what: 'the held places released' });

    let limited: Response | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await postJson(await samplePdf(1));
      if (res.status === 429) limited = res;
      else await res.arrayBuffer();
    }
    assert.ok(limited, 'the address is rate-limited within its budget');
    assert.equal(((await limited.json()) as { errorCode: string }).errorCode, 'TOO_MANY_REQUESTS');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);

    // Over its budget, an upload is refused from its headers alone: the server answers before
    // a byte of the announced body arrives (it used to buffer the whole body first).
    const { req, response } = stalledUpload(400 * 1024);
    try {
      const res = await response;
      assert.equal(res.statusCode, 429);
      assert.equal((await jsonOf(res)).errorCode, 'TOO_MANY_REQUESTS');
    } finally {
      req.destroy();
    }
  });
});
