import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Route } from '../declarative/types.ts';
import { route } from '../../test/snapshot.fixture.ts';
import { Router, type RouterRequest } from './router.ts';

const req = (over: Partial<RouterRequest>): RouterRequest => ({
  method: 'GET', host: 'example.com', path: '/', headers: {}, scheme: 'http', port: 8000, ...over,
});

function build(routes: Route[], servicePath: string | null = null): Router<string> {
  return new Router(routes.map((r) => ({ route: r, servicePath, value: r.name ?? r.id })));
}

// Each case: the routes, the request, the route name expected (undefined = 404).
const cases: { name: string; routes: Partial<Route>[]; request: Partial<RouterRequest>; expected: string | undefined }[] = [
  { name: 'prefix path', routes: [{ name: 'a', paths: ['/api'] }], request: { path: '/api/x' }, expected: 'a' },
  { name: 'prefix path miss', routes: [{ name: 'a', paths: ['/api'] }], request: { path: '/ap' }, expected: undefined },
  { name: 'longest prefix wins', routes: [{ name: 'short', paths: ['/a'] }, { name: 'long', paths: ['/a/b'] }], request: { path: '/a/b/c' }, expected: 'long' },
  { name: 'regex beats prefix', routes: [{ name: 'prefix', paths: ['/users/list'] }, { name: 're', paths: ['~/users/\\w+'] }], request: { path: '/users/list' }, expected: 're' },
  { name: 'regex is anchored', routes: [{ name: 're', paths: ['~/v\\d+/x'] }], request: { path: '/api/v1/x' }, expected: undefined },
  { name: 'regex_priority orders regexes', routes: [{ name: 'low', paths: ['~/x/.*'], regex_priority: 1 }, { name: 'high', paths: ['~/x/\\d+'], regex_priority: 5 }], request: { path: '/x/12' }, expected: 'high' },
  { name: 'more criteria win over a longer path', routes: [{ name: 'path', paths: ['/abc/def'] }, { name: 'path+method', paths: ['/abc'], methods: ['GET'] }], request: { path: '/abc/def' }, expected: 'path+method' },
  { name: 'method mismatch', routes: [{ name: 'post', methods: ['POST'] }], request: { method: 'GET' }, expected: undefined },
  { name: 'exact host', routes: [{ name: 'h', hosts: ['example.com'] }], request: { host: 'Example.COM' }, expected: 'h' },
  { name: 'host with the request port', routes: [{ name: 'h', hosts: ['example.com'] }], request: { host: 'example.com:8000' }, expected: 'h' },
  { name: 'suffix wildcard host', routes: [{ name: 'w', hosts: ['*.example.com'] }], request: { host: 'a.b.example.com' }, expected: 'w' },
  { name: 'suffix wildcard needs a label', routes: [{ name: 'w', hosts: ['*.example.com'] }], request: { host: 'example.com' }, expected: undefined },
  { name: 'prefix wildcard host', routes: [{ name: 'w', hosts: ['example.*'] }], request: { host: 'example.org' }, expected: 'w' },
  { name: 'plain host beats wildcard', routes: [{ name: 'wild', hosts: ['*.example.com'] }, { name: 'plain', hosts: ['api.example.com'] }], request: { host: 'api.example.com' }, expected: 'plain' },
  { name: 'host with port needs that port', routes: [{ name: 'p', hosts: ['example.com:9000'] }], request: { host: 'example.com' }, expected: undefined },
  { name: 'host with port matches that port', routes: [{ name: 'p', hosts: ['example.com:9000'] }], request: { host: 'example.com:9000' }, expected: 'p' },
  { name: 'header value, case-insensitive', routes: [{ name: 'v2', headers: { version: ['V2'] } }], request: { headers: { version: 'v2' } }, expected: 'v2' },
  { name: 'header regex ~*', routes: [{ name: 're', headers: { 'x-env': ['~*^prod-\\d+$'] } }], request: { headers: { 'x-env': 'PROD-12' } }, expected: 're' },
  { name: 'header missing', routes: [{ name: 'v2', headers: { version: ['v2'] } }], request: {}, expected: undefined },
  { name: 'more headers win', routes: [{ name: 'one', headers: { a: ['1'] } }, { name: 'two', headers: { a: ['1'], b: ['2'] } }], request: { headers: { a: '1', b: '2' } }, expected: 'two' },
  { name: 'https-only route over http still matches (426)', routes: [{ name: 's', paths: ['/'], protocols: ['https'] }], request: {}, expected: 's' },
  { name: 'http-only route over https does not match', routes: [{ name: 'h', paths: ['/'], protocols: ['http'] }], request: { scheme: 'https' }, expected: undefined },
  { name: 'sni', routes: [{ name: 's', snis: ['a.test'], protocols: ['https'] }], request: { scheme: 'https', sni: 'a.test' }, expected: 's' },
];

for (const c of cases) {
  test(`router: ${c.name}`, () => {
    const router = build(c.routes.map((r) => route(r)));
    assert.equal(router.find(req(c.request))?.value, c.expected);
  });
}

test('router: https-only route reached over http carries the redirect status', () => {
  const router = build([route({ name: 's', paths: ['/'], protocols: ['https'], https_redirect_status_code: 301 })]);
  assert.equal(router.find(req({}))?.httpsRedirectStatus, 301);
  assert.equal(router.find(req({ scheme: 'https' }))?.httpsRedirectStatus, undefined);
});

test('router: routes on the normalised path and forwards it escaped', () => {
  const router = build([route({ name: 'pub', paths: ['/public'] }), route({ name: 'health', paths: ['/health'], methods: ['GET'], strip_path: false })]);
  assert.equal(router.find(req({ method: 'POST', path: '/public/../health' })), undefined);
  assert.equal(router.find(req({ method: 'POST', path: '/public/%2e%2e/health' })), undefined);
  const m = router.find(req({ path: '/public/%2E./health' }));
  assert.equal(m?.value, 'health');
  assert.equal(m?.upstreamPath, '/health');
  assert.equal(router.find(req({ path: '/public/a%20b' }))?.upstreamPath, '/a%20b');
  assert.equal(router.find(req({ path: '/public/%7euser' }))?.upstreamPath, '/~user');
});

test('router: upstream path from strip_path and the regex match', () => {
  const router = build([route({ name: 're', paths: ['~/v\\d+'] }), route({ name: 'keep', paths: ['/keep'], strip_path: false })], '/svc');
  assert.equal(router.find(req({ path: '/v12/items' }))?.upstreamPath, '/svc/items');
  assert.equal(router.find(req({ path: '/keep/it' }))?.upstreamPath, '/svc/keep/it');
});

test('router: PCRE named groups (?P<name>) compile', () => {
  const router = build([route({ name: 'n', paths: ['~/(?P<ns>[^/]+)/(?P<id>\\d+)'] })]);
  assert.equal(router.find(req({ path: '/foo/123' }))?.value, 'n');
});

// The router compiles regexes with the declarative module's compiler (pcre-regex.ts), so PCRE
// spellings validation accepts (\A, \z, (?P=name), a leading (?i)) route as validation meant.
test('regex paths and header regexes run the PCRE translations validation accepts', () => {
  const r = build([
    { ...route({ name: 'anchored', paths: ['~\\A/a/\\d+\\z'] }) },
    { ...route({ name: 'backref', paths: ['~/(?P<w>[a-z]+)/(?P=w)$'] }) },
    { ...route({ name: 'ci', paths: ['~(?i)/CaSe$'] }) },
    { ...route({ name: 'hdr', headers: { 'x-v': ['~*^v(?P<n>\\d)$'] } }) },
  ]);
  assert.equal(r.find(req({ path: '/a/12' }))?.route.name, 'anchored');
  assert.equal(r.find(req({ path: '/a/12/x' }))?.route.name, undefined);
  assert.equal(r.find(req({ path: '/ab/ab' }))?.route.name, 'backref');
  assert.equal(r.find(req({ path: '/ab/cd' }))?.route.name, undefined);
  assert.equal(r.find(req({ path: '/case' }))?.route.name, 'ci');
  assert.equal(r.find(req({ path: '/zz', headers: { 'x-v': 'V3' } }))?.route.name, 'hdr');
});

test('regex matches carry their named and numbered captures (hash_on uri_capture)', () => {
  const r = build([route({ name: 'ns', paths: ['~/(?<namespace>[^/]+)/(?<id>[0-9]+)/?'] }), route({ name: 'p', paths: ['/'] })]);
  const m = r.find(req({ path: '/foo/123' }));
  assert.equal(m?.captures?.namespace, 'foo');
  assert.equal(m?.captures?.id, '123');
  assert.equal(m?.captures?.[2], '123');
  assert.equal(r.find(req({ path: '/' }))?.captures, undefined);
});
