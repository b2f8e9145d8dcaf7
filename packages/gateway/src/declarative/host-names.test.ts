import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTarget, parseTarget } from './entities/target.ts';
import { compileRouteRegex } from './pcre-regex.ts';
import { normalizePath } from './normalize-path.ts';

// kong/db/dao/targets.lua format_target: the admin view of a target string.
const TARGETS: [written: string, shown: string][] = [
  ['10.20.30.40', '10.20.30.40:8000'],
  ['10.20.30.40:80', '10.20.30.40:80'],
  ['001.002.003.004:123', '1.2.3.4:123'],
  ['::1', '[0000:0000:0000:0000:0000:0000:0000:0001]:8000'],
  ['[::1]:80', '[0000:0000:0000:0000:0000:0000:0000:0001]:80'],
  ['[2001:DB8::1]', '[2001:0db8:0000:0000:0000:0000:0000:0001]:8000'],
  ['Example.COM', 'Example.COM:8000'],
  ['my-host.test:3001', 'my-host.test:3001'],
];

for (const [written, shown] of TARGETS) {
  test(`target ${written} is shown as ${shown}`, () => {
    assert.equal(formatTarget(written), shown);
  });
}

test('parseTarget splits kind, host and port', () => {
  assert.deepEqual(parseTarget('127.0.0.1:3001'), { type: 'ipv4', host: '127.0.0.1', port: 3001 });
  assert.deepEqual(parseTarget('esign.local'), { type: 'name', host: 'esign.local', port: 8000 });
  assert.throws(() => parseTarget('hostname:1.0'), TypeError);
});

test('route regexes: PCRE named groups translated, anchored at the start', () => {
  const re = compileRouteRegex('/(?P<namespace>[^/]+)/(?<id>[0-9]+)/?');
  assert.deepEqual({ ...re.exec('/foo/123')?.groups }, { namespace: 'foo', id: '123' });
  assert.equal(re.test('/prefix/foo/bar'), false);
  assert.equal(compileRouteRegex('(?i)/ABC').test('/abc'), true);
});

test('path normalisation: dot segments, merged slashes, unreserved percent-decoding', () => {
  const cases: [string, string][] = [
    ['/a/./b/../c', '/a/c'],
    ['/a//b', '/a/b'],
    ['/%61%2Fb', '/a%2Fb'],
    ['/root/../%2e/root///././%2F.subdir/../.subdir/./%28%29', '/root/.subdir/%28%29'],
  ];
  for (const [input, expected] of cases) assert.equal(normalizePath(input), expected, input);
});
