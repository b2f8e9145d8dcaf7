// cors in kong.yml: defaults and schema errors (spec/03-plugins/13-cors/02-schema_spec.lua), and
// the origin comparison of handler.lua (normalize_origin, regex anchoring, by-host matching).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from '../../declarative/parse-declarative-config.ts';
import { GatewayError } from '../../errors.ts';
import { CorsOrigins, normalizeOrigin } from './cors-origins.ts';

const parse = (yaml: string) => parseDeclarativeConfig('_format_version: "3.0"\n' + yaml, { now: 1_700_000_000 });
function fields(yaml: string): unknown {
  try {
    parse(yaml);
  } catch (e) {
    if (e instanceof GatewayError) return e.toBody().fields;
    throw e;
  }
  return assert.fail('expected the configuration to be rejected');
}

test('cors defaults are Kong\'s', () => {
  assert.deepEqual(parse('plugins: [{ name: cors }]\n').plugins[0]?.config, {
    origins: null, headers: null, exposed_headers: null, methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'],
    max_age: null, credentials: false, private_network: false, preflight_continue: false, allow_origin_absent: true,
  });
});

test('cors schema errors in Kong\'s words', () => {
  const origins = fields(String.raw`plugins: [{ name: cors, config: { origins: ['.*.example.com', 'invalid_**regex'] } }]` + '\n');
  assert.deepEqual(origins, { plugins: [{ config: { origins: [null, "'invalid_**regex' is not a valid regex"] } }] });
  const methods = fields('plugins: [{ name: cors, config: { methods: [FAKE] } }]\n');
  assert.deepEqual(methods, { plugins: [{ config: { methods: ['expected one of: GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS, TRACE, CONNECT'] } }] });
  assert.doesNotThrow(() => parse(String.raw`plugins: [{ name: cors, config: { origins: ['*', example.com, '.*\.example(?:-foo)?\.com'] } }]` + '\n'));
});

test('origins: normalised comparison, anchored regexes, by host without a colon', () => {
  assert.deepEqual(normalizeOrigin('http://a.test:80'), { domain: 'http://a.test', host: 'a.test' });
  assert.deepEqual(normalizeOrigin('https://a.test:9000/x'), { domain: 'https://a.test:9000', host: 'a.test' });
  assert.deepEqual(normalizeOrigin('a.test'), { domain: 'a.test', host: 'a.test' });
  const flat = new CorsOrigins(['http://my-site.test', 'https://my-other-site.test:9000']);
  assert.equal(flat.match('http://my-site.test:80'), 'http://my-site.test');
  assert.equal(flat.match('https://my-other-site.test:9000'), 'https://my-other-site.test:9000');
  assert.equal(flat.match('http://my-site.test.bad-guys.test'), undefined);
  const regex = new CorsOrigins([String.raw`.*\.?example(?:-foo)?.test`]);
  assert.equal(regex.match('http://www.example.test'), 'http://www.example.test');
  assert.equal(regex.match('http://example-foo.test'), 'http://example-foo.test');
  // '(?:' holds a colon: Kong then matches the whole normalised origin, port included.
  assert.equal(regex.match('http://example-foo.test:8000'), undefined);
  assert.equal(regex.match('http://www.example.test.bad.test'), undefined, 'anchored at the end');
  const byDomain = new CorsOrigins([String.raw`^https://[a-z]+\.test:8\d+`]);
  assert.equal(byDomain.match('https://abc.test:8443'), 'https://abc.test:8443');
  assert.equal(byDomain.match('http://abc.test:8443'), undefined);
});
