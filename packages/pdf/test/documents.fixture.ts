import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { zip } from './zip.fixture.ts';

const run = promisify(execFile);

/**
 * A one-page NDA in docx: `/sn1/` and `/dt1/` as white runs (how integrators hide anchors),
 * and `/sn2/` split over two runs of different formatting, which LibreOffice writes as
 * separate text items.
 */
export async function makeDocx(marker = 'Mutual Non-Disclosure Agreement'): Promise<Uint8Array> {
  const white = { color: 'FFFFFF' };
  const doc = new Document({
    sections: [{
      children: [
        new Paragraph({ children: [new TextRun({ text: marker, bold: true, size: 32 })] }),
        new Paragraph({ children: [new TextRun('The parties agree to keep each other\'s secrets.')] }),
        new Paragraph({ children: [new TextRun('Signature: '), new TextRun({ text: '/sn1/', ...white })] }),
        new Paragraph({ children: [new TextRun('Date: '), new TextRun({ text: '/dt1/', ...white })] }),
        new Paragraph({ children: [new TextRun('Second signer: '), new TextRun({ text: '/sn', ...white }), new TextRun({ text: '2/', bold: true, ...white })] }),
      ],
    }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** A docx of `pages` pages of prose, slow enough to convert to overrun a short deadline. */
export async function makeLongDocx(pages: number): Promise<Uint8Array> {
  const prose = 'This clause is repeated to make the document long. '.repeat(40);
  const doc = new Document({
    sections: [{
      children: Array.from({ length: pages }, (_v, i) => new Paragraph({ pageBreakBefore: i > 0, children: [new TextRun(`Page ${i + 1}. ${prose}`)] })),
    }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/**
 * A hand-made docx whose only image is *linked* (TargetMode="External") to `imageUrl`:
 * LibreOffice fetches such images over http while loading, unless stopped.
 */
export function makeDocxLinkingImage(imageUrl: string, text = 'Linked image document'): Uint8Array {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const PKG = 'http://schemas.openxmlformats.org/package/2006';
  const xml = (body: string): Buffer => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  return zip([
    { name: '[Content_Types].xml', data: xml(`<Types xmlns="${PKG}/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`) },
    { name: '_rels/.rels', data: xml(`<Relationships xmlns="${PKG}/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`) },
    { name: 'word/_rels/document.xml.rels', data: xml(`<Relationships xmlns="${PKG}/relationships"><Relationship Id="rId5" Type="${R}/image" Target="${imageUrl}" TargetMode="External"/></Relationships>`) },
    { name: 'word/document.xml', data: xml(`<w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p><w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="linked.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rId5"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p></w:body></w:document>`) },
  ]);
}

/** An offer letter in html: white anchors in a full-width table and inline. */
export function makeHtml(marker = 'Offer Letter', extraBody = ''): Uint8Array {
  return Buffer.from(`<!doctype html><html><head><meta charset="utf-8"><style>
  body { font-family: 'Liberation Serif', serif; font-size: 12pt; }
  table { width: 100%; border-collapse: collapse; } td { border: 1px solid #999; padding: 6pt; }
  .anchor { color: #fff; }
</style></head><body>
<h1>${marker}</h1>
<p>We are pleased to offer you the position.</p>
<table><tr><td>Candidate signature</td><td><span class="anchor">/sn1/</span></td></tr></table>
<p>Date: <span style="color:#ffffff">/dt1/</span></p>
${extraBody}
</body></html>`);
}

/** Where {@link makePdf} drew things (PDF space: points, bottom-left origin, baselines). */
export const PDF_LAYOUT = {
  pageWidth: 612,
  pageHeight: 792,
  fontSize: 12,
  sn1: { x: 200, baseline: 400 },
  sn3: { x: 100, baseline: 300 },
  page2sn1: { x: 300, baseline: 150 },
};

/**
 * A two-page Letter PDF drawn with pdf-lib: a white `/sn1/` on each page and `/sn3/` drawn as
 * two separate show-text operations ("/sn" then "3/") that touch.
 */
export async function makePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const { fontSize: size, pageWidth, pageHeight } = PDF_LAYOUT;
  const white = rgb(1, 1, 1);
  const p1 = pdf.addPage([pageWidth, pageHeight]);
  p1.drawText('Purchase order 42', { x: 72, y: 720, size: 18, font });
  p1.drawText('Buyer signature:', { x: 72, y: PDF_LAYOUT.sn1.baseline, size, font });
  p1.drawText('/sn1/', { x: PDF_LAYOUT.sn1.x, y: PDF_LAYOUT.sn1.baseline, size, font, color: white });
  p1.drawText('/sn', { x: PDF_LAYOUT.sn3.x, y: PDF_LAYOUT.sn3.baseline, size, font });
  p1.drawText('3/', { x: PDF_LAYOUT.sn3.x + font.widthOfTextAtSize('/sn', size), y: PDF_LAYOUT.sn3.baseline, size, font });
  const p2 = pdf.addPage([pageWidth, pageHeight]);
  p2.drawText('Annex', { x: 72, y: 720, size: 18, font });
  p2.drawText('/sn1/', { x: PDF_LAYOUT.page2sn1.x, y: PDF_LAYOUT.page2sn1.baseline, size, font, color: white });
  return pdf.save();
}

/** A word's box as poppler's `pdftotext -bbox` sees it: points, top-left origin. */
export type WordBox = { page: number; word: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** Every word poppler finds, the independent reference for anchor positions. */
export async function popplerWords(pdf: Uint8Array): Promise<WordBox[]> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-bbox-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('pdftotext', ['-bbox', join(dir, 'in.pdf'), join(dir, 'out.html')]);
    const html = await readFile(join(dir, 'out.html'), 'utf8');
    const words: WordBox[] = [];
    let page = 0;
    for (const line of html.split('\n')) {
      if (line.includes('<page ')) page++;
      const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
      if (m) words.push({ page, word: m[5]!, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) });
    }
    return words;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text poppler extracts, for "the document really is this document" checks. */
export async function popplerText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-text-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A docx re-saved by a cold LibreOffice as odt or doc (a fixture maker, not the code under test). */
export async function saveAs(docx: Uint8Array, format: 'odt' | 'doc'): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-saveas-'));
  try {
    await writeFile(join(dir, 'in.docx'), docx);
    const filter = format === 'doc' ? 'doc:MS Word 97' : 'odt';
    await run('/usr/bin/soffice', ['--headless', `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--convert-to', filter, '--outdir', dir, join(dir, 'in.docx')]);
    return new Uint8Array(await readFile(join(dir, `in.${format}`)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The same PDF encrypted by qpdf (AES-256, with a user password). */
export async function encryptWithQpdf(pdf: Uint8Array, ownerOnly = false): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-qpdf-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('qpdf', ['--encrypt', ownerOnly ? '' : 'user-secret', 'owner-secret', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')]);
    return new Uint8Array(await readFile(join(dir, 'out.pdf')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
