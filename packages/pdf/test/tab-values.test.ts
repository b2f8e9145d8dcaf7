import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument } from 'pdf-lib';
import { drawTabValues, PdfError, PdfThreads, type TabValueStamp } from '../src/index.ts';
import { makePdf, popplerText, popplerWords } from './documents.fixture.ts';
import { darkPixels, renderPage } from './raster.fixture.ts';

const isPdfError = (code: string) => (e: unknown) => e instanceof PdfError && e.code === code;

test('text values are drawn at their tab places, in the chosen standard font, and pdftotext reads them there', async () => {
  const pdf = await makePdf();
  const stamps: TabValueStamp[] = [
    { pageNumber: 1, x: 72, y: 450, width: 200, height: 20, value: { kind: 'text', text: 'Ada Lovelace' } },
    { pageNumber: 1, x: 72, y: 480, width: 200, height: 20, value: { kind: 'text', text: '11/21/2026', style: { family: 'times', size: 14, bold: true } } },
    { pageNumber: 1, x: 300, y: 450, width: 150, height: 20, value: { kind: 'text', text: 'Blue', style: { family: 'courier', italic: true, underline: true, color: [0, 0, 0.5] } } },
    { pageNumber: 2, x: 72, y: 200, value: { kind: 'text', text: '58.50' } },
  ];
  const out = await drawTabValues(pdf, stamps);
  const words = await popplerWords(out);
  const find = (page: number, word: string) => words.find((w) => w.page === page && w.word === word);
  for (const [page, word, stamp] of [[1, 'Lovelace', stamps[0]!], [1, '11/21/2026', stamps[1]!], [1, 'Blue', stamps[2]!], [2, '58.50', stamps[3]!]] as const) {
    const w = find(page, word);
    assert.ok(w, `${word} is on page ${page}`);
    const height = stamp.height ?? 20;
    assert.ok(w.xMin >= stamp.x && w.xMin < stamp.x + (stamp.width ?? 120), `${word} starts inside its tab (${w.xMin})`);
    assert.ok(w.yMin >= stamp.y - 1 && w.yMax <= stamp.y + height + 1, `${word} lies within its tab's height (${w.yMin}-${w.yMax} in ${stamp.y}-${stamp.y + height})`);
  }
  assert.match(await popplerText(out), /Ada Lovelace/);
  const doc = await PDFDocument.load(out);
  const fonts = [...doc.context.enumerateIndirectObjects()].map(([, o]) => String(o)).filter((s) => s.includes('/BaseFont'));
  for (const f of ['Helvetica', 'Times-Bold', 'Courier-Oblique']) assert.ok(fonts.some((s) => s.includes(`/${f}`)), `${f} embedded`);
});

test('a value wider than its box shrinks to fit; a value in another script is drawn in the Unicode font, control characters dropped', async () => {
  const out = await drawTabValues(await makePdf(), [
    { pageNumber: 1, x: 72, y: 500, width: 60, height: 20, value: { kind: 'text', text: 'A rather long company name' } },
    { pageNumber: 1, x: 72, y: 540, width: 200, height: 20, value: { kind: 'text', text: 'Żółw\u0007 ok' } },
    { pageNumber: 1, x: 72, y: 580, width: 200, height: 20, value: { kind: 'text', text: '山田 太郎' } },
  ]);
  const words = (await popplerWords(out)).filter((w) => w.page === 1 && w.yMin > 495 && w.yMax < 525);
  assert.ok(words.length >= 4, 'every word drawn');
  assert.ok(Math.max(...words.map((w) => w.xMax)) <= 72 + 60 + 1, 'within the 60 pt box');
  const text = await popplerText(out);
  assert.match(text, /Żółw ok/);
  assert.match(text, /山田 太郎/);
  const doc = await PDFDocument.load(out);
  const fonts = [...doc.context.enumerateIndirectObjects()].map(([, o]) => String(o)).filter((s) => s.includes('/BaseFont'));
  assert.ok(fonts.some((s) => s.includes('IPAGothic')), 'the Unicode font is embedded');
  assert.ok(out.length - (await makePdf()).length < 100_000, 'as a subset of the glyphs used');
});

test('a checked box and a selected radio are drawn as marks; unchecked ones as empty outlines', async () => {
  const pdf = await makePdf();
  const box = (x: number) => ({ pageNumber: 1, x, y: 600, width: 14, height: 14 });
  const out = await drawTabValues(pdf, [
    { ...box(100), value: { kind: 'checkbox', checked: true } },
    { ...box(140), value: { kind: 'checkbox', checked: false } },
    { ...box(180), value: { kind: 'radio', selected: true } },
    { ...box(220), value: { kind: 'radio', selected: false } },
  ]);
  const raster = await renderPage(out, 1);
  const inner = (x: number) => ({ x: x + 3, y: 603, width: 8, height: 8 });
  const outline = (x: number) => darkPixels(raster, { x, y: 600, width: 14, height: 14 });
  for (const x of [100, 140, 180, 220]) assert.ok(outline(x) > 10, `an outline at ${x}`);
  assert.ok(darkPixels(raster, inner(100)) > 10, 'the check mark');
  assert.equal(darkPixels(raster, inner(140)), 0, 'an unchecked box is empty');
  assert.ok(darkPixels(raster, inner(180)) > 15, 'the selected dot');
  assert.equal(darkPixels(raster, inner(220)), 0, 'an unselected radio is empty');
  assert.equal(darkPixels(await renderPage(pdf, 1), { x: 95, y: 595, width: 150, height: 25 }), 0, 'the page was blank there');
});

test('a value off its page or on a missing page is refused; the pdf threads draw the same', async () => {
  const pdf = await makePdf();
  const text = { kind: 'text', text: 'x' } as const;
  await assert.rejects(drawTabValues(pdf, [{ pageNumber: 3, x: 1, y: 1, value: text }]), isPdfError('INVALID_TAB_POSITION'));
  await assert.rejects(drawTabValues(pdf, [{ pageNumber: 1, x: 700, y: 10, value: text }]), isPdfError('INVALID_TAB_POSITION'));
  await assert.rejects(drawTabValues(pdf, [{ pageNumber: 1, x: 10, y: 10, width: 0, value: text }]), isPdfError('INVALID_TAB_POSITION'));
  const threads = new PdfThreads(1);
  try {
    const out = await threads.drawTabValues(pdf, [{ pageNumber: 1, x: 72, y: 450, width: 200, value: { kind: 'text', text: 'Threaded value' } }]);
    assert.match(await popplerText(out), /Threaded value/);
    await assert.rejects(threads.drawTabValues(pdf, [{ pageNumber: 9, x: 1, y: 1, value: text }]), isPdfError('INVALID_TAB_POSITION'));
  } finally {
    await threads.close();
  }
});
