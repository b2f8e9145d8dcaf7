// What trusted time and long-term validation cost at completion, not part of `npm test`:
//   node --import tsx bench/esign/evidence.ts [--runs 10]
// In one run, against a local TSA and OCSP responder (openssl ts / openssl ocsp behind HTTP on
// 127.0.0.1, the test harnesses of kit/testing): the completion of a 1-page envelope with two
// signers (stamp, certificate, merge, three seals: completion/build-completed-pdfs.ts) at B-B,
// then the same raised to B-T, B-LT and B-LTA by completion/evidence-upgrader.ts, as the
// completion worker does. Each openssl answer is a process start (~10-30 ms); a production TSA
// or responder adds its network round trip instead.
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { createTestPki, startTestOcsp, startTestTsa } from '@signet/kit/testing';
import { buildCompletedPdfs } from '../../packages/esign/src/completion/build-completed-pdfs.ts';
import { EvidenceUpgrader } from '../../packages/esign/src/completion/evidence-upgrader.ts';
import type { Envelope } from '../../packages/esign/src/domain/envelope/envelope.ts';
import { signHereTab } from '../../packages/esign/src/domain/tabs/sign-here-tab.ts';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 10;

async function measure(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

const doc = await PDFDocument.create();
const font = await doc.embedFont(StandardFonts.Helvetica);
const page = doc.addPage([612, 792]);
for (let line = 0; line < 40; line++) page.drawText(`Clause 1.${line}: the parties agree to the terms set out in this section.`, { x: 54, y: 740 - line * 17, size: 10, font, color: rgb(0, 0, 0) });
const pdf = await doc.save();
const now = new Date();
const envelope: Envelope = {
  envelopeId: 'bench', accountId: 'a', senderUserId: 'u', status: 'signed', emailSubject: 'Bench', createdAt: now, statusChangedAt: now, sentAt: now, version: 3,
  documents: [{ documentId: '1', name: 'Contract', fileExtension: 'pdf', order: 1, pageCount: 1, sha256: 'ab'.repeat(32) }],
  recipients: [1, 2].map((n) => ({
    recipientId: String(n), recipientIdGuid: `g${n}`, type: 'signer' as const, email: `s${n}@example.com`, name: `Signer ${n}`, routingOrder: n, status: 'completed' as const, signedAt: now,
    tabs: [{ tabId: `t${n}`, recipientId: String(n), documentId: '1', pageNumber: 1, xPosition: 72 + (n - 1) * 250, yPosition: 700, value: '', tab: signHereTab({ documentId: '1', pageNumber: 1, xPosition: 72 + (n - 1) * 250, yPosition: 700 }) }],
  })),
};
const signatures = new Map([['1', { kind: 'typed' as const, typedText: 'Signer One', signedTabIds: ['t1'], adoptedAt: now }], ['2', { kind: 'typed' as const, typedText: 'Signer Two', signedTabIds: ['t2'], adoptedAt: now }]]);

const ocsp = await startTestOcsp();
const pki = await createTestPki(ocsp.url);
ocsp.attach(pki);
const tsa = await startTestTsa(pki);
try {
  const seal = { p12: pki.seal.p12, passphrase: pki.seal.passphrase };
  const complete = () => buildCompletedPdfs({ envelope, pdfs: new Map([['1', pdf]]), signatures, audit: [], seal, now: new Date() });
  const rows: string[] = [];
  const base = await measure(RUNS, complete);
  rows.push(`| B-B (as before: no TSA) | ${base.p50.toFixed(0)} | ${base.p95.toFixed(0)} | 1.00× |`);
  for (const level of ['B-T', 'B-LT', 'B-LTA'] as const) {
    const upgrader = new EvidenceUpgrader({ tsa: { url: tsa.url }, level });
    const t = await measure(RUNS, async () => {
      const outcome = await upgrader.upgrade(await complete());
      if (outcome.error || outcome.level !== level) throw outcome.error ?? new Error(`reached ${outcome.level}, not ${level}`);
    });
    rows.push(`| ${level} | ${t.p50.toFixed(0)} | ${t.p95.toFixed(0)} | ${(t.p50 / base.p50).toFixed(2)}× |`);
  }
  console.log(`completion of a 1-page envelope, 2 signers, 3 sealed files; ${RUNS} runs each\n\n| level | p50 ms | p95 ms | p50 vs B-B |\n|---|---|---|---|\n${rows.join('\n')}`);
} finally {
  await tsa.stop();
  await ocsp.stop();
  await pki.remove();
}
