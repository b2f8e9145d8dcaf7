import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutUnderscoreNames } from './underscore-headers.ts';

test('withoutUnderscoreNames: pairs whose name holds `_` are left out, in order; none: the same array', () => {
  const raw = ['Host', 'a.test', 'X_Consumer_Username', 'admin', 'X-Consumer-Username', 'bob', 'api_key', 'k', 'Accept', '*/*'];
  assert.deepEqual(withoutUnderscoreNames(raw), ['Host', 'a.test', 'X-Consumer-Username', 'bob', 'Accept', '*/*']);
  const clean = ['Host', 'a.test', 'X-Under-Score', 'value_with_underscores'];
  assert.equal(withoutUnderscoreNames(clean), clean, 'values may hold `_`; nothing copied when nothing goes');
  assert.deepEqual(withoutUnderscoreNames(['_', 'x']), []);
});
