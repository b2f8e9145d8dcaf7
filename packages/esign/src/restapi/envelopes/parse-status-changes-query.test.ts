import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsignError } from '../../errors.ts';
import { parseStatusChangesQuery } from './parse-status-changes-query.ts';

test('order=desc reaches the store; asc is the default; anything else is INVALID_REQUEST_PARAMETER', () => {
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', order: 'desc' }).order, 'desc');
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', order: 'DESC' }).order, 'desc');
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', order: 'asc' }).order, undefined);
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01' }).order, undefined);
  assert.throws(() => parseStatusChangesQuery({ from_date: '2020-01-01', order: 'newest' }), (err: unknown) => {
    assert.ok(err instanceof EsignError);
    assert.equal(err.code, 'INVALID_REQUEST_PARAMETER');
    assert.match(err.message, /'order' must be asc or desc/);
    return true;
  });
});
