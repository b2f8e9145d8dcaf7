import assert from 'node:assert/strict';
import { test } from 'node:test';
import { composeUpstreamPath } from './compose-upstream-path.ts';

// The v0 rows of Kong's spec/fixtures/router_path_handling_tests.lua, plus a few
// neighbours of each branch. [service path, matched route prefix, strip_path, request, upstream]
const rows: [string | null, string, boolean, string, string][] = [
  ['/', '/route', true, '/route', '/'],
  ['/', '/route', true, '/routereq', '/req'],
  ['/', '/route', false, '/route/', '/route/'],
  ['/srv', '/rou', true, '/roureq', '/srv/req'],
  ['/srv', '/rou', false, '/roureq', '/srv/roureq'],
  ['/srv/', '/rou', true, '/rou', '/srv'],
  ['/service', '/route', true, '/route/', '/service/'],
  ['/service', '/', true, '/route', '/service/route'],
  ['/service', '/', false, '/route', '/service/route'],
  ['/service/', '/route', true, '/route', '/service'],
  ['/service/', '/route/', true, '/route/req', '/service/req'],
  [null, '/route', true, '/route/x', '/x'],
  [null, '/', false, '/a/b', '/a/b'],
  ['/srv', '/rou', true, '/rou', '/srv'],
  ['/srv', '/', false, '/', '/srv'],
  ['/srv/', '/rou', true, '/rou/x', '/srv/x'],
  ['/srv/', '/rou', true, '/roux', '/srv/x'],
  ['/srv/', '/rou', false, '/rou', '/srv/rou'],
  // sanitize_uri_postfix: a leading dot segment after the prefix is dropped.
  ['/srv', '/foo', true, '/foo..', '/srv'],
  ['/srv', '/foo', true, '/foo.', '/srv'],
  ['/srv', '/foo', true, '/foo../x', '/srv/x'],
  ['/srv', '/foo', true, '/foo./x', '/srv/x'],
  ['/srv/', '/foo', true, '/foo../x', '/srv/x'],
  ['/srv', '/foo', true, '/foo...', '/srv/...'],
];

for (const [servicePath, matched, strip, request, expected] of rows) {
  test(`v0: service ${servicePath} route ${matched} strip=${strip} ${request} → ${expected}`, () => {
    assert.equal(composeUpstreamPath(servicePath, request, matched, strip), expected);
  });
}
