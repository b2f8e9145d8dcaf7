// Fuzzing the kong.yml loader: generated and mutated documents must either load or be
// refused with the gateway's DECLARATIVE_CONFIG error (Kong's code 14 body, file:line lines) —
// never another exception, never a hang. `npm test` runs a few thousand inputs; the full run is
//   FUZZ_RUNS=100000 npm test -- packages/gateway/test/fuzz
// (FUZZ_SEED=<n> replays one seed). Figures in docs/reliability.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { parseDeclarativeConfig } from '../../src/declarative/index.ts';
import { GatewayError } from '../../src/errors.ts';
import { fuzzRuns, fuzzSeed, mutateText, recordSlowest } from './fuzz-budget.ts';

// A valid configuration using most entity types: the seed the mutators start from.
const VALID = `_format_version: "3.0"
services:
  - name: esign
    host: esign.upstream
    protocol: http
    port: 80
    retries: 5
    connect_timeout: 2000
    routes:
      - name: oauth
        paths: [/oauth, "~/v(\\\\d+)/x$"]
        methods: [GET, POST]
        hosts: ["*.example.com", api.example.com]
        headers:
          x-version: ["~*^v[0-9]+$"]
        strip_path: false
      - name: tls
        protocols: [https]
        snis: [localhost]
        paths: [/]
upstreams:
  - name: esign.upstream
    algorithm: consistent-hashing
    hash_on: header
    hash_on_header: x-user
    healthchecks:
      active:
        http_path: /health
        healthy: { interval: 2, successes: 1 }
        unhealthy: { interval: 1, http_failures: 2, tcp_failures: 1, timeouts: 2 }
      passive:
        unhealthy: { http_statuses: [500, 503], http_failures: 3, tcp_failures: 1 }
    targets:
      - target: 127.0.0.1:3001
        weight: 100
      - target: "[::1]:3002"
        weight: 0
`;

const ENTITY_KEYS = ['_format_version', '_transform', 'services', 'routes', 'upstreams', 'targets', 'certificates', 'snis', 'consumers', 'plugins', 'ca_certificates'];
const FIELD_KEYS = [
  'name', 'host', 'port', 'protocol', 'path', 'retries', 'connect_timeout', 'read_timeout', 'write_timeout', 'paths', 'hosts', 'methods',
  'headers', 'snis', 'strip_path', 'preserve_host', 'regex_priority', 'protocols', 'service', 'upstream', 'target', 'weight', 'algorithm',
  'hash_on', 'hash_on_header', 'hash_fallback', 'slots', 'healthchecks', 'active', 'passive', 'healthy', 'unhealthy', 'interval',
  'http_statuses', 'successes', 'http_failures', 'tcp_failures', 'timeouts', 'threshold', 'cert', 'key', 'id', 'tags', 'url', 'routes',
  'targets', 'type', 'http_path', 'timeout', 'concurrency', 'https_sni', 'tls_verify', 'ca_certificates', 'client_certificate',
];
const SCALARS: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('3.0', '2.1', '1.1', 'http', 'https', 'grpc', 'tcp', '/', '~/(a', '127.0.0.1:80', '[::1]', 'round-robin', 'least-connections', 'consistent-hashing', 'none', 'header', '', 'ø', '\u0000', 'a'.repeat(300)),
  fc.integer({ min: -70_000, max: 70_000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
);
// Kong-shaped trees: entity keys and field names at random depth, any values.
const KONG_TREE: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    SCALARS,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_KEYS), fc.string({ maxLength: 8 })), tie('node'), { maxKeys: 6 }),
  ),
})).node;
const KONG_DOCUMENT = fc
  .tuple(fc.dictionary(fc.constantFrom(...ENTITY_KEYS), KONG_TREE, { maxKeys: 5 }), fc.boolean(), fc.constantFrom('3.0', '2.1', '1.1', 3))
  .map(([doc, keepVersion, version]) => (keepVersion ? { _format_version: version, ...doc } : doc));

// Text inputs: raw strings, YAML/JSON renderings of Kong-shaped trees, and byte mutations of
// the valid document (YAML syntax errors, truncations, duplicated lines).
const INPUTS: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200, unit: 'binary' }),
  KONG_DOCUMENT.map((d) => stringify(d)),
  KONG_DOCUMENT.map((d) => JSON.stringify(d)),
  mutateText(VALID),
  mutateText(stringify({ _format_version: '3.0', services: [{ name: 's', url: 'http://u:80/x', routes: [{ paths: ['/'] }] }] })),
);

function checkOne(text: string): void {
  try {
    const snapshot = parseDeclarativeConfig(text, { now: 1_700_000_000, randomId: () => '00000000-0000-4000-8000-000000000001' });
    assert.equal(typeof snapshot.hash, 'string');
  } catch (e) {
    // The surface's shape: Kong's invalid-declarative-configuration body and human lines.
    if (!(e instanceof GatewayError)) throw new Error(`not a GatewayError: ${String(e)}`, { cause: e });
    assert.equal(e.code, 'DECLARATIVE_CONFIG');
    assert.equal(e.status, 400);
    const body = e.toBody();
    assert.equal(body.code, 14);
    assert.equal(body.name, 'invalid declarative configuration');
    assert.ok(typeof body.message === 'string' && body.message.length > 0);
    assert.ok(e.lines.length > 0 && e.lines.every((l) => typeof l === 'string' && l.length > 0));
    JSON.stringify(e.toBody({ flattenErrors: true }));
  }
}

test('kong.yml loader: generated and mutated documents load or fail with a Kong-shaped error', () => {
  const slowest = recordSlowest();
  const runs = fuzzRuns(3000);
  fc.assert(
    fc.property(INPUTS, (text) => slowest.time(text, () => checkOne(text))),
    { numRuns: runs, seed: fuzzSeed() },
  );
  slowest.report('kong.yml loader', runs);
  // "No hang": one document of at most a few KB never takes a second.
  assert.ok(slowest.ms < 1000, `slowest input took ${slowest.ms.toFixed(0)} ms: ${JSON.stringify(slowest.input.slice(0, 200))}`);
});

test('kong.yml loader: the valid seed document loads (the mutators start from a real config)', () => {
  const snapshot = parseDeclarativeConfig(VALID);
  assert.equal(snapshot.services.length, 1);
  assert.equal(snapshot.targets.length, 2);
});

// Found by this fuzzer: the YAML library throws a bare ReferenceError for an alias used before
// its anchor (`hosts: [*.example.com]`, a common slip: `*` starts an alias), which escaped as a
// crash of `config parse` and a 500 from POST /config.
test('kong.yml loader: an unresolved alias and an alias bomb are syntax errors with a position', () => {
  for (const text of [
    '_format_version: "3.0"\nservices:\n  - name: s\n    host: h\n    routes:\n      - hosts: [*.example.com]\n',
    `_format_version: "3.0"\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}*a]\nc: &c [${'*b, '.repeat(9)}*b]\nd: [${'*c, '.repeat(9)}*c]\n`,
  ]) {
    assert.throws(
      () => parseDeclarativeConfig(text),
      (e) => e instanceof GatewayError && e.code === 'DECLARATIVE_CONFIG' && /^kong\.yml:\d+:\d+: failed parsing declarative configuration: .*alias/i.test(e.lines[0] ?? ''),
    );
  }
});
