// The esign bad-input corpus: ≥100 table-driven hostile or broken requests over real
// HTTP against a real esign (real converter: LibreOffice, Chromium, pdf.js). Each must get a
// DocuSign-style `{errorCode, message}` 4xx — never a 5xx — and leave every envelope table as it
// was (nothing half-written). The HTML cases that are legitimately accepted must convert with no
// network access and no local file access (a canary listener counts requests; the PDF's text
// is checked for /etc/passwd).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateRawSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { request } from 'undici';
import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, type Converter } from '@signet/pdf';
import { envelopeRowCounts, signedInIntegration, startEsignUnderTest } from './esign-under-test.ts';

const run = promisify(execFile);
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

/** A zip archive (stored as deflate) from name → bytes; `lieAboutSize` declares 1 byte unpacked. */
function zip(entries: Record<string, Uint8Array | string>, lieAboutSize = false): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const raw = Buffer.from(content);
    const packed = deflateRawSync(raw);
    const nameBytes = Buffer.from(name);
    const size = lieAboutSize ? 1 : raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(raw), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(raw), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const CONTENT_TYPES = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';

async function fixtures(scratch: string) {
  const pdfDoc = await PDFDocument.create();
  const page = pdfDoc.addPage([612, 792]);
  page.drawText('Terms /sn1/', { x: 72, y: 700, size: 12, font: await pdfDoc.embedFont(StandardFonts.Helvetica) });
  const pdf = Buffer.from(await pdfDoc.save());
  writeFileSync(join(scratch, 'plain.pdf'), pdf);
  // qpdf: a real AES-256 encrypted PDF (a user password is needed to open it).
  await run('qpdf', ['--encrypt', 'user-secret', 'owner-secret', '256', '--', join(scratch, 'plain.pdf'), join(scratch, 'encrypted.pdf')]);
  const encryptedPdf = readFileSync(join(scratch, 'encrypted.pdf'));
  const docx = await Packer.toBuffer(new DocxDocument({ sections: [{ children: [new Paragraph({ children: [new TextRun('Contract /sn1/')] })] }] }));
  return {
    pdf,
    encryptedPdf,
    truncatedPdf: pdf.subarray(0, Math.floor(pdf.length / 2)),
    headerOnlyPdf: Buffer.from('%PDF-1.7\n%%EOF\n'),
    pdfWithGarbageXref: Buffer.from(pdf.toString('latin1').replace(/xref[\s\S]*$/, 'xref\nGARBAGE\n%%EOF\n'), 'latin1'),
    docx,
    truncatedDocx: docx.subarray(0, Math.floor(docx.length / 2)),
    randomDocx: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)),
    emptyZipDocx: zip({ 'readme.txt': 'not a word document' }),
    // 300 MB of zeros declared honestly (refused before LibreOffice sees it) ...
    declaredBomb: zip({ '[Content_Types].xml': CONTENT_TYPES, 'word/document.xml': Buffer.alloc(300 * 1024 * 1024) }),
    // ... and one whose central directory lies (1 byte): LibreOffice must still be bounded.
    lyingBomb: zip({ '[Content_Types].xml': CONTENT_TYPES, 'word/document.xml': Buffer.alloc(300 * 1024 * 1024) }, true),
    xmlBombDocx: zip({
      '[Content_Types].xml': CONTENT_TYPES,
      'word/document.xml': `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "${'x'.repeat(100)}">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body></w:document>`,
    }),
  };
}

type Case = {
  name: string;
  method?: 'POST' | 'GET' | 'PUT';
  /** Path under /restapi/v2.1/accounts/{accountId}; `{other}` uses another user's account. */
  path?: string;
  account?: 'mine' | 'other' | 'unknown' | 'malformed';
  auth?: 'ok' | 'none' | 'garbage' | 'other-user';
  body?: unknown;
  /** A raw body (sent as is, with contentType). */
  raw?: string | Buffer;
  contentType?: string;
  /** Expected errorCode (when the corpus pins one). */
  errorCode?: string;
  status?: number;
};

function signer(over: Record<string, unknown> = {}) {
  return { email: 'signer@example.com', name: 'Sam Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/' }] }, ...over };
}

function envelope(over: Record<string, unknown> = {}, doc: Record<string, unknown> = {}) {
  return { emailSubject: 'Please sign', status: 'sent', documents: [{ documentId: '1', name: 'Terms.pdf', fileExtension: 'pdf', documentBase64: '%PDF%', ...doc }], recipients: { signers: [signer()] }, ...over };
}

test('esign bad-input corpus: ≥100 hostile requests, each a DocuSign 4xx, no 5xx, nothing half-written', async (t) => {
  const scratch = mkdtempSync(join(tmpdir(), 'signet-corpus-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const f = await fixtures(scratch);
  const h = await startEsignUnderTest(t, { converter });
  const me = await signedInIntegration(h);
  const other = await signedInIntegration(h);
  const pdf64 = b64(f.pdf);
  const withDoc = (doc: Record<string, unknown>, over: Record<string, unknown> = {}) => envelope(over, { documentBase64: pdf64, ...doc });
  const valid = withDoc({});

  // An envelope of the other user, to try reading across accounts.
  const theirs = await request(`${h.origin}/restapi/v2.1/accounts/${other.accountId}/envelopes`, {
    method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...valid, status: 'created' }),
  });
  assert.equal(theirs.statusCode, 201);
  const theirId = ((await theirs.body.json()) as { envelopeId: string }).envelopeId;

  const cases: Case[] = [
    // --- malformed JSON and wrong bodies (Fastify's parser → INVALID_REQUEST_BODY)
    ...['{', '{"emailSubject":}', 'nul', '{"a":1,}', "{'a':1}", '{"a":"\\x"}', '\u0000', '{"documents":[', `${'['.repeat(5000)}${']'.repeat(5000)}`, '{"a":1}{"b":2}'].map((raw, i): Case => ({ name: `malformed JSON #${i}`, raw, errorCode: 'INVALID_REQUEST_BODY' })),
    { name: 'empty body with JSON content type', raw: '', errorCode: 'INVALID_REQUEST_BODY' },
    // {"status":"<ff fe>"}: decoded with replacement characters, then an unknown status.
    { name: 'invalid UTF-8 bytes', raw: Buffer.concat([Buffer.from('{"status":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]), errorCode: 'ENVELOPE_INVALID_STATUS' },
    { name: 'body is an array', body: [valid], errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'body is a string', body: 'envelope', errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'body is a number', body: 42, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'body is null', raw: 'null', errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'text/plain body', raw: JSON.stringify(valid), contentType: 'text/plain' },
    { name: 'xml body', raw: '<envelopeDefinition/>', contentType: 'application/xml' },
    { name: 'form body', raw: 'emailSubject=x&status=sent', contentType: 'application/x-www-form-urlencoded' },
    { name: '__proto__ pollution attempt', raw: '{"__proto__":{"status":"sent","isAdmin":true},"documents":null}' },
    { name: 'constructor.prototype pollution attempt', raw: '{"constructor":{"prototype":{"status":"sent"}}}' },
    // --- wrong types
    { name: 'status a number', body: { ...valid, status: 5 } },
    { name: 'status completed on create', body: { ...valid, status: 'completed' }, errorCode: 'ENVELOPE_INVALID_STATUS' },
    { name: 'status an object', body: { ...valid, status: { a: 1 } }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'documents a string', body: { ...valid, documents: 'doc' }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'documents an object', body: { ...valid, documents: { documentId: '1' } }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'recipients an array', body: { ...valid, recipients: [signer()] }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'signers a string', body: { ...valid, recipients: { signers: 'sam' } }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'signers an object', body: { ...valid, recipients: { signers: signer() } }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'recipientId an object', body: withDoc({}, { recipients: { signers: [signer({ recipientId: { id: 1 } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'email an array', body: withDoc({}, { recipients: { signers: [signer({ email: ['a@example.com'] })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'routingOrder not a number', body: withDoc({}, { recipients: { signers: [signer({ routingOrder: 'first' })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'routingOrder 0', body: withDoc({}, { recipients: { signers: [signer({ routingOrder: 0 })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'routingOrder 1000', body: withDoc({}, { recipients: { signers: [signer({ routingOrder: 1000 })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'routingOrder 1.5', body: withDoc({}, { recipients: { signers: [signer({ routingOrder: 1.5 })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'routingOrder hex', body: withDoc({}, { recipients: { signers: [signer({ routingOrder: '0x1' })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'tabs an array', body: withDoc({}, { recipients: { signers: [signer({ tabs: [] })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'signHereTabs an object', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: { anchorString: 'x' } } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'unsupported drawTabs', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/' }], drawTabs: [{ anchorString: 'x' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'not a Tabs list', body: withDoc({}, { recipients: { signers: [signer({ tabs: { tickBoxTabs: [{ anchorString: '/sn1/' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'radio group without radios', body: withDoc({}, { recipients: { signers: [signer({ tabs: { radioGroupTabs: [{ groupName: 'g', radios: [] }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'list value not among its items', body: withDoc({}, { recipients: { signers: [signer({ tabs: { listTabs: [{ anchorString: '/sn1/', listItems: [{ text: 'a' }], value: 'b' }] } })] } }), errorCode: 'INVALID_TAB_VALUE' },
    { name: 'formula cycle', body: withDoc({}, { recipients: { signers: [signer({ tabs: { formulaTabs: [{ anchorString: '/sn1/', tabLabel: 'A', formula: '[B]' }, { anchorString: '/sn1/', tabLabel: 'B', formula: '[A]' }] } })] } }), errorCode: 'INVALID_FORMULA' },
    { name: 'catastrophic validationPattern', body: withDoc({}, { recipients: { signers: [signer({ tabs: { textTabs: [{ anchorString: '/sn1/', validationPattern: '(a|aa)*$' }] } })] } }), errorCode: 'INVALID_VALIDATION_PATTERN' },
    { name: 'tab value over maxLength', body: withDoc({}, { recipients: { signers: [signer({ tabs: { textTabs: [{ anchorString: '/sn1/', maxLength: '2', value: 'abc' }] } })] } }), errorCode: 'INVALID_TAB_VALUE' },
    { name: 'tab without anchor or position', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ tabLabel: 'x' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'tab xPosition negative', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '-5', yPosition: '10' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'tab xPosition NaN', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: 'NaN', yPosition: '10' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'tab pageNumber 0', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '0', xPosition: '5', yPosition: '10' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'tab pageNumber beyond the document', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '7', xPosition: '5', yPosition: '10' }] } })] } }), errorCode: 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT' },
    // Off the page: refused at create as DocuSign does (TAB_OUT_OF_BOUNDS), not at completion by the stamp.
    { name: 'tab far off the page', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '99999', yPosition: '99999' }] } })] } }), errorCode: 'TAB_OUT_OF_BOUNDS' },
    { name: 'tab xPosition = the page width', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '612', yPosition: '10' }] } })] } }), errorCode: 'TAB_OUT_OF_BOUNDS' },
    { name: 'tab yPosition below the page', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '800' }] } })] } }), errorCode: 'TAB_OUT_OF_BOUNDS' },
    { name: 'anchor tab pushed off the right edge by its x offset', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorXOffset: '600' }] } })] } }), errorCode: 'TAB_OUT_OF_BOUNDS' },
    { name: 'anchor tab pushed above the page by a negative y offset', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorYOffset: '-200' }] } })] } }), errorCode: 'TAB_OUT_OF_BOUNDS' },
    { name: 'anchor tab pushed off by an offset in inches', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'inches', anchorXOffset: '8' }] } })] } }), errorCode: 'TAB_OUT_OF_BOUNDS' },
    { name: 'tab documentId not in envelope', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ documentId: '9', pageNumber: '1', xPosition: '5', yPosition: '10' }] } })] } }), errorCode: 'TAB_REFERS_TO_MISSING_DOCUMENT' },
    { name: 'scaleValue 50', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/', scaleValue: 50 }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'anchorUnits furlongs', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'furlongs' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'anchorIgnoreIfNotPresent maybe', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorIgnoreIfNotPresent: 'maybe' }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'anchor string not in the document', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: '/nowhere/' }] } })] } }), errorCode: 'ANCHOR_TAB_STRING_NOT_FOUND' },
    { name: 'anchor string of 501 characters', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [{ anchorString: 'a'.repeat(501) }] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'documentId 0', body: withDoc({ documentId: '0' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'documentId text', body: withDoc({ documentId: 'one' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'documentId overflow', body: withDoc({ documentId: '99999999999' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'duplicate documentId', body: { ...valid, documents: [valid.documents[0], valid.documents[0]] }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'duplicate recipientId', body: withDoc({}, { recipients: { signers: [signer(), signer({ email: 'b@example.com' })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'document name missing', body: withDoc({ name: undefined }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'document name of 300 characters', body: withDoc({ name: 'n'.repeat(300) }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'fileExtension exe', body: withDoc({ fileExtension: 'exe' }), errorCode: 'FORMAT_CONVERSION_ERROR' },
    { name: 'fileExtension path traversal', body: withDoc({ fileExtension: '../../etc/passwd' }) },
    { name: 'remoteUrl (SSRF) instead of bytes', body: withDoc({ documentBase64: undefined, remoteUrl: 'http://169.254.169.254/latest/meta-data/' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'templateId', body: { ...valid, templateId: '00000000-0000-0000-0000-000000000000' }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'a witness without witnessFor', body: { ...valid, recipients: { signers: [signer()], witnesses: [signer({ recipientId: '2' })] } }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'emailSubject of 101 characters', body: { ...valid, emailSubject: 's'.repeat(101) }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'emailSubject an array', body: { ...valid, emailSubject: ['a'] }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'emailBlurb of 10,001 characters', body: { ...valid, emailBlurb: 'b'.repeat(10_001) }, errorCode: 'INVALID_REQUEST_BODY' },
    // --- null arrays and null members
    { name: 'documents null, sent', body: { ...valid, documents: null }, errorCode: 'ENVELOPE_IS_INCOMPLETE' },
    { name: 'recipients null, sent', body: { ...valid, recipients: null }, errorCode: 'ENVELOPE_IS_INCOMPLETE' },
    { name: 'signers null, sent', body: { ...valid, recipients: { signers: null } }, errorCode: 'ENVELOPE_IS_INCOMPLETE' },
    { name: 'documents [null]', body: { ...valid, documents: [null] }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'signers [null]', body: { ...valid, recipients: { signers: [null] } }, errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'signHereTabs [null]', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: [null] } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'documents [] sent', body: { ...valid, documents: [] }, errorCode: 'ENVELOPE_IS_INCOMPLETE' },
    { name: 'empty object, sent', body: { status: 'sent' }, errorCode: 'ENVELOPE_IS_INCOMPLETE' },
    // --- base64
    { name: 'base64 truncated (length not a multiple of 4)', body: withDoc({ documentBase64: pdf64.slice(0, -1) }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'base64 truncated at a quantum (PDF cut short)', body: withDoc({ documentBase64: pdf64.slice(0, Math.floor(pdf64.length / 8) * 4) }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'base64 with illegal characters', body: withDoc({ documentBase64: '****' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'base64url alphabet', body: withDoc({ documentBase64: '-_-_' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'base64 empty', body: withDoc({ documentBase64: '' }), errorCode: 'INVALID_REQUEST_BODY' },
    // The lenient wire reader takes numbers as text (docs/esign-envelopes.md, "Routes"): decoded, then not a PDF.
    { name: 'base64 a number', body: withDoc({ documentBase64: 12345678 }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'base64 padding in the middle', body: withDoc({ documentBase64: 'QQ==QQ==' }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'base64 of random bytes as pdf', body: withDoc({ documentBase64: b64(f.randomDocx) }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'huge base64 (40 MB body, over the limit)', raw: `{"documents":[{"documentBase64":"${'A'.repeat(40 * 1024 * 1024)}"}]}`, errorCode: 'INVALID_REQUEST_BODY' },
    // --- PDFs
    { name: 'encrypted PDF (AES-256, user password)', body: withDoc({ documentBase64: b64(f.encryptedPdf) }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'truncated PDF', body: withDoc({ documentBase64: b64(f.truncatedPdf) }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'PDF header only', body: withDoc({ documentBase64: b64(f.headerOnlyPdf) }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'PDF with a garbage xref', body: withDoc({ documentBase64: b64(f.pdfWithGarbageXref) }) },
    { name: 'docx bytes declared as pdf', body: withDoc({ documentBase64: b64(f.docx) }), errorCode: 'PDF_VALIDATION_FAILED' },
    { name: 'pdf bytes declared as docx', body: withDoc({ documentBase64: pdf64, fileExtension: 'docx', name: 'x.docx' }) },
    // --- office documents
    { name: 'corrupt docx (random bytes)', body: withDoc({ documentBase64: b64(f.randomDocx), fileExtension: 'docx', name: 'c.docx' }), errorCode: 'FORMAT_CONVERSION_ERROR' },
    { name: 'truncated docx', body: withDoc({ documentBase64: b64(f.truncatedDocx), fileExtension: 'docx', name: 't.docx' }) },
    { name: 'zip without a Word document', body: withDoc({ documentBase64: b64(f.emptyZipDocx), fileExtension: 'docx', name: 'z.docx' }) },
    { name: 'zip bomb docx (300 MB declared)', body: withDoc({ documentBase64: b64(f.declaredBomb), fileExtension: 'docx', name: 'bomb.docx' }) },
    { name: 'zip bomb docx lying about its size', body: withDoc({ documentBase64: b64(f.lyingBomb), fileExtension: 'docx', name: 'liar.docx' }) },
    { name: 'XML entity bomb in a docx (billion laughs)', body: withDoc({ documentBase64: b64(f.xmlBombDocx), fileExtension: 'docx', name: 'laughs.docx' }) },
    // --- e-mail addresses
    ...['no-at-sign', 'a@', '@example.com', 'a b@example.com', 'a@b@example.com', '<script>@example.com', 'a@example..com', `${'l'.repeat(250)}@example.com`, 'a@-example.com', 'a@example.com\r\nBcc: victim@example.com', ' ', 'a@exa mple.com'].map(
      (email, i): Case => ({ name: `invalid e-mail #${i}: ${JSON.stringify(email.slice(0, 30))}`, body: withDoc({}, { recipients: { signers: [signer({ email })] } }) }),
    ),
    { name: 'carbon copy without e-mail', body: withDoc({}, { recipients: { signers: [signer()], carbonCopies: [{ name: 'C', recipientId: '2' }] } }), errorCode: 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT' },
    { name: 'recipient without a name', body: withDoc({}, { recipients: { signers: [signer({ name: undefined })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    // --- recipient counts
    { name: '0 recipients, sent', body: withDoc({}, { recipients: { signers: [] } }), errorCode: 'ENVELOPE_IS_INCOMPLETE' },
    { name: '1000 recipients', body: withDoc({}, { recipients: { signers: Array.from({ length: 1000 }, (_, i) => signer({ recipientId: String(i + 1), email: `s${i}@example.com` })) } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: '201 tabs for one signer', body: withDoc({}, { recipients: { signers: [signer({ tabs: { signHereTabs: Array.from({ length: 201 }, () => ({ anchorString: '/sn1/' })) } })] } }), errorCode: 'INVALID_REQUEST_BODY' },
    { name: '51 documents', body: { ...valid, documents: Array.from({ length: 51 }, (_, i) => ({ ...valid.documents[0], documentId: String(i + 1) })) }, errorCode: 'INVALID_REQUEST_BODY' },
    // --- accounts and authentication
    { name: 'unknown account', account: 'unknown', body: valid, errorCode: 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT' },
    { name: "someone else's account (create)", account: 'other', body: valid, errorCode: 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT' },
    { name: "someone else's account (list)", account: 'other', method: 'GET', path: '/envelopes?from_date=2000-01-01', errorCode: 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT' },
    { name: "someone else's envelope through my account", method: 'GET', path: `/envelopes/${theirId}`, errorCode: 'ENVELOPE_DOES_NOT_EXIST' },
    { name: "someone else's envelope recipients", method: 'GET', path: `/envelopes/${theirId}/recipients`, errorCode: 'ENVELOPE_DOES_NOT_EXIST' },
    { name: "someone else's envelope document", method: 'GET', path: `/envelopes/${theirId}/documents/1`, errorCode: 'ENVELOPE_DOES_NOT_EXIST' },
    { name: "sending someone else's draft", method: 'PUT', path: `/envelopes/${theirId}`, body: { status: 'sent' }, errorCode: 'ENVELOPE_DOES_NOT_EXIST' },
    { name: "voiding someone else's envelope", method: 'PUT', path: `/envelopes/${theirId}`, body: { status: 'voided', voidedReason: 'mine now' }, errorCode: 'ENVELOPE_DOES_NOT_EXIST' },
    { name: 'account id with SQL', account: 'malformed', body: valid, errorCode: 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT' },
    { name: 'no token', auth: 'none', body: valid, status: 401 },
    { name: 'garbage token', auth: 'garbage', body: valid, status: 401 },
    { name: 'envelope id with path traversal', method: 'GET', path: '/envelopes/..%2F..%2Fconsole', errorCode: 'ENVELOPE_DOES_NOT_EXIST' },
    // Refused by Fastify's router (maxParamLength) before any route: server.ts frameworkErrors.
    { name: 'envelope id of 10 KB', method: 'GET', path: `/envelopes/${'e'.repeat(10_000)}`, errorCode: 'INVALID_REQUEST_PARAMETER' },
    { name: 'a URL that does not decode', method: 'GET', path: '/envelopes/%E0%A4%A', errorCode: 'INVALID_REQUEST_PARAMETER' },
    // --- updates and queries
    { name: 'update body not JSON', method: 'PUT', path: `/envelopes/${theirId}`, raw: '{', errorCode: 'INVALID_REQUEST_BODY' },
    { name: 'void without reason', method: 'PUT', path: `/envelopes/${theirId}`, body: { status: 'voided' } },
    { name: 'list without from_date', method: 'GET', path: '/envelopes' },
    { name: 'list with a bad from_date', method: 'GET', path: '/envelopes?from_date=yesterday' },
    { name: 'list with a negative start_position', method: 'GET', path: '/envelopes?from_date=2000-01-01&start_position=-1' },
    { name: 'list with count 10^9', method: 'GET', path: '/envelopes?from_date=2000-01-01&count=1000000000' },
    { name: 'list with an unknown status', method: 'GET', path: '/envelopes?from_date=2000-01-01&status=exploded' },
    { name: 'document id not in envelope', method: 'GET', path: `/envelopes/${theirId}/documents/99`, account: 'other', auth: 'other-user', errorCode: 'DOCUMENT_DOES_NOT_EXIST' },
  ];
  assert.ok(cases.length >= 100, `the corpus has ${cases.length} cases`);

  const failures: string[] = [];
  let before = await envelopeRowCounts(h);
  // CORPUS_ONLY=<text> runs the cases whose name contains it (for debugging one case).
  for (const c of cases.filter((x) => x.name.includes(process.env.CORPUS_ONLY ?? ''))) {
    const accountId = { mine: me.accountId, other: other.accountId, unknown: '11111111-2222-3333-4444-555555555555', malformed: "1' or '1'='1" }[c.account ?? 'mine'];
    const token = { ok: me.token, none: undefined, garbage: 'not.a.token', 'other-user': other.token }[c.auth ?? 'ok'];
    const body = c.raw ?? (c.body === undefined ? undefined : JSON.stringify(c.body));
    const method = c.method ?? 'POST';
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${encodeURIComponent(accountId)}${c.path ?? '/envelopes'}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': c.contentType ?? 'application/json' } : {}) },
      ...(body !== undefined ? { body } : {}),
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    const text = await res.body.text();
    let wire: { errorCode?: unknown; message?: unknown } = {};
    try {
      wire = JSON.parse(text) as typeof wire;
    } catch {
      // judged below
    }
    const after = await envelopeRowCounts(h);
    const problems: string[] = [];
    if (res.statusCode >= 500) problems.push(`got ${res.statusCode}`);
    if (res.statusCode < 400 && !(method === 'GET' && c.errorCode === undefined)) problems.push(`accepted with ${res.statusCode}`);
    if (res.statusCode >= 400) {
      if (typeof wire.errorCode !== 'string' || typeof wire.message !== 'string' || wire.message === '') problems.push(`not a DocuSign error body: ${text.slice(0, 200)}`);
      if (c.errorCode !== undefined && wire.errorCode !== c.errorCode) problems.push(`errorCode ${String(wire.errorCode)}, expected ${c.errorCode}`);
      if (c.status !== undefined && res.statusCode !== c.status) problems.push(`status ${res.statusCode}, expected ${c.status}`);
      // Nothing leaked: no stack trace, no SQL, no other account's data in an error.
      if (/\bat .*\.ts:\d+|SqliteError|sqlite|select |stack/i.test(text) || text.includes(theirId) || text.includes(other.email)) problems.push(`leaks: ${text.slice(0, 200)}`);
      if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`rows changed ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    }
    if (problems.length > 0) failures.push(`${c.name}: ${problems.join('; ')}`);
    before = after;
  }
  const serverErrors = h.logs.filter((l) => l.includes('"level":50'));
  assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases misbehaved; server errors:\n${serverErrors.join('\n').slice(0, 4000)}`);
  t.diagnostic(`${cases.length} bad-input cases`);
});

test('html documents with scripts, remote resources and file: URLs convert with no network and no local file access', async (t) => {
  let canaryHits = 0;
  const canary = createServer((_req, res) => {
    canaryHits++;
    res.end('canary');
  });
  let canaryConnections = 0;
  canary.on('connection', () => canaryConnections++);
  const canaryPort = await listenOnLoopback(canary);
  t.after(() => {
    canary.closeAllConnections();
    return new Promise<void>((resolve) => canary.close(() => resolve()));
  });
  const setupStarted = performance.now();
  const h = await startEsignUnderTest(t, { converter });
  const me = await signedInIntegration(h);
  t.diagnostic(`html test setup ${(performance.now() - setupStarted).toFixed(0)} ms`);
  const remote = `http://127.0.0.1:${canaryPort}`;
  const pages = [
    `<p>Sign /sn1/</p><img src="${remote}/img.png"><link rel="stylesheet" href="${remote}/x.css"><script src="${remote}/x.js"></script>`,
    `<p>Sign /sn1/</p><script>fetch('${remote}/fetch');new Image().src='${remote}/beacon';document.body.append(document.cookie)</script>`,
    `<p>Sign /sn1/</p><iframe src="file:///etc/passwd" width=600 height=400></iframe><object data="file:///etc/hostname"></object>`,
    `<p>Sign /sn1/</p><script>var x=new XMLHttpRequest();x.open('GET','file:///etc/passwd',false);try{x.send();document.body.append(x.responseText)}catch(e){}</script>`,
    `<p>Sign /sn1/</p><style>@import url("${remote}/import.css"); body{background:url(${remote}/bg.png)}</style><video src="${remote}/v.mp4"></video>`,
    `<p>Sign /sn1/</p><meta http-equiv="refresh" content="0;url=${remote}/refresh"><form action="${remote}/post" method=post><input name=a></form><script>document.forms[0].submit()</script>`,
    `<p>Sign /sn1/</p><script>while(true){}</script>`,
  ];
  for (const [i, html] of pages.entries()) {
    const started = performance.now();
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${me.accountId}/envelopes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(envelope({ status: 'created' }, { documentBase64: b64(html), fileExtension: 'html', name: `page${i}.html` })),
      headersTimeout: 120_000,
    });
    const text = await res.body.text();
    t.diagnostic(`html page ${i}: ${res.statusCode} in ${(performance.now() - started).toFixed(0)} ms; canary connections so far ${canaryConnections}`);
    assert.ok(res.statusCode < 500, `page ${i}: ${res.statusCode} ${text}`);
    if (res.statusCode !== 201) {
      // Refusing (e.g. a script that never ends) is fine if it is a DocuSign error.
      assert.match(text, /"errorCode":"[A-Z_]+"/, `page ${i}`);
      continue;
    }
    const { envelopeId } = JSON.parse(text) as { envelopeId: string };
    const pdf = await request(`${h.origin}/restapi/v2.1/accounts/${me.accountId}/envelopes/${envelopeId}/documents/1`, { headers: { authorization: `Bearer ${me.token}` } });
    const bytes = Buffer.from(await pdf.body.arrayBuffer());
    assert.equal(pdf.statusCode, 200);
    const [extracted] = await converter.extractText([new Uint8Array(bytes)]);
    const words = JSON.stringify(extracted);
    assert.ok(!/root:x:0:0|canary/.test(words), `page ${i} shows local or remote content`);
  }
  t.diagnostic(`canary: ${canaryHits} requests, ${canaryConnections} TCP connections`);
  assert.equal(canaryHits, 0, 'the converter fetched a remote resource');
  // Found here: Chromium's network predictor opened a TCP connection to a meta-refresh host
  // (no HTTP request on it); the html converter now runs behind a refusing proxy.
  assert.equal(canaryConnections, 0, 'the converter connected to a host named in the document');
});
