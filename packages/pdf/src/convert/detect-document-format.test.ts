import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PdfError } from '../pdf-error.ts';
import { makeDocx, makeHtml, makePdf } from '../../test/documents.fixture.ts';
import { zip } from '../../test/zip.fixture.ts';
import { assertHtmlBytes, resolveOfficeFormat, sniffDocumentFormat } from './detect-document-format.ts';

const LIMITS = { maxInflatedBytes: 50 * 1024 * 1024 };
const refused = (code: string, detail: RegExp) => (e: unknown) => e instanceof PdfError && e.code === code && detail.test(e.message);
const odt = () => zip([{ name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.text') }, { name: 'content.xml', data: Buffer.from('<office:document-content/>') }]);
const bomb = () => zip([{ name: '[Content_Types].xml', data: Buffer.from('<Types/>') }, { name: 'word/document.xml', data: Buffer.alloc(1024, ' '), declare: 4_000_000_000 }]);
const OLE2 = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]);

test('the format is read from the bytes: zip entry names, magic numbers, text', async () => {
  assert.equal(sniffDocumentFormat(await makeDocx()).kind, 'docx');
  assert.equal(sniffDocumentFormat(odt()).kind, 'odt');
  assert.equal(sniffDocumentFormat(zip([{ name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.text-template') }])).kind, 'zip');
  assert.equal(sniffDocumentFormat(zip([{ name: 'a.txt', data: Buffer.from('x') }])).kind, 'zip');
  assert.equal(sniffDocumentFormat(Buffer.from('PK\u0003\u0004 this is no docx')).kind, 'damaged-zip');
  assert.equal(sniffDocumentFormat(OLE2).kind, 'doc');
  assert.equal(sniffDocumentFormat(Buffer.from('{\\rtf1\\ansi hello}')).kind, 'rtf');
  assert.equal(sniffDocumentFormat(await makePdf()).kind, 'pdf');
  assert.equal(sniffDocumentFormat(makeHtml()).kind, 'html');
  assert.equal(sniffDocumentFormat(Buffer.from('\xEF\xBB\xBF<!DOCTYPE html><p>x', 'latin1')).kind, 'html');
  assert.equal(sniffDocumentFormat(Buffer.from('Dear Ada, please sign.')).kind, 'text');
  assert.equal(sniffDocumentFormat(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1])).kind, 'binary');
});

test('a zip bomb is refused under every office name, before its name is even compared', () => {
  for (const ext of ['docx', 'odt', 'doc', 'rtf', 'txt'] as const) {
    assert.throws(() => resolveOfficeFormat(bomb(), ext, LIMITS), refused('DOCUMENT_TOO_LARGE', /would unpack to 4000000008/), ext);
  }
});

test('each extension converts only what it may really be, with the filter of what it is', async () => {
  const [docx, pdf] = [await makeDocx(), await makePdf()];
  assert.equal(resolveOfficeFormat(await makeDocx(), 'docx', LIMITS), 'docx');
  assert.equal(resolveOfficeFormat(odt(), 'odt', LIMITS), 'odt');
  assert.equal(resolveOfficeFormat(OLE2, 'doc', LIMITS), 'doc');
  // A .doc is often really RTF or a renamed docx: converted as what it is.
  assert.equal(resolveOfficeFormat(Buffer.from('{\\rtf1 x}'), 'doc', LIMITS), 'rtf');
  assert.equal(resolveOfficeFormat(docx, 'doc', LIMITS), 'docx');
  // Text is text, whatever it looks like: the text filter shows it as written.
  assert.equal(resolveOfficeFormat(makeHtml(), 'txt', LIMITS), 'txt');

  assert.throws(() => resolveOfficeFormat(makeHtml(), 'doc', LIMITS), refused('CORRUPT_DOCUMENT', /Its bytes are an HTML page, not doc\. Send it with fileExtension "html"/));
  assert.throws(() => resolveOfficeFormat(pdf, 'docx', LIMITS), refused('CORRUPT_DOCUMENT', /a PDF, not docx\. Send it with fileExtension "pdf"/));
  assert.throws(() => resolveOfficeFormat(odt(), 'docx', LIMITS), refused('CORRUPT_DOCUMENT', /an OpenDocument text \(odt\), not docx/));
  assert.throws(() => resolveOfficeFormat(Buffer.from('{\\rtf1 x}'), 'docx', LIMITS), refused('CORRUPT_DOCUMENT', /an RTF document, not docx/));
  assert.throws(() => resolveOfficeFormat(OLE2, 'txt', LIMITS), refused('CORRUPT_DOCUMENT', /binary data|Word 97-2003/));
  assert.throws(() => resolveOfficeFormat(Buffer.from('PK\u0003\u0004 junk'), 'docx', LIMITS), refused('CORRUPT_DOCUMENT', /a damaged zip archive/));
  assert.throws(() => resolveOfficeFormat(Buffer.from('just words'), 'doc', LIMITS), refused('CORRUPT_DOCUMENT', /plain text, not doc/));
});

test('html documents must be text: a zip or a PDF named .html is refused', async () => {
  const [docx, pdf] = [await makeDocx(), await makePdf()];
  assert.doesNotThrow(() => assertHtmlBytes(makeHtml()));
  assert.doesNotThrow(() => assertHtmlBytes(Buffer.from('<p>a fragment</p>')));
  assert.throws(() => assertHtmlBytes(docx), refused('CORRUPT_DOCUMENT', /a Word \(docx\) document, not html/));
  assert.throws(() => assertHtmlBytes(pdf), refused('CORRUPT_DOCUMENT', /a PDF, not html/));
});
