import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { multipartEnvelope } from './multipart-envelope.ts';
import { dispositionParams } from '@signet/kit';

const B = 'multipartboundary_multipartboundary';
const TYPE = `multipart/form-data; boundary=${B}`;

/** A body as DocuSign's sendBinaryDocs example lays it out: JSON part, then one part per document. */
function body(json: unknown, files: { id: string; name: string; bytes: Buffer; type?: string }[], close = true): Buffer {
  const chunks: Buffer[] = [Buffer.from(`--${B}\r\nContent-Type: application/json\r\nContent-Disposition: form-data\r\n\r\n${JSON.stringify(json, null, '    ')}`)];
  for (const f of files) chunks.push(Buffer.from(`\r\n--${B}\r\nContent-Type: ${f.type ?? 'application/pdf'}\r\nContent-Disposition: file; filename="${f.name}";documentid=${f.id}\r\n\r\n`), f.bytes);
  if (close) chunks.push(Buffer.from(`\r\n--${B}--\r\n`));
  return Buffer.concat(chunks);
}

const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_BODY' && pattern.test(err.message));

test('the example’s layout: each documentid part becomes its document’s bytes, binary-safe (CRLF and boundary-like bytes inside)', () => {
  const tricky = Buffer.concat([Buffer.from('%PDF-1.7\r\n\r\n--multipartboundary'), Buffer.from([0, 255, 13, 10, 45, 45]), Buffer.from('\r\n')]);
  const merged = multipartEnvelope(body({ emailSubject: 'S', documents: [{ name: 'A', documentId: '1', fileExtension: 'pdf' }, { name: 'B', documentId: 2, fileExtension: 'html' }] }, [{ id: '1', name: 'A', bytes: tricky }, { id: '2', name: 'B', bytes: Buffer.from('<p>x</p>'), type: 'text/html' }]), TYPE) as { emailSubject: string; documents: { documentBase64: string }[] };
  assert.equal(merged.emailSubject, 'S');
  assert.deepEqual(Buffer.from(merged.documents[0]?.documentBase64 ?? '', 'base64'), tricky);
  assert.equal(Buffer.from(merged.documents[1]?.documentBase64 ?? '', 'base64').toString(), '<p>x</p>');
  // Field names in any case, as DocuSign reads them; a quoted boundary.
  const upper = multipartEnvelope(body({ Documents: [{ DocumentId: '1', Name: 'A' }] }, [{ id: '1', name: 'A', bytes: Buffer.from('x') }]), `multipart/form-data; boundary="${B}"`) as { Documents: { documentBase64: string }[] };
  assert.equal(upper.Documents[0]?.documentBase64, 'eA==');
});

test('what a multipart create cannot be is refused, named: no boundary, truncated, no or two JSON parts, an orphan or doubled file, two sources', () => {
  const json = { documents: [{ name: 'A', documentId: '1' }] };
  const file = { id: '1', name: 'A', bytes: Buffer.from('x') };
  refused(() => multipartEnvelope(body(json, [file]), 'multipart/form-data'), /no boundary/);
  refused(() => multipartEnvelope(body(json, [file], false), TYPE), /closing boundary is missing/);
  refused(() => multipartEnvelope(Buffer.from(`--${B}\r\nContent-Type: application/pdf\r\nContent-Disposition: file; documentid=1\r\n\r\nx\r\n--${B}--\r\n`), TYPE), /exactly one application\/json part/);
  refused(() => multipartEnvelope(Buffer.concat([body(json, [], false), Buffer.from(`\r\n--${B}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${B}--\r\n`)]), TYPE), /it has 2/);
  refused(() => multipartEnvelope(body(json, [file, { ...file, id: '9' }]), TYPE), /documentid 9 matches no document/);
  refused(() => multipartEnvelope(body(json, [file, file]), TYPE), /two parts carry documentid 1/);
  refused(() => multipartEnvelope(body({ documents: [{ name: 'A', documentId: '1', documentBase64: 'eA==' }] }, [file]), TYPE), /both documentBase64 and a file part/);
  refused(() => multipartEnvelope(body(json, [{ ...file, id: '' }]), TYPE), /no documentid/);
  refused(() => multipartEnvelope(Buffer.from(`--${B}\r\nContent-Type: application/json\r\n\r\n{not json\r\n--${B}--\r\n`), TYPE), /not valid JSON/);
  refused(() => multipartEnvelope(body(json, Array.from({ length: 51 }, (_, i) => ({ ...file, id: String(i + 1) }))), TYPE), /at most 51 parts/);
});

test('Content-Disposition parameters, quoted or not, the example’s missing space included', () => {
  assert.deepEqual([...dispositionParams('file; filename="Order; ack.html";documentid=1')], [['filename', 'Order; ack.html'], ['documentid', '1']]);
  assert.deepEqual([...dispositionParams('form-data')], []);
});
