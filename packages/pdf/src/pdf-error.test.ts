import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertCatalog } from '@signet/kit';
import { PDF_ERRORS, PdfError } from './pdf-error.ts';

test('the pdf catalog is well formed', () => {
  assertCatalog(PDF_ERRORS);
});

test('PdfError carries its row and appends detail', () => {
  const e = new PdfError('ENCRYPTED_DOCUMENT', 'document 2');
  assert.equal(e.status, 400);
  assert.equal(e.code, 'ENCRYPTED_DOCUMENT');
  assert.equal(e.message, 'The document is encrypted or password-protected. document 2');
  assert.deepEqual(e.toBody(), { errorCode: 'ENCRYPTED_DOCUMENT', message: e.message });
  assert.equal(new PdfError('CONVERSION_FAILED').expose, false);
});

test('every code is documented in docs/pdf.md with its status', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../../docs/pdf.md', import.meta.url), 'utf8');
  for (const [code, row] of Object.entries(PDF_ERRORS)) {
    assert.match(doc, new RegExp(`\\| \`${code}\` \\| ${row.status} \\|`), code);
  }
});
