import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalUrl } from './canonical-url.ts';

test('escapes of unreserved characters in the path are decoded; the rest, and the query, stay as sent', () => {
  assert.equal(canonicalUrl('/%72estapi/v2%2E1/accounts/x/%75%73%65%72%73'), '/restapi/v2.1/accounts/x/users');
  assert.equal(canonicalUrl('/a%2d%5F%7e%30%39%41%5a%61%7A'), '/a-_~09AZaz');
  assert.equal(canonicalUrl('/a%2Fb%20c%25d%3F%23'), '/a%2Fb%20c%25d%3F%23', 'reserved and other characters keep their escapes');
  assert.equal(canonicalUrl('/%72?q=%72&x=%2F'), '/r?q=%72&x=%2F', 'the query is not the path');
  assert.equal(canonicalUrl('/plain?x'), '/plain?x');
  assert.equal(canonicalUrl('/%7'), '/%7', 'a broken escape is left to the router');
  assert.equal(canonicalUrl('/%40%5B%60%7B'), '/%40%5B%60%7B', 'neighbours of the letter ranges are not unreserved');
});
