import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';
import { createHash } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import { rejectionOf } from './rejection.fixture.ts';
import { deriveEntityId } from './uuid-v5.ts';

const NOW = 1_700_000_000;
const parse = (yaml: string) => parseDeclarativeConfig(yaml, { now: NOW, randomId: () => '00000000-0000-4000-8000-000000000001' });

const failure = (yaml: string): GatewayError => rejectionOf(() => parse(yaml));

const V3 = '_format_version: "3.0"\n';

// Kong's healthchecks default, byte for byte (Kong's 03-flatten_spec.lua), written out independently here.
const KONG_HEALTHCHECKS = JSON.parse(`{
  "active": {
    "type": "http", "timeout": 1, "concurrency": 10, "http_path": "/", "https_sni": null,
    "https_verify_certificate": true, "headers": null,
    "healthy":   { "interval": 0, "http_statuses": [200, 302], "successes": 0 },
    "unhealthy": { "interval": 0, "http_statuses": [429, 404, 500, 501, 502, 503, 504, 505],
                   "tcp_failures": 0, "timeouts": 0, "http_failures": 0 }
  },
  "passive": {
    "type": "http",
    "healthy":   { "http_statuses": [200, 201, 202, 203, 204, 205, 206, 207, 208, 226,
                                     300, 301, 302, 303, 304, 305, 306, 307, 308], "successes": 0 },
    "unhealthy": { "http_statuses": [429, 500, 503], "tcp_failures": 0, "timeouts": 0, "http_failures": 0 }
  },
  "threshold": 0
}`) as unknown;

test('defaults: every field Kong fills is filled, foreign keys resolved to {id}', () => {
  const s = parse(`${V3}
services:
  - name: svc
    host: example.com
    routes:
      - paths: [/api]
upstreams:
  - name: up
    targets:
      - target: 10.0.0.1
`);
  const svcId = deriveEntityId('services', 'svc');
  const upId = deriveEntityId('upstreams', 'up');
  assert.deepEqual(s.services[0], {
    id: svcId, created_at: NOW, updated_at: NOW, name: 'svc', retries: 5, protocol: 'http', host: 'example.com', port: 80,
    path: null, connect_timeout: 60000, write_timeout: 60000, read_timeout: 60000, tags: null,
    client_certificate: null, tls_verify: null, tls_verify_depth: null, ca_certificates: null, enabled: true,
  });
  // An unnamed route has no key: its id is random (injected here).
  assert.deepEqual(s.routes[0], {
    id: '00000000-0000-4000-8000-000000000001', created_at: NOW, updated_at: NOW, name: null,
    protocols: ['http', 'https'], https_redirect_status_code: 426, strip_path: true, preserve_host: false,
    request_buffering: true, response_buffering: true, tags: null, service: { id: svcId }, snis: null,
    sources: null, destinations: null, methods: null, hosts: null, paths: ['/api'], headers: null,
    regex_priority: 0, path_handling: 'v0',
  });
  assert.deepEqual(s.upstreams[0], {
    id: upId, created_at: NOW, updated_at: NOW, name: 'up', algorithm: 'round-robin', hash_on: 'none',
    hash_fallback: 'none', hash_on_header: null, hash_fallback_header: null, hash_on_cookie: null,
    hash_on_cookie_path: '/', hash_on_query_arg: null, hash_fallback_query_arg: null, hash_on_uri_capture: null,
    hash_fallback_uri_capture: null, slots: 10000, healthchecks: KONG_HEALTHCHECKS, tags: null, host_header: null,
    client_certificate: null, use_srv_name: false,
  });
  assert.deepEqual(s.targets[0], {
    id: deriveEntityId('targets', `targets:*:${upId}:10.0.0.1`), created_at: NOW, updated_at: NOW,
    upstream: { id: upId }, target: '10.0.0.1', weight: 100, tags: null,
  });
});

test('partial healthchecks merge field by field; a given http_statuses list replaces the default', () => {
  const s = parse(`${V3}
upstreams:
  - name: up
    healthchecks:
      active:
        healthy: { interval: 5, http_statuses: [200] }
      passive:
        unhealthy: { http_failures: 3 }
      threshold: 50
`);
  const hc = s.upstreams[0]?.healthchecks;
  assert.deepEqual(hc?.active.healthy, { interval: 5, http_statuses: [200], successes: 0 });
  assert.deepEqual(hc?.active.unhealthy, (KONG_HEALTHCHECKS as { active: { unhealthy: unknown } }).active.unhealthy);
  assert.deepEqual(hc?.passive.unhealthy, { http_statuses: [429, 500, 503], tcp_failures: 0, timeouts: 0, http_failures: 3 });
  assert.equal(hc?.threshold, 50);
  assert.equal(hc?.active.http_path, '/');
});

test('the url shorthand sets protocol, host, port and path; port alone defaults to 80 even for https', () => {
  const s = parse(`${V3}
services:
  - { name: a, url: "https://example.com/api" }
  - { name: b, url: "http://example.com:8080" }
  - { name: c, url: "http://example.com" }
  - { name: d, protocol: https, host: example.com }
`);
  assert.deepEqual(s.services.map((x) => [x.protocol, x.host, x.port, x.path]), [
    ['https', 'example.com', 443, '/api'],
    ['http', 'example.com', 8080, null],
    ['http', 'example.com', 80, null],
    ['https', 'example.com', 80, null],
  ]);
});

test('algorithm and hash_on couple as Kong shorthands do (entities/upstreams.lua)', () => {
  const cases: [string, string, string][] = [
    ['{ algorithm: least-connections, hash_on: ip }', 'least-connections', 'none'],
    ['{ algorithm: round-robin, hash_on: ip }', 'consistent-hashing', 'ip'],
    ['{ algorithm: consistent-hashing }', 'consistent-hashing', 'none'],
    ['{ hash_on: none, algorithm: latency }', 'latency', 'none'],
    ['{ hash_on: header, hash_on_header: x-user }', 'consistent-hashing', 'header'],
  ];
  for (const [fields, algorithm, hashOn] of cases) {
    const s = parse(`${V3}upstreams:\n  - { name: up, ${fields.slice(2)}\n`);
    assert.deepEqual([s.upstreams[0]?.algorithm, s.upstreams[0]?.hash_on], [algorithm, hashOn], fields);
  }
});

test('format 1.1 and 2.1 migrate route paths: plain paths normalised, others become ~ regexes', () => {
  for (const version of ['1.1', '2.1']) {
    const s = parse(`_format_version: "${version}"
services:
  - name: svc
    host: example.com
    routes:
      - { name: nested, paths: ["/foo/../bar", "/x/\\\\d+"] }
routes:
  - { name: top, paths: ["/%61bc//d", "/users/(?<id>[0-9]+)$"] }
`);
    assert.deepEqual(s.routes.map((r) => r.paths), [['/bar', '~/x/\\d+'], ['/abc/d', '~/users/(?<id>[0-9]+)$']], version);
  }
  // The same paths are errors in a 3.0 file.
  const e = failure(`${V3}routes:\n  - { paths: ["/foo/../bar"] }\n`);
  assert.deepEqual(e.toBody().fields, { routes: [{ paths: ["non-normalized path, consider use '/bar' instead"] }] });
});

test('regex paths compile as JS after PCRE translation and skip the percent check, as in Kong', () => {
  const s = parse(`${V3}routes:\n  - paths: ["~/a%", "~/users/(?P<id>\\\\d+)$", "/café"]\n`);
  assert.deepEqual(s.routes[0]?.paths, ['~/a%', '~/users/(?P<id>\\d+)$', '/café']);
  // Percent-encoded UTF-8 decodes to the characters, so the encoded prefix is not normalised.
  assert.deepEqual(failure(`${V3}routes:\n  - paths: ["/caf%C3%A9", "/a%2Fb"]\n`).toBody().fields, {
    routes: [{ paths: ["non-normalized path, consider use '/café' instead"] }],
  });
});

test('the snapshot is deep-frozen and carries md5 of the text as configuration hash', () => {
  const text = `${V3}services:\n  - { name: s, host: h, tags: [a] }\n`;
  const s = parse(text);
  assert.equal(s.hash, createHash('md5').update(text).digest('hex'));
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.services) && Object.isFrozen(s.services[0]) && Object.isFrozen(s.services[0]?.tags));
  assert.throws(() => {
    (s.services as unknown as unknown[]).push({});
  }, TypeError);
});

test('JSON text is accepted as Kong accepts it', () => {
  const s = parse(JSON.stringify({ _format_version: '3.0', services: [{ name: 's', host: 'h', routes: [{ paths: ['/'] }] }] }));
  assert.equal(s.services.length, 1);
  assert.equal(s.routes[0]?.service?.id, s.services[0]?.id);
});

// Error kinds: [title, yaml after the format line, expected Kong `fields`].
const ERROR_CASES: [string, string, unknown][] = [
  // 15-off_spec.lua's own example.
  ['missing host, port out of range', 'services:\n  - port: -12\n',
    { services: [{ host: 'required field missing', port: 'value should be between 0 and 65535' }] }],
  ['unknown top-level key', 'nope: 1\n', { nope: 'unknown field' }],
  ['an unknown plugin is rejected, not ignored', 'plugins:\n  - name: world-domination\n',
    { plugins: [{ name: "plugin 'world-domination' not enabled; add it to the 'plugins' configuration property" }] }],
  ['entities not implemented yet are rejected', 'vaults: []\n',
    { vaults: "'vaults' entities are not supported by this gateway yet; remove them" }],
  ['entity list not an array', 'services: {}\n', { services: 'expected an array' }],
  ['entity not a record', 'services: [3]\n', { services: ['expected a record'] }],
  ['unknown entity field', 'services:\n  - { host: h, colour: red }\n', { services: [{ colour: 'unknown field' }] }],
  ['protocol enum', 'services:\n  - { host: h, protocol: nope }\n',
    { services: [{ protocol: 'expected one of: grpc, grpcs, http, https, tcp, tls, tls_passthrough, udp' }] }],
  ['service host with a port', 'services:\n  - { host: "h.com:80" }\n', { services: [{ host: 'must not have a port' }] }],
  ['service name characters', 'services:\n  - { name: "my service", host: h }\n',
    { services: [{ name: "invalid value 'my service': the only accepted ascii characters are alphanumerics or ., -, _, and ~" }] }],
  ['type errors', 'services:\n  - { host: h, retries: "5", enabled: "yes", read_timeout: 1.5 }\n',
    { services: [{ retries: 'expected an integer', enabled: 'expected a boolean', read_timeout: 'expected an integer' }] }],
  ['path on a tcp service', 'services:\n  - { host: h, protocol: tcp, path: /x }\n',
    { services: [{ '@entity': ["failed conditional validation given value of field 'protocol'"], path: 'value must be null' }] }],
  ['route without any matching field (default protocols include https)', 'routes:\n  - { name: r }\n',
    { routes: [{ '@entity': ["must set one of 'methods', 'hosts', 'headers', 'paths', 'snis' when 'protocols' is 'https'"] }] }],
  ['http-only route without any matching field', 'routes:\n  - { protocols: [http] }\n',
    { routes: [{ '@entity': ["must set one of 'methods', 'hosts', 'headers', 'paths' when 'protocols' is 'http'"] }] }],
  ['route paths', 'routes:\n  - paths: ["/a//b", "a", "~/(", "/a/./b", "/%zz"]\n',
    { routes: [{ paths: [
      'must not have empty segments',
      'should start with: / (fixed path) or ~/ (regex path)',
      'invalid regex: \'/(\' (PCRE returned: pcre2_compile() failed: missing closing parenthesis in "/(")',
      "non-normalized path, consider use '/a/b' instead",
      "invalid url-encoded value: '%zz'",
    ] }] }],
  ['route hosts wildcards', 'routes:\n  - hosts: ["*.a.*", "a.*.b", "*.example.com", "example.*", "h:8000"]\n',
    { routes: [{ hosts: ['invalid wildcard: must have at most one wildcard', 'invalid wildcard: must be placed at leftmost or rightmost label'] }] }],
  ['route headers may not name host', 'routes:\n  - headers: { Host: [a.com] }\n',
    { routes: [{ headers: "cannot contain 'host' header, which must be specified in the 'hosts' attribute" }] }],
  ['route header regexes must compile', 'routes:\n  - headers: { x-v: ["~*^v(1|2)$", "~*(("] }\n',
    { routes: [{ headers: 'invalid regex: \'((\' (PCRE returned: pcre2_compile() failed: missing closing parenthesis in "((")' }] }],
  // routes.lua selects its subschema by protocol: when no protocol names one, that is the only
  // error, on the field (05-error-flattening_spec.lua:1221, 15-off_spec.lua:2282).
  ['route protocols naming no known protocol: the only error', 'routes:\n  - { protocols: [smtp, pop3], hosts: ["bad host!"], methods: [get] }\n',
    { routes: [{ protocols: 'unknown type: smtp' }] }],
  ['…a known one among them selects its checks, the unknown one is an element error', 'routes:\n  - { protocols: [smtp, http], paths: [/] }\n',
    { routes: [{ protocols: ['expected one of: grpc, grpcs, http, https, tcp, tls, tls_passthrough, udp'] }] }],
  ['…an empty list has no first protocol (Lua formats it as nil)', 'routes:\n  - { protocols: [], paths: [/] }\n',
    { routes: [{ protocols: 'unknown type: nil' }] }],
  ['…a single string names one too', 'routes:\n  - { protocols: smtp, paths: [/] }\n',
    { routes: [{ protocols: 'unknown type: smtp' }] }],
  ['…but a known single string is not a set', 'routes:\n  - { protocols: http, paths: [/] }\n',
    { routes: [{ protocols: 'expected a set' }] }],
  ['route protocols from two families', 'routes:\n  - { protocols: [http, tcp], paths: [/] }\n',
    { routes: [{ protocols: "these sets are mutually exclusive: ('http', 'https'), ('tcp', 'tls', 'udp')" }] }],
  ['route snis need a TLS protocol', 'routes:\n  - { protocols: [http], paths: [/], snis: [a.com] }\n',
    { routes: [{ snis: 'length must be 0', '@entity': ["'snis' can only be set when 'protocols' is 'grpcs', 'https', 'tls' or 'tls_passthrough'"] }] }],
  ['route methods are upper-case tokens', 'routes:\n  - { methods: [get, POST] }\n', { routes: [{ methods: ['invalid value: get'] }] }],
  ['upstream names', 'upstreams:\n  - name: 1.2.3.4\n  - name: "up:80"\n  - name: "bad name"\n  - {}\n',
    { upstreams: [
      { name: "Invalid name ('1.2.3.4'); no ip addresses allowed" },
      { name: "Invalid name ('up:80'); no port allowed" },
      { name: "Invalid name ('bad name'); must be a valid hostname" },
      { name: 'required field missing' },
    ] }],
  ['hash_on header needs hash_on_header', 'upstreams:\n  - { name: up, hash_on: header }\n',
    { upstreams: [{ hash_on_header: 'required field missing', '@entity': ["failed conditional validation given value of field 'hash_on'"] }] }],
  ['hash_on and fallback headers must differ', 'upstreams:\n  - { name: up, hash_on: header, hash_on_header: a, hash_fallback: header, hash_fallback_header: a }\n',
    { upstreams: [{ '@entity': ["values of these fields must be distinct: 'hash_on_header', 'hash_fallback_header'"] }] }],
  ['healthchecks ranges and enums', `upstreams:
  - name: up
    slots: 5
    healthchecks:
      threshold: 101
      active: { type: grpcx, concurrency: 0, http_path: x, healthy: { successes: 256, http_statuses: [200, 99] } }
      passive: { unhealthy: { timeouts: -1 } }
`, { upstreams: [{
    slots: 'value should be between 10 and 65536',
    healthchecks: {
      threshold: 'value should be between 0 and 100',
      active: {
        type: 'expected one of: tcp, http, https, grpc, grpcs',
        concurrency: 'value should be between 1 and 2147483648',
        http_path: 'should start with: /',
        healthy: { successes: 'value should be between 0 and 255', http_statuses: [null, 'value should be between 100 and 999'] },
      },
      passive: { unhealthy: { timeouts: 'value should be between 0 and 255' } },
    },
  }] }],
  ['targets', 'targets:\n  - { upstream: up, target: "hostname:1.0" }\n  - { upstream: up, target: "a:1", weight: 70000 }\n  - { target: "a:1" }\n',
    { targets: [
      { target: "Invalid target ('hostname:1.0'); not a valid hostname or ip address" },
      { weight: 'value should be between 0 and 65535' },
      { upstream: 'required field missing' },
    ] }],
  // A nested child may name an entity, which must exist (03-flatten_spec.lua:1512; the parent's key is used).
  ['a nested child naming an upstream that does not exist', 'upstreams:\n  - name: up\n    targets:\n      - { target: "a:1", upstream: down }\n',
    { upstreams: [{ targets: [{ upstream: 'value must be null' }] }] }],
  ['a nested foreign key that is no name, id or {id}', 'upstreams:\n  - name: up\n    targets:\n      - { target: "a:1", upstream: [up] }\n      - { target: "a:2", upstream: { id: up } }\n',
    { upstreams: [{ targets: [{ upstream: 'value must be null' }, { upstream: 'value must be null' }] }] }],
  ['sni names', 'snis:\n  - { name: "*.a.*", certificate: c }\n  - { name: "a.*.b", certificate: c }\n  - { name: 1.2.3.4, certificate: c }\n  - { name: "a.com:443", certificate: c }\n',
    { snis: [
      { name: 'only one wildcard must be specified' },
      { name: 'wildcard must be leftmost or rightmost character' },
      { name: 'must not be an IP' },
      { name: 'must not have a port' },
    ] }],
];

for (const [title, body, fields] of ERROR_CASES) {
  test(`error: ${title}`, () => {
    assert.deepEqual(failure(V3 + body).toBody().fields, fields);
  });
}

test('error body: Kong code 14, name and pl.pretty message (15-off_spec.lua)', () => {
  assert.deepEqual(failure(`${V3}services:\n  - port: -12\n`).toBody(), {
    code: 14,
    name: 'invalid declarative configuration',
    message: 'declarative config is invalid: {services={{host="required field missing",port="value should be between 0 and 65535"}}}',
    fields: { services: [{ host: 'required field missing', port: 'value should be between 0 and 65535' }] },
  });
  assert.equal(failure(`${V3}services:\n  - port: -12\n`).status, 400);
});

test('_format_version: required, one of 1.1, 2.1, 3.0', () => {
  assert.deepEqual(failure('services: []\n').toBody().fields, { _format_version: 'required field missing' });
  assert.deepEqual(failure('_format_version: "4.0"\n').toBody().fields, { _format_version: 'expected one of: 1.1, 2.1, 3.0' });
});

test('unparsable text and non-objects get Kong\'s parsing error', () => {
  assert.deepEqual(failure('- a\n- b\n').toBody(), {
    code: 14,
    name: 'invalid declarative configuration',
    message: 'declarative config is invalid: {error="failed parsing declarative configuration: expected an object"}',
    fields: { error: 'failed parsing declarative configuration: expected an object' },
  });
  const e = failure('services: [\n');
  assert.match(String((e.toBody().fields as { error: string }).error), /^failed parsing declarative configuration: /);
  assert.match(e.lines[0] ?? '', /^kong\.yml:\d+:\d+: failed parsing declarative configuration: /);
});

test('uniqueness: same id, same name, nested duplicates; placement as in Kong', () => {
  const sameId = failure(`${V3}services:
  - { id: 0855b320-0dd2-547d-891d-601e9b38647f, name: a, host: h }
  - { id: 0855b320-0dd2-547d-891d-601e9b38647f, name: b, host: h }
`).toBody();
  assert.deepEqual(sameId.fields, {
    services: [null, "uniqueness violation: 'services' entity with primary key set to '0855b320-0dd2-547d-891d-601e9b38647f' already declared"],
  });
  assert.equal(
    sameId.message,
    "declarative config is invalid: {services={[2]=\"uniqueness violation: 'services' entity with primary key set to '0855b320-0dd2-547d-891d-601e9b38647f' already declared\"}}",
  );
  // The same name derives the same id: the name violation is reported, not the id one.
  assert.deepEqual(failure(`${V3}services:\n  - { name: a, host: h }\n  - { name: a, host: h }\n`).toBody().fields, {
    services: [null, "uniqueness violation: 'services' entity with name set to 'a' already declared"],
  });
  assert.deepEqual(failure(`${V3}services:
  - name: s
    host: h
    routes:
      - { name: r, paths: [/a] }
      - { name: r, paths: [/b] }
`).toBody().fields, { services: [{ routes: [null, "uniqueness violation: 'routes' entity with name set to 'r' already declared"] }] });
});

test('references by name, id and {id}; a missing one is keyed by the referrer\'s name or id', () => {
  const s = parse(`${V3}
services:
  - { name: by-name, host: h }
  - { id: 11111111-1111-4111-8111-111111111111, host: h }
routes:
  - { name: r1, service: by-name, paths: [/a] }
  - { name: r2, service: 11111111-1111-4111-8111-111111111111, paths: [/b] }
  - { name: r3, service: { id: 11111111-1111-4111-8111-111111111111 }, paths: [/c] }
`);
  assert.deepEqual(s.routes.map((r) => r.service?.id), [s.services[0]?.id, '11111111-1111-4111-8111-111111111111', '11111111-1111-4111-8111-111111111111']);

  const e = failure(`${V3}
routes:
  - { name: my-route-1, service: svc1, paths: [/] }
targets:
  - { upstream: { id: 769bdf51-16df-5476-9830-ef26800b5448 }, target: "a:1" }
`);
  // A target's cache key skips an upstream written as {id} (build_cache_key takes strings only).
  const targetId = deriveEntityId('targets', 'targets:*:a:1');
  assert.deepEqual(e.toBody().fields, {
    routes: { 'my-route-1': ["invalid reference 'service: svc1' (no such entry in 'services')"] },
    targets: { [targetId]: ['invalid reference \'upstream: {"id":"769bdf51-16df-5476-9830-ef26800b5448"}\' (no such entry in \'upstreams\')'] },
  });
});

test('flattened errors: duplicate nested targets, exactly as 05-error-flattening_spec.lua', () => {
  const e = failure(`${V3}
upstreams:
  - name: httproute.default.httproute-testing.0
    id: e9792964-6797-482c-bfdf-08220a4f6832
    targets:
      - { id: 715f9482-4236-5fe5-9ae5-e75c1a498940, target: "10.244.0.11:80", weight: 1 }
      - { id: 89a2966d-773c-580a-b063-6ab4dfd24701, target: "10.244.0.12:80", weight: 1 }
  - name: httproute.default.httproute-testing.1
    id: f9792964-6797-482c-bfdf-08220a4f6839
    targets:
      - { id: 48322e4a-b3b0-591b-8ed6-fd95a6d75019, tags: [target-1], target: "10.244.0.12:80", weight: 1 }
      - { id: 48322e4a-b3b0-591b-8ed6-fd95a6d75019, tags: [target-2], target: "10.244.0.12:80", weight: 1 }
`);
  assert.deepEqual(e.toBody({ flattenErrors: true }), {
    code: 14,
    name: 'invalid declarative configuration',
    message: 'declarative config is invalid: {}',
    fields: {},
    flattened_errors: [
      {
        entity: {
          id: '48322e4a-b3b0-591b-8ed6-fd95a6d75019',
          tags: ['target-2'],
          target: '10.244.0.12:80',
          upstream: { id: 'f9792964-6797-482c-bfdf-08220a4f6839' },
          weight: 1,
        },
        entity_id: '48322e4a-b3b0-591b-8ed6-fd95a6d75019',
        entity_tags: ['target-2'],
        entity_type: 'target',
        errors: [
          {
            message: "uniqueness violation: 'targets' entity with primary key set to '48322e4a-b3b0-591b-8ed6-fd95a6d75019' already declared",
            type: 'entity',
          },
        ],
      },
    ],
  });
});

test('flattened errors: nested record paths joined with dots, entity errors typed, non-entity fields kept', () => {
  const body = failure(`${V3}
extra: 1
services:
  - name: nope
    id: 0175e0e8-3de9-56b4-96f1-b12dcb4b6691
    host: localhost
    port: 1234
    protocol: tcp
    path: /x
    tags: [service-01]
upstreams:
  - name: up
    healthchecks: { active: { concurrency: 0 } }
`).toBody({ flattenErrors: true });
  assert.deepEqual(body.fields, { extra: 'unknown field' });
  assert.equal(body.message, 'declarative config is invalid: {extra="unknown field"}');
  assert.deepEqual(body.flattened_errors, [
    {
      entity_type: 'service',
      entity_id: '0175e0e8-3de9-56b4-96f1-b12dcb4b6691',
      entity_name: 'nope',
      entity_tags: ['service-01'],
      entity: { name: 'nope', id: '0175e0e8-3de9-56b4-96f1-b12dcb4b6691', host: 'localhost', port: 1234, protocol: 'tcp', path: '/x', tags: ['service-01'] },
      errors: [
        { type: 'entity', message: "failed conditional validation given value of field 'protocol'" },
        { type: 'field', field: 'path', message: 'value must be null' },
      ],
    },
    {
      entity_type: 'upstream',
      entity_name: 'up',
      entity: { name: 'up', healthchecks: { active: { concurrency: 0 } } },
      errors: [{ type: 'field', field: 'healthchecks.active.concurrency', message: 'value should be between 1 and 2147483648' }],
    },
  ]);
});

test('flattened errors: a nested route naming no known protocol has one field error, on protocols', () => {
  // Kong's shape: 05-error-flattening_spec.lua:1330-1340, 15-off_spec.lua:2275-2285.
  const body = failure(`${V3}
services:
  - name: mail
    url: http://mail.test
    routes:
      - { tags: [r-1], protocols: [imap], hosts: ["no such host!"] }
`).toBody({ flattenErrors: true });
  assert.deepEqual(body.flattened_errors, [{
    entity_type: 'route',
    entity_tags: ['r-1'],
    entity: { tags: ['r-1'], protocols: ['imap'], hosts: ['no such host!'] },
    errors: [{ type: 'field', field: 'protocols', message: 'unknown type: imap' }],
  }]);
});

test('human lines: file:line:col of the offending node, every problem at once', () => {
  const e = parseError(`_format_version: "3.0"
services:
  - name: a
    host: example.com
    port: 99999
    routes:
      - name: r
        paths: ["/ok", "nope"]
upstreams:
  - name: "1.2.3.4"
`, 'conf/kong.yml');
  assert.deepEqual(e.lines, [
    'conf/kong.yml:5:11: services[0].port: value should be between 0 and 65535',
    'conf/kong.yml:8:24: services[0].routes[0].paths[1]: should start with: / (fixed path) or ~/ (regex path)',
    "conf/kong.yml:10:11: upstreams[0].name: Invalid name ('1.2.3.4'); no ip addresses allowed",
  ]);
});

function parseError(yaml: string, fileName: string): GatewayError {
  try {
    parseDeclarativeConfig(yaml, { fileName });
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  assert.fail('expected an error');
}

test('human lines also name clashes and dangling references of otherwise valid entities; the Kong body stays schema-only', () => {
  const e = parseError(`_format_version: "3.0"
services:
  - { name: a, port: 99999 }
  - { name: b, host: x }
  - { name: b, host: y }
routes:
  - { service: nope, paths: [/] }
  - { service: nope2, paths: ["//"] }
`, 'kong.yml');
  assert.deepEqual(e.lines, [
    'kong.yml:3:5: services[0].host: required field missing',
    'kong.yml:3:22: services[0].port: value should be between 0 and 65535',
    'kong.yml:8:31: routes[1].paths[0]: must not have empty segments',
    "kong.yml:5:5: services[2] (b): uniqueness violation: 'services' entity with name set to 'b' already declared",
    "kong.yml:7:16: routes[0].service: invalid reference 'service: nope' (no such entry in 'services')",
  ]);
  assert.deepEqual(Object.keys(e.toBody().fields as object).sort(), ['routes', 'services']);
  assert.deepEqual((e.toBody().fields as { routes: unknown }).routes, [null, { paths: ['must not have empty segments'] }]);
});

test('Kong 15-off_spec.lua mixed example (plugins left out): nested route and conditional errors', () => {
  const e = failure(`${V3}
abnormal_extra_field: 123
services:
  - name: nope
    host: localhost
    port: 1234
    protocol: nope
    tags: [service-1]
    routes:
      - { name: valid.route, protocols: [http, https], methods: [GET], hosts: [test] }
      - { name: nope.route, protocols: [tcp] }
  - name: mis-matched
    host: localhost
    protocol: tcp
    path: /path
    routes:
      - { name: invalid, protocols: [http, https], hosts: [test], methods: [GET] }
  - name: okay
    url: http://localhost:1234
    routes:
      - { name: probably-valid, protocols: [http, https], methods: [GET], hosts: [test] }
`);
  assert.deepEqual(e.toBody().fields, {
    abnormal_extra_field: 'unknown field',
    services: [
      {
        protocol: 'expected one of: grpc, grpcs, http, https, tcp, tls, tls_passthrough, udp',
        routes: [null, { '@entity': ["must set one of 'sources', 'destinations', 'snis' when 'protocols' is 'tcp', 'tls' or 'udp'"] }],
      },
      { '@entity': ["failed conditional validation given value of field 'protocol'"], path: 'value must be null' },
    ],
  });
  const flat = e.toBody({ flattenErrors: true });
  assert.deepEqual(flat.fields, { abnormal_extra_field: 'unknown field' });
  // Kong counts 4 with the plugin error; without plugins: the nested route, its service, mis-matched.
  assert.deepEqual(
    (flat.flattened_errors as { entity_type: string; entity_name: string }[]).map((x) => [x.entity_type, x.entity_name]),
    [['route', 'nope.route'], ['service', 'nope'], ['service', 'mis-matched']],
  );
});
