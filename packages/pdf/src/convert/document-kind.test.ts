import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentKind, normalizeExtension } from './document-kind.ts';
import { PdfError } from '../pdf-error.ts';

test('extensions map to their engine whatever their case or dot', () => {
  assert.equal(documentKind('html'), 'html');
  assert.equal(documentKind('.HTM'), 'html');
  assert.equal(documentKind(' Docx '), 'office');
  for (const ext of ['doc', 'odt', 'rtf', 'txt']) assert.equal(documentKind(ext), 'office');
  assert.equal(documentKind('PDF'), 'pdf');
  assert.equal(normalizeExtension('.RtF'), 'rtf');
});

test('unknown extensions are UNSUPPORTED_FORMAT, including prototype keys', () => {
  for (const ext of ['exe', '', 'toString', '__proto__', 'xlsx']) {
    assert.throws(() => documentKind(ext), (e: unknown) => e instanceof PdfError && e.code === 'UNSUPPORTED_FORMAT');
  }
});
