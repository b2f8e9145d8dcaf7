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

const refused = (query: Record<string, string>, message: RegExp) =>
  assert.throws(() => parseStatusChangesQuery({ from_date: '2020-01-01', ...query }), (err: unknown) => {
    assert.ok(err instanceof EsignError);
    assert.equal(err.code, 'INVALID_REQUEST_PARAMETER');
    assert.match(err.message, message);
    return true;
  });

test("order_by: DocuSign's documented names map to our sort keys, case-insensitively", () => {
  const key = (orderBy: string) => parseStatusChangesQuery({ from_date: '2020-01-01', order_by: orderBy }).orderBy;
  assert.deepEqual(
    ['created', 'sent', 'completed', 'expire', 'subject', 'envelope_name', 'status', 'user_name', 'SENT'].map(key),
    ['created', 'sent', 'completed', 'expire', 'subject', 'subject', 'status', 'user_name', 'sent'],
  );
  // The default key is the status change time, which is also what lastModifiedDateTime says.
  assert.deepEqual(['status_changed', 'last_modified', ''].map(key), [undefined, undefined, undefined]);
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', order_by: 'created', order: 'desc' }).order, 'desc');
});

test('order_by: an unknown value and the documented ones we cannot honour are INVALID_REQUEST_PARAMETER', () => {
  refused({ order_by: 'newest' }, /^The request contained at least one invalid parameter\. Query parameter 'order_by' must be one of status_changed, last_modified, created, sent, completed, expire, subject, envelope_name, status, user_name, got "newest"\.$/);
  refused({ order_by: 'constructor' }, /'order_by' must be one of/);
  refused({ order_by: 'action_required' }, /'order_by' value "action_required" is not supported by this server; use one of status_changed, /);
  refused({ order_by: 'signer_list' }, /'order_by' value "signer_list" is not supported/);
});

test('search_text is passed on trimmed; blank means no search', () => {
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', search_text: '  Ada Lovelace ' }).searchText, 'Ada Lovelace');
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', search_text: 'a%b_' }).searchText, 'a%b_');
  assert.equal('searchText' in parseStatusChangesQuery({ from_date: '2020-01-01', search_text: '   ' }), false);
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', search_text: ['first', 'second'] }).searchText, 'first');
});

test('user_id keeps the envelopes that user sent', () => {
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01', user_id: ' u-1 ' }).senderUserId, 'u-1');
  assert.equal(parseStatusChangesQuery({ from_date: '2020-01-01' }).senderUserId, undefined);
  assert.throws(() => parseStatusChangesQuery({ from_date: '2020-01-01', user_id: 'x'.repeat(101) }), /user_id/);
});
