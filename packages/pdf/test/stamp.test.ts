import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  ENGLISH_CERTIFICATE_LABELS, findAnchors, mergePdfs, PdfError, renderCertificate, sha256Hex, signedCaption, stampSignatures, SIGN_HERE_SIZE, UNICODE_FONT_PATH,
  unicodeFontAvailable, validatePdf,
} from '../src/index.ts';
import { makePdf, popplerText } from './documents.fixture.ts';
import { darkPixels, makeSignaturePng, renderPage } from './raster.fixture.ts';

const isPdfError = (code: string) => (e: unknown) => e instanceof PdfError && e.code === code;

test('a drawn signature lands in its tab box, found by rendering the page with pdftoppm', async () => {
  const pdf = await makePdf();
  const [tab] = await findAnchors([pdf], { anchorString: '/sn1/', anchorYOffset: '-10' });
  assert.ok(tab);
  const box = { x: tab.x, y: tab.y, ...SIGN_HERE_SIZE };
  const before = await renderPage(pdf, 1);
  assert.equal(darkPixels(before, box), 0, 'the white anchor leaves its box blank');
  const stamped = await stampSignatures(pdf, [{
    pageNumber: 1, x: tab.x, y: tab.y, signature: { type: 'image', image: makeSignaturePng() },
    caption: signedCaption('Ada Lovelace', new Date('2026-11-21T20:15:03Z')),
  }]);
  const after = await renderPage(stamped, 1);
  assert.ok(darkPixels(after, box) > 300, `ink inside the tab (${darkPixels(after, box)} dark pixels)`);
  // Nothing moved elsewhere: the same box shifted well away from the tab stays as it was.
  const away = { ...box, x: box.x - 150 };
  assert.equal(darkPixels(after, away), darkPixels(before, away));
  assert.match(await popplerText(stamped), /Signed by Ada Lovelace at 2026-11-21 20:15:03 UTC/);
  // Page 2 untouched.
  assert.equal(darkPixels(await renderPage(stamped, 2), { x: 0, y: 0, width: 612, height: 792 }),
    darkPixels(await renderPage(pdf, 2), { x: 0, y: 0, width: 612, height: 792 }));
});

test('a typed signature is drawn in the handwriting font inside its box', async () => {
  const pdf = await makePdf();
  const box = { x: 300, y: 500, width: 160, height: 40 };
  const stamped = await stampSignatures(pdf, [{ pageNumber: 2, ...box, signature: { type: 'typed', text: 'Grace Hopper' } }]);
  const raster = await renderPage(stamped, 2);
  assert.ok(darkPixels(raster, box) > 100, `typed ink in the box (${darkPixels(raster, box)})`);
  assert.equal(darkPixels(raster, { ...box, y: box.y + box.height + 2 }), 0, 'nothing spills below');
  // pdf-lib's CFF subsetting writes a font poppler rejects ("Syntax Error: Embedded font file
  // may be invalid") and replaces; the whole font is embedded instead.
  assert.doesNotMatch(raster.stderr, /Error/);
  const doc = await PDFDocument.load(stamped);
  const fonts = [...doc.context.enumerateIndirectObjects()].map(([, o]) => String(o)).filter((s) => s.includes('/FontName'));
  assert.ok(fonts.some((s) => /DancingScript/.test(s)), 'Dancing Script is embedded');
  assert.match(await popplerText(stamped), /Grace Hopper/);
});

test('a name typed and captioned in kanji is drawn in the Unicode font, not as missing glyphs', async () => {
  const pdf = await makePdf();
  const box = { x: 300, y: 500, width: 160, height: 40 };
  const stamped = await stampSignatures(pdf, [{ pageNumber: 2, ...box, signature: { type: 'typed', text: '山田 太郎' }, caption: signedCaption('山田 太郎', new Date('2026-11-21T20:15:03Z')) }]);
  const raster = await renderPage(stamped, 2);
  assert.ok(darkPixels(raster, box) > 100, `typed ink in the box (${darkPixels(raster, box)})`);
  assert.doesNotMatch(raster.stderr, /Error/);
  const text = (await popplerText(stamped)).replace(/\s+/g, ' ');
  assert.match(text, /山田 太郎/);
  assert.match(text, /Signed by 山田 太郎 at 2026-11-21 20:15:03 UTC/);
});

test('a signature on a page that does not exist, or a bad image, is refused', async () => {
  const pdf = await makePdf();
  await assert.rejects(stampSignatures(pdf, [{ pageNumber: 3, x: 1, y: 1, signature: { type: 'typed', text: 'X' } }]), isPdfError('INVALID_TAB_POSITION'));
  await assert.rejects(stampSignatures(pdf, [{ pageNumber: 1, x: 700, y: 10, signature: { type: 'typed', text: 'X' } }]), isPdfError('INVALID_TAB_POSITION'));
  await assert.rejects(stampSignatures(pdf, [{ pageNumber: 1, x: 10, y: -50, signature: { type: 'typed', text: 'X' } }]), isPdfError('INVALID_TAB_POSITION'));
  await assert.rejects(stampSignatures(pdf, [{ pageNumber: 1, x: Number.NaN, y: 1, signature: { type: 'typed', text: 'X' } }]), isPdfError('INVALID_TAB_POSITION'));
  await assert.rejects(stampSignatures(pdf, [{ pageNumber: 1, x: 1, y: 1, signature: { type: 'image', image: Buffer.from('GIF89a') } }]), isPdfError('INVALID_SIGNATURE_IMAGE'));
  await assert.rejects(stampSignatures(pdf, [{ pageNumber: 1, x: 1, y: 1, signature: { type: 'image', image: makeSignaturePng().subarray(0, 40) } }]), isPdfError('INVALID_SIGNATURE_IMAGE'));
});

test('merging keeps every page in order', async () => {
  const one = await PDFDocument.create();
  const font = await one.embedFont(StandardFonts.Helvetica);
  one.addPage([300, 300]).drawText('First document', { x: 20, y: 150, font, size: 12 });
  const merged = await mergePdfs([await one.save(), await makePdf()]);
  assert.equal(await validatePdf(merged), 3);
  const text = await popplerText(merged);
  assert.ok(text.indexOf('First document') < text.indexOf('Purchase order 42'));
  assert.ok(text.indexOf('Purchase order 42') < text.indexOf('Annex'));
});

test('the certificate of completion shows the envelope, signers, documents and events, over pages; a name in another script in the Unicode font', async () => {
  const doc = await makePdf();
  const events = Array.from({ length: 60 }, (_v, i) => ({
    at: new Date(Date.UTC(2026, 10, 21, 20, i % 60)), event: i % 2 ? 'viewed' : 'signed', actor: `signer${i}@example.com`,
    ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  }));
  const pdf = await renderCertificate({
    envelopeId: '5f1c2e0a-93b7-4c1e-a7f2-0c0d9e8f7a61',
    subject: 'Please sign the NDA',
    sender: { name: 'Sam Sender', email: 'sam@example.com' },
    sentAt: '2026-11-21T20:00:00Z',
    completedAt: new Date('2026-11-21T20:59:00Z'),
    signers: [
      { name: 'Zoë Ünïcode 李', email: 'zoe@example.com', ipAddress: '198.51.100.23', signedAt: '2026-11-21T20:10:00Z', routingOrder: 1 },
      { name: 'Bob Builder', email: 'bob@example.com', ipAddress: '2001:db8::1', signedAt: '2026-11-21T20:30:00Z', routingOrder: 2, tabValues: [{ label: 'Company', value: 'Builder & Sons' }, { label: 'Terms', value: 'checked' }] },
    ],
    carbonCopies: [{ name: 'Carol Copy', email: 'carol@example.com' }],
    documents: [{ name: 'nda.docx', sha256: sha256Hex(doc), pages: 2 }],
    events,
  });
  const pages = await validatePdf(pdf);
  assert.ok(pages >= 2, `60 events flow onto more pages (${pages})`);
  const text = (await popplerText(pdf)).replace(/\s+/g, ' ');
  for (const s of ['Certificate of Completion', '5f1c2e0a-93b7-4c1e-a7f2-0c0d9e8f7a61', 'zoe@example.com', '198.51.100.23',
    '2001:db8::1', '2026-11-21 20:10:00 UTC', 'bob@example.com', 'carol@example.com', 'nda.docx (2 pages)', sha256Hex(doc),
    'signer59@example.com', 'Zoë Ünïcode 李', 'Tab values:', 'Company: Builder & Sons', 'Terms: checked']) {
    assert.ok(text.includes(s), `certificate shows ${s}`);
  }
});

async function fontsOf(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pdffonts-'));
  try {
    await writeFile(join(dir, 'c.pdf'), pdf);
    return (await promisify(execFile)('pdffonts', [join(dir, 'c.pdf')])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a Japanese certificate is printed in the embedded IPAGothic subset and reads back as Japanese; a Latin one stays in Helvetica', async () => {
  assert.ok(unicodeFontAvailable(), `${UNICODE_FONT_PATH} is installed by scripts/setup.mjs`);
  const base = {
    envelopeId: 'e1', sentAt: '2026-11-21T20:00:00Z', completedAt: '2026-11-21T20:59:00Z', carbonCopies: [], events: [],
    documents: [{ name: '契約書.pdf', sha256: 'ab'.repeat(32), pages: 1 }],
    signers: [{ name: '山田 太郎', email: 'taro@example.com', ipAddress: '198.51.100.23', signedAt: '2026-11-21T20:10:00Z' }],
  };
  const labels = { ...ENGLISH_CERTIFICATE_LABELS, title: '完了証明書', signers: '署名者', signer: '署名者:', documents: '文書' };
  const ja = await renderCertificate({ ...base, labels });
  const text = (await popplerText(ja)).replace(/\s+/g, ' ');
  for (const s of ['完了証明書', '署名者', '山田 太郎', '契約書.pdf', 'taro@example.com']) assert.ok(text.includes(s), `shows ${s}: ${text.slice(0, 200)}`);
  const fonts = await fontsOf(ja);
  assert.match(fonts, /IPAGothic\S* +CID TrueType +Identity-H +yes/, 'the font is embedded');
  assert.doesNotMatch(fonts, /Helvetica/);
  // pdf-lib names its subsets without the six-letter tag; the size shows the glyphs are a subset.
  assert.ok(ja.length < 100_000, `a subset, not the 6 MB font (${ja.length} bytes)`);

  const latin = await renderCertificate({ ...base, documents: [{ name: 'nda.pdf', sha256: 'ab'.repeat(32) }], signers: [{ ...base.signers[0]!, name: 'Taro Yamada' }] });
  const latinFonts = await fontsOf(latin);
  assert.match(latinFonts, /Helvetica/);
  assert.doesNotMatch(latinFonts, /IPAGothic/);
});
