import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { buildConverter, findAnchors, PdfError, type AnchorMatch, type Converter } from '../src/index.ts';
import { zip } from './zip.fixture.ts';
import { encryptWithQpdf, makeDocx, makeLongDocx, saveAs, makeHtml, makePdf, PDF_LAYOUT, popplerText, popplerWords, type WordBox } from './documents.fixture.ts';

const isPdfError = (code: string) => (e: unknown) => e instanceof PdfError && e.code === code;

/** Our anchor box against poppler's word box for the same text, within `tol` points. */
function assertSameBox(m: AnchorMatch | undefined, w: WordBox | undefined, tol = 2): void {
  assert.ok(m, 'anchor found');
  assert.ok(w, 'poppler found the word');
  assert.equal(m.pageNumber, w.page);
  assert.ok(Math.abs(m.anchorX - w.xMin) <= tol, `x ${m.anchorX} vs poppler ${w.xMin}`);
  assert.ok(Math.abs(m.anchorX + m.width - w.xMax) <= tol, `right ${m.anchorX + m.width} vs poppler ${w.xMax}`);
  assert.ok(Math.abs(m.anchorY - w.yMin) <= tol, `top ${m.anchorY} vs poppler ${w.yMin}`);
}

describe('conversion and anchors with real LibreOffice and Chromium', () => {
  let converter: Converter;
  let docxPdf: Uint8Array;
  let htmlPdf: Uint8Array;
  let pdfPdf: Uint8Array;
  let pdfInput: Uint8Array;

  before(async () => {
    converter = await buildConverter({ officeWorkers: 2, htmlPages: 2, timeoutMs: 30_000 });
    await converter.warmUp();
    pdfInput = await makePdf();
    [docxPdf, htmlPdf, pdfPdf] = await Promise.all([
      converter.convert({ bytes: await makeDocx(), fileExtension: 'docx' }),
      converter.convert({ bytes: makeHtml(), fileExtension: 'html' }),
      converter.convert({ bytes: pdfInput, fileExtension: 'pdf' }),
    ]);
  });
  after(() => converter.close());

  test('docx: white anchors, and one split over two runs, where poppler sees them', async () => {
    assert.match(await popplerText(docxPdf), /Mutual Non-Disclosure Agreement/);
    const words = await popplerWords(docxPdf);
    for (const anchor of ['/sn1/', '/dt1/', '/sn2/']) {
      const found = await findAnchors([docxPdf], { anchorString: anchor });
      assert.equal(found.length, 1, anchor);
      assertSameBox(found[0], words.find((w) => w.word === anchor));
    }
  });

  test('html: printed by Chromium on Letter, white anchors inside a table found', async () => {
    const words = await popplerWords(htmlPdf);
    const [sn1] = await findAnchors([htmlPdf], { anchorString: '/sn1/' });
    assert.equal(sn1?.pageWidth, 612);
    assert.equal(sn1?.pageHeight, 792);
    assertSameBox(sn1, words.find((w) => w.word === '/sn1/'));
    // The table is 100% wide, so the second cell's anchor is right of the page's middle.
    assert.ok(sn1.anchorX > 306);
    assertSameBox((await findAnchors([htmlPdf], { anchorString: '/dt1/' }))[0], words.find((w) => w.word === '/dt1/'));
  });

  test('pdf: passed through byte for byte; anchors at the positions pdf-lib drew them', async () => {
    assert.deepEqual(pdfPdf, pdfInput);
    const found = await findAnchors([pdfPdf], { anchorString: '/sn1/' });
    assert.deepEqual(found.map((m) => m.pageNumber), [1, 2]);
    const [p1, p2] = found;
    assert.ok(p1 && p2);
    assert.ok(Math.abs(p1.anchorX - PDF_LAYOUT.sn1.x) < 0.01);
    // Top-left origin: the text's top is the baseline plus the font's ascent, flipped.
    assert.ok(p1.anchorY < PDF_LAYOUT.pageHeight - PDF_LAYOUT.sn1.baseline);
    assert.ok(p1.anchorY > PDF_LAYOUT.pageHeight - PDF_LAYOUT.sn1.baseline - PDF_LAYOUT.fontSize);
    assert.ok(Math.abs(p2.anchorX - PDF_LAYOUT.page2sn1.x) < 0.01);
    const words = await popplerWords(pdfPdf);
    assertSameBox(p1, words.find((w) => w.word === '/sn1/' && w.page === 1), 0.5);
    assertSameBox(p2, words.find((w) => w.word === '/sn1/' && w.page === 2), 0.5);
    const [sn3] = await findAnchors([pdfPdf], { anchorString: '/sn3/' });
    assertSameBox(sn3, words.find((w) => w.word === '/sn3/'), 0.5);
  });

  test('several documents: every one is searched, one match per occurrence, in order', async () => {
    const found = await findAnchors([docxPdf, htmlPdf, pdfPdf], { anchorString: '/SN1/' });
    assert.deepEqual(found.map((m) => [m.documentIndex, m.pageNumber]), [[0, 1], [1, 1], [2, 1], [2, 2]]);
    assert.deepEqual(await findAnchors([docxPdf, htmlPdf, pdfPdf], { anchorString: '/SN1/', anchorCaseSensitive: 'true' }), []);
  });

  test('offsets in every unit move the tab from the anchor on a converted page', async () => {
    const [base] = await findAnchors([docxPdf], { anchorString: '/sn1/' });
    assert.ok(base);
    for (const [anchorUnits, points] of [['pixels', 1], ['inches', 72], ['mms', 72 / 25.4], ['cms', 72 / 2.54]] as const) {
      const [m] = await findAnchors([docxPdf], { anchorString: '/sn1/', anchorUnits, anchorXOffset: '2', anchorYOffset: '-1' });
      assert.ok(m);
      assert.ok(Math.abs(m.x - (base.x + 2 * points)) < 1e-6, anchorUnits);
      assert.ok(Math.abs(m.y - (base.y - points)) < 1e-6, anchorUnits);
    }
  });

  test('txt and rtf convert through the warm workers', async () => {
    const txt = await converter.convert({ bytes: Buffer.from('Plain text contract\nSign: /sn9/\n'), fileExtension: 'TXT' });
    assert.equal((await findAnchors([txt], { anchorString: '/sn9/' })).length, 1);
    const rtf = await converter.convert({ bytes: Buffer.from('{\\rtf1\\ansi{\\fonttbl\\f0 Liberation Serif;}\\f0 RTF contract\\par Sign: /sn8/\\par}'), fileExtension: '.rtf' });
    assert.match(await popplerText(rtf), /RTF contract/);
    assert.equal((await findAnchors([rtf], { anchorString: '/sn8/' })).length, 1);
    assert.equal(converter.stats().officeColdFallbacks, 0);
  });

  test('12 parallel conversions of mixed kinds: each comes back as its own document', async () => {
    const jobs = Array.from({ length: 12 }, (_v, i) => {
      const marker = `Document number ${i} of the batch`;
      if (i % 3 === 0) return { marker, input: makeDocx(marker).then((bytes) => ({ bytes, fileExtension: 'docx' })) };
      if (i % 3 === 1) return { marker, input: Promise.resolve({ bytes: makeHtml(marker), fileExtension: 'html' }) };
      return { marker, input: Promise.resolve({ bytes: Buffer.from(`${marker}\n`), fileExtension: 'txt' }) };
    });
    const pdfs = await Promise.all(jobs.map(async (j) => converter.convert(await j.input)));
    for (const [i, pdf] of pdfs.entries()) {
      const text = (await popplerText(pdf)).replace(/\s+/g, ' ');
      assert.ok(text.includes(jobs[i]!.marker), `job ${i} came back with its own text`);
    }
    assert.deepEqual({ running: converter.stats().running, waiting: converter.stats().waiting }, { running: 0, waiting: 0 });
  });

  test('a conversion past its deadline fails with CONVERSION_TIMEOUT and the worker is replaced', async () => {
    const before = await converter.officeWorkerPids();
    // 1500 pages take ~5 s on an idle machine, so they cannot be converted in 1 s; and 1 s is
    // long enough for the job to reach its worker even on a loaded machine (a deadline that
    // fires before then aborts the job without a worker to replace).
    const long = await makeLongDocx(1500);
    await assert.rejects(
      converter.convert({ bytes: long, fileExtension: 'docx', timeoutMs: 1000 }),
      isPdfError('CONVERSION_TIMEOUT'),
    );
    const pdf = await converter.convert({ bytes: await makeDocx('After the timeout'), fileExtension: 'docx' });
    assert.match(await popplerText(pdf), /After the timeout/);
    const now = await converter.officeWorkerPids();
    assert.equal(now.length, 2);
    assert.notDeepEqual(now.sort(), before.sort(), 'the timed-out worker was killed and a new one started');
  });

  test('a warm worker killed from outside is restarted; no document is lost', async () => {
    const pids = await converter.officeWorkerPids();
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await pollUntil(async () => (await converter.officeWorkerPids()).length === 0, { timeoutMs: 10_000, what: 'workers seen dead' });
    const results = await Promise.all([1, 2, 3].map((n) => converter.convert({ bytes: Buffer.from(`Survivor ${n}\n`), fileExtension: 'txt' })));
    for (const [i, pdf] of results.entries()) assert.match(await popplerText(pdf), new RegExp(`Survivor ${i + 1}`));
    const fresh = await converter.officeWorkerPids();
    assert.equal(fresh.length, 2);
    for (const pid of fresh) assert.ok(!pids.includes(pid));
  });

  test('an html page past its deadline fails with CONVERSION_TIMEOUT; the next one prints', async () => {
    const rows = Array.from({ length: 20_000 }, (_v, i) => `<tr><td>Row ${i}</td><td>${'cell '.repeat(20)}</td></tr>`).join('');
    await assert.rejects(
      converter.convert({ bytes: makeHtml('Endless table', `<table>${rows}</table>`), fileExtension: 'html', timeoutMs: 100 }),
      isPdfError('CONVERSION_TIMEOUT'),
    );
    const pdf = await converter.convert({ bytes: makeHtml('After the slow page'), fileExtension: 'html' });
    assert.match(await popplerText(pdf), /After the slow page/);
  });

  test('odt and doc (written by LibreOffice from the docx) convert with their anchors', async () => {
    const [odt, doc] = await Promise.all([saveAs(await makeDocx('OpenDocument copy'), 'odt'), saveAs(await makeDocx('Word 97 copy'), 'doc')]);
    const odtPdf = await converter.convert({ bytes: odt, fileExtension: 'odt' });
    const docPdf = await converter.convert({ bytes: doc, fileExtension: 'doc' });
    assert.match(await popplerText(odtPdf), /OpenDocument copy/);
    assert.match(await popplerText(docPdf), /Word 97 copy/);
    const found = await findAnchors([odtPdf, docPdf], { anchorString: '/sn2/' });
    assert.deepEqual(found.map((m) => m.documentIndex), [0, 1]);
  });

  test('a .doc converts as what its bytes are (RTF, a renamed docx), and HTML named .doc is refused', async () => {
    const rtfAsDoc = await converter.convert({ bytes: Buffer.from('{\\rtf1\\ansi RTF saved as doc\\par}'), fileExtension: 'doc' });
    assert.match(await popplerText(rtfAsDoc), /RTF saved as doc/);
    const docxAsDoc = await converter.convert({ bytes: await makeDocx('Renamed docx'), fileExtension: 'doc' });
    assert.match(await popplerText(docxAsDoc), /Renamed docx/);
    await assert.rejects(converter.convert({ bytes: makeHtml('Web page'), fileExtension: 'doc' }), (e: unknown) => e instanceof PdfError && e.code === 'CORRUPT_DOCUMENT' && /an HTML page, not doc/.test(e.message));
    await assert.rejects(converter.convert({ bytes: await makeDocx(), fileExtension: 'html' }), (e: unknown) => e instanceof PdfError && e.code === 'CORRUPT_DOCUMENT' && /not html/.test(e.message));
  });

  test('LibreOffice killed in the middle of a document: that document still converts', async () => {
    const fallbacks = converter.stats().officeColdFallbacks;
    const pids = await converter.officeWorkerPids();
    const job = converter.convert({ bytes: await makeLongDocx(60), fileExtension: 'docx' });
    await pollUntil(() => converter.stats().running === 1, { timeoutMs: 10_000, what: 'the conversion to start' });
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const text = await popplerText(await job);
    assert.match(text, /Page 1\./);
    assert.match(text, /Page 60\./);
    // Killed before the worker took it, it ran on a fresh worker; after, on the cold path.
    const fresh = await converter.officeWorkerPids();
    assert.ok(converter.stats().officeColdFallbacks === fallbacks + 1 || fresh.some((p) => !pids.includes(p)));
  });

  test('bad inputs fail with typed errors', async () => {
    const pdf = await makePdf();
    await assert.rejects(converter.convert({ bytes: pdf, fileExtension: 'exe' }), isPdfError('UNSUPPORTED_FORMAT'));
    await assert.rejects(converter.convert({ bytes: new Uint8Array(0), fileExtension: 'pdf' }), isPdfError('CORRUPT_DOCUMENT'));
    await assert.rejects(converter.convert({ bytes: Buffer.from('not a pdf at all'), fileExtension: 'pdf' }), isPdfError('CORRUPT_DOCUMENT'));
    await assert.rejects(converter.convert({ bytes: pdf.subarray(0, 400), fileExtension: 'pdf' }), isPdfError('CORRUPT_DOCUMENT'));
    await assert.rejects(converter.convert({ bytes: await encryptWithQpdf(pdf), fileExtension: 'pdf' }), isPdfError('ENCRYPTED_DOCUMENT'));
    await assert.rejects(converter.convert({ bytes: await encryptWithQpdf(pdf, true), fileExtension: 'pdf' }), isPdfError('ENCRYPTED_DOCUMENT'));
    await assert.rejects(converter.convert({ bytes: Buffer.from('PK\u0003\u0004 this is no docx'), fileExtension: 'docx' }), isPdfError('CORRUPT_DOCUMENT'));
    // The worker that refused the damaged file still serves the next one.
    assert.equal((await findAnchors([await converter.convert({ bytes: Buffer.from('ok /sn7/'), fileExtension: 'txt' })], { anchorString: '/sn7/' })).length, 1);
  });
});

describe('converter limits and fallbacks', () => {
  test('inputs over maxBytes are refused before any engine starts', async () => {
    const converter = await buildConverter({ maxBytes: 1024 });
    try {
      await assert.rejects(converter.convert({ bytes: new Uint8Array(1025), fileExtension: 'docx' }), isPdfError('DOCUMENT_TOO_LARGE'));
      assert.deepEqual(await converter.officeWorkerPids(), []);
    } finally {
      await converter.close();
    }
    await assert.rejects(converter.convert({ bytes: Buffer.from('x'), fileExtension: 'txt' }), isPdfError('CONVERTER_CLOSED'));
  });

  test('a docx that would unpack past maxInflatedBytes (a zip bomb) is refused before LibreOffice', async () => {
    const converter = await buildConverter({ maxInflatedBytes: 50 * 1024 * 1024 });
    try {
      const bomb = zip([
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'word/document.xml', data: Buffer.alloc(1024, ' '), declare: 4_000_000_000 },
      ]);
      // Under every office name: a .doc used to skip the check and reach LibreOffice's detection.
      for (const fileExtension of ['docx', 'odt', 'doc', 'rtf', 'txt']) {
        await assert.rejects(converter.convert({ bytes: bomb, fileExtension }), isPdfError('DOCUMENT_TOO_LARGE'), fileExtension);
      }
      assert.deepEqual(await converter.officeWorkerPids(), [], 'no LibreOffice was started for it');
    } finally {
      await converter.close();
    }
  });

  test('close() while documents convert rejects them with CONVERTER_CLOSED and stops LibreOffice', async () => {
    const converter = await buildConverter({ officeWorkers: 1 });
    await converter.warmUp();
    const [pid] = await converter.officeWorkerPids();
    assert.ok(pid);
    const long = await makeLongDocx(400);
    const settled = Promise.allSettled([1, 2, 3].map(() => converter.convert({ bytes: long, fileExtension: 'docx' })));
    await pollUntil(() => converter.stats().running === 1 && converter.stats().waiting === 2, { timeoutMs: 10_000, what: 'one running, two waiting' });
    await converter.close();
    for (const r of await settled) {
      assert.equal(r.status, 'rejected');
      assert.ok(isPdfError('CONVERTER_CLOSED')(r.reason), String(r.reason));
    }
    assert.throws(() => process.kill(pid, 0), /ESRCH/, 'soffice.bin is gone');
  });

  test('when the warm worker cannot start, documents go through cold soffice --convert-to', async () => {
    const converter = await buildConverter({
      officeWorkers: 1,
      officePaths: { soffice: '/usr/lib/libreoffice/program/soffice.bin', python: '/nonexistent/python3' },
    });
    try {
      const pdf = await converter.convert({ bytes: await makeDocx('Cold path document'), fileExtension: 'docx' });
      assert.match(await popplerText(pdf), /Cold path document/);
      assert.equal((await findAnchors([pdf], { anchorString: '/sn2/' })).length, 1);
      assert.equal(converter.stats().officeColdFallbacks, 1);
    } finally {
      await converter.close();
    }
  });
});
