import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError, assertCatalog } from './app-error.ts';

const CATALOG = { NOT_FOUND: { status: 404, message: 'Not found.' }, BOOM: { status: 500, message: 'Unexpected.' } } as const;

class SampleError extends AppError<keyof typeof CATALOG> {
  readonly status: number;
  constructor(code: keyof typeof CATALOG) {
    super(code, CATALOG[code].message);
    this.status = CATALOG[code].status;
  }
  toBody() {
    return { code: this.code, message: this.message };
  }
}

test('AppError carries code, status, name and exposes only 4xx', () => {
  const e = new SampleError('NOT_FOUND');
  assert.equal(e.name, 'SampleError');
  assert.equal(e.code, 'NOT_FOUND');
  assert.equal(e.status, 404);
  assert.equal(e.expose, true);
  assert.deepEqual(e.toBody(), { code: 'NOT_FOUND', message: 'Not found.' });
  assert.equal(new SampleError('BOOM').expose, false);
});

test('assertCatalog rejects bad statuses, codes and empty messages', () => {
  assertCatalog(CATALOG);
  assert.throws(() => assertCatalog({ OK: { status: 200, message: 'x' } }), /not 400-599/);
  assert.throws(() => assertCatalog({ notSnake: { status: 400, message: 'x' } }), /SCREAMING_SNAKE/);
  assert.throws(() => assertCatalog({ EMPTY: { status: 400, message: ' ' } }), /no message/);
});
