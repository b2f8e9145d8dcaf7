import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { parseDeclarativeConfig, type Snapshot } from '../../src/declarative/index.ts';
import { GatewayError } from '../../src/errors.ts';
import { deriveEntityId } from '../../src/declarative/uuid-v5.ts';
import { KONG_YML, NODE_ID, NOW, RELOADED_YML, call, startAdmin, type AdminHarness } from './admin.fixture.ts';

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

async function admin(t: TestContext, extra: Parameters<typeof startAdmin>[0] = {}): Promise<AdminHarness> {
  const h = await startAdmin(extra);
  t.after(() => h.close());
  return h;
}

const byName = <T extends { name: string | null }>(list: readonly T[], name: string): T => {
  const found = list.find((e) => e.name === name);
  assert.ok(found, name);
  return found;
};

test('GET / and GET /status: Kong shapes, node id, configuration hash', async (t) => {
  const h = await admin(t);
  const root = await call(h.base, '/');
  assert.equal(root.status, 200);
  const body = root.body as Record<string, unknown>;
  assert.deepEqual(
    [body.tagline, body.version, body.edition, body.node_id, (body.configuration as { database: string }).database],
    ['Welcome to kong', '3.10.0', 'community', NODE_ID, 'off'],
  );
  const status = await call(h.base, '/status');
  assert.equal(status.status, 200);
  const s = status.body as { configuration_hash: string; server: Record<string, number>; memory: object };
  assert.equal(s.configuration_hash, h.current.hash);
  assert.deepEqual(Object.keys(s.server).sort(), [
    'connections_accepted', 'connections_active', 'connections_handled', 'connections_reading',
    'connections_waiting', 'connections_writing', 'total_requests',
  ]);
  assert.ok((s.server.total_requests ?? 0) >= 2);
});

test('entity collections and single entities: exact bodies, by name or id', async (t) => {
  const h = await admin(t);
  const snap = h.current;
  const esign = byName(snap.services, 'esign');
  assert.deepEqual((await call(h.base, '/services')).body, { data: plain(snap.services), next: null });
  assert.deepEqual((await call(h.base, '/services/esign')).body, plain(esign));
  assert.deepEqual((await call(h.base, `/services/${esign.id}`)).body, plain(esign));
  assert.deepEqual((await call(h.base, '/services/esign/routes')).body, {
    data: plain(snap.routes.filter((r) => r.service?.id === esign.id)),
    next: null,
  });
  assert.deepEqual((await call(h.base, '/routes')).body, { data: plain(snap.routes), next: null });
  assert.deepEqual((await call(h.base, '/routes/oauth')).body, plain(byName(snap.routes, 'oauth')));
  assert.deepEqual((await call(h.base, '/routes/oauth/service')).body, plain(esign));
  const up = byName(snap.upstreams, 'esign-upstream');
  assert.deepEqual((await call(h.base, '/upstreams')).body, { data: plain(snap.upstreams), next: null });
  assert.deepEqual((await call(h.base, `/upstreams/${up.id}`)).body, plain(up));
  assert.deepEqual((await call(h.base, '/snis')).body, { data: plain(snap.snis), next: null });
  assert.deepEqual((await call(h.base, '/snis/example.test')).body, plain(byName(snap.snis, 'example.test')));
  for (const path of ['/plugins', '/consumers', '/ca_certificates', '/services/esign/plugins', '/routes/api/plugins']) {
    assert.deepEqual((await call(h.base, path)).body, { data: [], next: null }, path);
  }
  for (const path of ['/services/nope', '/routes/00000000-0000-4000-8000-0000000000ff', '/upstreams/nope', '/snis/nope', '/targets', '/nowhere']) {
    assert.deepEqual(await call(h.base, path).then((r) => [r.status, r.body]), [404, { message: 'Not found' }], path);
  }
});

// DB-less Kong's off strategy: a key-auth credential is read only while its ttl (expiry, Unix
// seconds) is ahead, shown with the seconds it has left (kong/db/strategies/off/init.lua); the
// export keeps the expiry as loaded, so it loads back the same.
test('key-auth credentials with a ttl: shown with the seconds left until they expire, then not at all', async (t) => {
  const h = await admin(t);
  h.current = parseDeclarativeConfig(`_format_version: "3.0"
consumers:
  - username: erin
    keyauth_credentials:
      - { id: 0e7b4c1d-5a92-4f3e-b6d8-2c9a1f0e7d43, key: erin-gone, ttl: ${NOW - 1} }
      - { id: 1f8c5d2e-6ba3-4a4f-87e9-3dab2a1f8e54, key: erin-hour, ttl: ${NOW + 3600} }
      - { id: 2a9d6e3f-7cb4-4b50-98fa-4ebc3b2a9f65, key: erin-always }
`, { now: NOW });
  const page = (await call(h.base, '/key-auths')).body as { data: { key: string; ttl?: number }[] };
  assert.deepEqual(page.data.map((k) => [k.key, k.ttl]), [['erin-hour', 3600], ['erin-always', undefined]]);
  assert.equal('ttl' in (page.data[1] ?? {}), false);
  assert.equal(((await call(h.base, '/consumers/erin/key-auth')).body as { data: unknown[] }).data.length, 2);
  assert.equal(((await call(h.base, '/key-auths/erin-hour')).body as { ttl: number }).ttl, 3600);
  for (const path of ['/key-auths/erin-gone', '/key-auths/0e7b4c1d-5a92-4f3e-b6d8-2c9a1f0e7d43', '/consumers/erin/key-auth/erin-gone']) {
    assert.equal((await call(h.base, path)).status, 404, path);
  }
  const exported = ((await call(h.base, '/config')).body as { config: string }).config;
  assert.deepEqual(parseDeclarativeConfig(exported).keyauth_credentials.map((k) => k.ttl), [NOW - 1, NOW + 3600, undefined]);
});

test('targets: normalised strings (default port 8000), newest first, weight 0 listed', async (t) => {
  const h = await admin(t);
  const up = byName(h.current.upstreams, 'esign-upstream');
  const raw = h.current.targets.filter((x) => x.upstream.id === up.id);
  const shown = (written: string, as: string) => ({ ...(plain(raw.find((x) => x.target === written)) as object), target: as });
  assert.deepEqual((await call(h.base, '/upstreams/esign-upstream/targets')).body, {
    data: [shown('10.0.0.9', '10.0.0.9:8000'), shown('127.0.0.1:3002', '127.0.0.1:3002'), shown('127.0.0.1:3001', '127.0.0.1:3001')],
    next: null,
  });
  assert.deepEqual((await call(h.base, '/upstreams/esign-upstream/targets/10.0.0.9:8000')).body, shown('10.0.0.9', '10.0.0.9:8000'));
  const all = (await call(h.base, `/upstreams/${up.id}/targets/all`)).body as { data: { target: string }[] };
  assert.deepEqual(all.data.map((x) => x.target), ['127.0.0.1:3001', '127.0.0.1:3002', '10.0.0.9:8000']);
});

test('certificates: sorted sni names added; looked up by id or by sni name', async (t) => {
  const h = await admin(t);
  const cert = h.current.certificates[0];
  const expected = { ...(plain(cert) as object), snis: ['*.example.test', 'example.test'] };
  assert.deepEqual((await call(h.base, '/certificates')).body, { data: [expected], next: null });
  assert.deepEqual((await call(h.base, `/certificates/${cert?.id ?? ''}`)).body, expected);
  assert.deepEqual((await call(h.base, '/certificates/example.test')).body, expected);
  assert.deepEqual((await call(h.base, `/certificates/${cert?.id ?? ''}/snis`)).body, { data: plain(h.current.snis), next: null });
});

test('pagination: size, next/offset, bad offset', async (t) => {
  const h = await admin(t);
  const first = (await call(h.base, '/routes?size=1')).body as { data: unknown[]; next: string; offset: string };
  assert.deepEqual(first.data, [plain(h.current.routes[0])]);
  assert.equal(first.next, `/routes?offset=${encodeURIComponent(first.offset)}&size=1`);
  const second = (await call(h.base, first.next)).body as { data: unknown[]; next: string | null };
  assert.deepEqual(second, { data: [plain(h.current.routes[1])], next: null });
  assert.deepEqual(await call(h.base, '/routes?size=x').then((r) => [r.status, r.body]), [
    400,
    { code: 9, name: 'invalid size', message: 'size must be a number' },
  ]);
  assert.deepEqual(await call(h.base, '/routes?size=1001').then((r) => [r.status, r.body]), [
    400,
    { code: 9, name: 'invalid size', message: 'size must be an integer between 1 and 1000' },
  ]);
  assert.deepEqual(await call(h.base, '/routes?offset=%25%25').then((r) => [r.status, r.body]), [
    400,
    { code: 7, name: 'invalid offset', message: "'%%' is not a valid offset: bad base64 encoding" },
  ]);
});

test('writes in DB-less mode: 405 operation unsupported, after Kong\'s own checks', async (t) => {
  const h = await admin(t);
  const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const unsupported = (message: string) => [405, { code: 12, name: 'operation unsupported', message }];
  const cases: [string, RequestInit, unknown[]][] = [
    ['/services', json('POST', { host: 'example.com' }), unsupported("cannot create 'services' entities when not using a database")],
    ['/plugins', json('POST', { name: 'key-auth' }), unsupported("cannot create 'plugins' entities when not using a database")],
    ['/services/esign/routes', json('POST', { paths: ['/x'] }), unsupported("cannot create 'routes' entities when not using a database")],
    ['/upstreams/esign-upstream/targets', json('POST', { target: '1.2.3.4:80' }), unsupported("cannot create 'targets' entities when not using a database")],
    ['/services/esign', json('PATCH', { retries: 1 }), unsupported("cannot update 'services' entities when not using a database")],
    ['/routes/api', json('PUT', { paths: ['/y'] }), unsupported("cannot create or update 'routes' entities when not using a database")],
    ['/upstreams/esign-upstream', { method: 'DELETE' }, unsupported("cannot remove 'upstreams' entities when not using a database")],
    ['/certificates/example.test', { method: 'DELETE' }, unsupported("cannot remove 'certificates' entities when not using a database")],
    // Schema validation runs first: an invalid body is a 400 schema violation.
    ['/services', json('POST', { port: 99999 }), [400, {
      code: 2, name: 'schema violation',
      message: '2 schema violations (host: required field missing; port: value should be between 0 and 65535)',
      fields: { host: 'required field missing', port: 'value should be between 0 and 65535' },
    }]],
    // Kong reads before writing: PATCH of a missing entity is 404, DELETE of one is 204.
    ['/services/nope', json('PATCH', { retries: 1 }), [404, { message: 'Not found' }]],
    ['/services/nope', { method: 'DELETE' }, [204, undefined]],
    // Methods a route does not define.
    ['/routes', { method: 'DELETE' }, [405, { message: 'Method not allowed' }]],
    ['/routes/api', json('POST', {}), [405, { message: 'Method not allowed' }]],
    ['/status', { method: 'POST' }, [405, { message: 'Method not allowed' }]],
    ['/services', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' }, [400, { message: 'Cannot parse JSON body' }]],
  ];
  for (const [path, init, expected] of cases) {
    const r = await call(h.base, path, init);
    assert.deepEqual([r.status, r.body], expected, `${init.method ?? 'GET'} ${path}`);
  }
  assert.equal(h.applied.length, 0);
});

test('POST /config replaces the configuration atomically (raw YAML body) and GET /config exports it', async (t) => {
  const h = await admin(t);
  const r = await call(h.base, '/config', { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: RELOADED_YML });
  assert.equal(r.status, 201);
  const expected = parseDeclarativeConfig(RELOADED_YML, { now: NOW });
  assert.deepEqual(h.applied.length, 1);
  assert.deepEqual(plain(h.current), plain(expected));
  assert.deepEqual(r.body, {
    services: { [expected.services[0]?.id ?? '']: plain(expected.services[0]) },
    routes: { [expected.routes[0]?.id ?? '']: plain(expected.routes[0]) },
  });
  assert.deepEqual((await call(h.base, '/services')).body, { data: plain(expected.services), next: null });
  assert.equal(((await call(h.base, '/status')).body as { configuration_hash: string }).configuration_hash, expected.hash);

  // The export parses back into the same entities.
  const exported = (await call(h.base, '/config')).body as { config: string };
  assert.match(exported.config, /^_format_version: "3.0"\n_transform: false\n/);
  const again = parseDeclarativeConfig(exported.config);
  assert.deepEqual({ ...plain(again) as object, hash: '' }, { ...plain(expected) as object, hash: '' });
});

test('GET /config round-trips certificates (block scalars), snis and targets', async (t) => {
  const h = await admin(t);
  const exported = ((await call(h.base, '/config')).body as { config: string }).config;
  const again = parseDeclarativeConfig(exported);
  assert.deepEqual({ ...plain(again) as object, hash: '' }, { ...plain(h.current) as object, hash: '' });
});

test('POST /config body forms: {config} JSON, _format_version JSON, urlencoded and multipart config= (the last two with an admin token)', async (t) => {
  // Form bodies are CORS-simple: without a token they are refused (admin-exposure.test.ts); a
  // request carrying the token needs a preflight, so `curl -F config=@kong.yml` works with it.
  const token = 'b7e2f0c4d9a1e8f3c6b5a4d7e0f1c2b3';
  const h = await admin(t, { adminToken: token });
  const asJson = JSON.stringify(parseYamlToObject(RELOADED_YML));
  const multipart = new FormData();
  multipart.append('config', new Blob([RELOADED_YML]), 'kong.yml');
  const forms: RequestInit[] = [
    { method: 'POST', headers: { 'content-type': 'application/json', 'kong-admin-token': token }, body: JSON.stringify({ config: RELOADED_YML }) },
    { method: 'POST', headers: { 'content-type': 'application/json', 'kong-admin-token': token }, body: asJson },
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'kong-admin-token': token }, body: new URLSearchParams({ config: RELOADED_YML }).toString() },
    { method: 'POST', headers: { 'kong-admin-token': token }, body: multipart },
  ];
  for (const [i, init] of forms.entries()) {
    const r = await call(h.base, '/config', init);
    assert.equal(r.status, 201, `form ${i}`);
  }
  assert.equal(h.applied.length, 4);
  assert.deepEqual(h.applied.map((s) => s.services[0]?.name), ['fresh', 'fresh', 'fresh', 'fresh']);
});

/** Kong's body for a declarative configuration it refuses (code 14); `flattened` with ?flatten_errors. */
function invalidConfig(fields: object, message: string, flattened?: object[]): object {
  return {
    code: 14,
    name: 'invalid declarative configuration',
    message: `declarative config is invalid: ${message}`,
    fields,
    ...(flattened !== undefined ? { flattened_errors: flattened } : {}),
  };
}

function parseYamlToObject(yaml: string): object {
  const s = parseDeclarativeConfig(yaml, { now: NOW });
  return {
    _format_version: '3.0',
    services: s.services.map((svc) => ({
      name: svc.name,
      host: svc.host,
      routes: s.routes.filter((r) => r.service?.id === svc.id).map((r) => ({ name: r.name, hosts: r.hosts })),
    })),
  };
}

test('POST /config with an invalid configuration: 400 with Kong\'s body, running config untouched', async (t) => {
  const h = await admin(t);
  const before = plain(h.current);
  const bad = '_format_version: "3.0"\nservices:\n  - port: -12\n';
  const r = await call(h.base, '/config', { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: bad });
  assert.deepEqual([r.status, r.body], [400, invalidConfig(
    { services: [{ host: 'required field missing', port: 'value should be between 0 and 65535' }] },
    '{services={{host="required field missing",port="value should be between 0 and 65535"}}}',
  )]);
  const flat = await call(h.base, '/config?flatten_errors=1', { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: bad });
  assert.deepEqual(flat.body, invalidConfig({}, '{}', [{
    entity_type: 'service',
    entity: { port: -12 },
    errors: [
      { type: 'field', field: 'host', message: 'required field missing' },
      { type: 'field', field: 'port', message: 'value should be between 0 and 65535' },
    ],
  }]));
  assert.deepEqual(await call(h.base, '/config', { method: 'POST' }).then((x) => [x.status, x.body]), [400, { message: 'expected a declarative configuration' }]);
  // A JSON object without `config` or `_format_version` is itself the (invalid) configuration;
  // Kong's flags may also come as body params.
  const jsonBody = (body: object): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.deepEqual(await call(h.base, '/config', jsonBody({})).then((x) => [x.status, (x.body as { fields: unknown }).fields]), [
    400,
    { _format_version: 'required field missing' },
  ]);
  const flatParam = await call(h.base, '/config', jsonBody({ config: bad, flatten_errors: true }));
  assert.equal((flatParam.body as { flattened_errors: unknown[] }).flattened_errors.length, 1);
  assert.equal(h.applied.length, 0);
  assert.deepEqual(plain(h.current), before);
  assert.deepEqual((await call(h.base, '/services')).body, { data: (before as Snapshot).services, next: null });
});

// Kong's second-phase errors over POST /config: 15-off_spec.lua:794-826 (a custom_id clash keyed
// by the username) and :2964-3071 (a duplicate target's flattened entry with the ids Kong derived).
test('POST /config: uniqueness errors as Kong keys and flattens them, with the ids it derived', async (t) => {
  const h = await admin(t);
  const yaml = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'text/yaml' }, body: `_format_version: "3.0"\n${body}` });
  const custom = await call(h.base, '/config', yaml('consumers:\n  - { username: mia, custom_id: c-1 }\n  - { username: ned, custom_id: c-1 }\n'));
  const message = "uniqueness violation: 'consumers' entity with custom_id set to 'c-1' already declared";
  assert.deepEqual([custom.status, custom.body], [400, invalidConfig({ consumers: { ned: message } }, `{consumers={ned="${message}"}}`)]);
  const pool = '5d7f9b1c-2e4a-4c6e-8f0a-3b5d7f9b1c2e';
  const target = deriveEntityId('targets', `targets:*:${pool}:10.1.1.1:8080`);
  const flat = await call(h.base, '/config?flatten_errors=1', yaml(`upstreams:
  - id: ${pool}
    name: pool
    targets: [{ target: "10.1.1.1:8080", tags: [t-1] }, { target: "10.1.1.1:8080", tags: [t-2] }]
`));
  assert.deepEqual(flat.body, invalidConfig({}, '{}', [{
    entity_type: 'target',
    entity_id: target,
    entity_tags: ['t-2'],
    entity: { target: '10.1.1.1:8080', tags: ['t-2'], id: target, upstream: { id: pool } },
    errors: [{ type: 'entity', message: `uniqueness violation: 'targets' entity with primary key set to '${target}' already declared` }],
  }]));
  assert.equal(h.applied.length, 0);
});

test('request bodies over the limit: 413', async (t) => {
  const h = await admin(t, { maxBodyBytes: 64 });
  const r = await call(h.base, '/config', { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: RELOADED_YML });
  assert.deepEqual([r.status, r.body, h.applied.length], [413, { message: 'Request size limit exceeded' }, 0]);
});

test('POST /config: check_hash=1 answers 304 for the running text; a failing apply is a 500 and keeps the old config', async (t) => {
  const h = await admin(t);
  const yaml = { method: 'POST', headers: { 'content-type': 'text/yaml' } };
  assert.equal((await call(h.base, '/config', { ...yaml, body: KONG_YML })).status, 201);
  const same = await call(h.base, '/config?check_hash=1', { ...yaml, body: KONG_YML });
  assert.deepEqual([same.status, same.body, h.applied.length], [304, undefined, 1]);
  const before = h.current;
  h.applyHook = () => {
    throw new Error('runtime refused');
  };
  h.errors.length = 0;
  const failed = await call(h.base, '/config', { ...yaml, body: RELOADED_YML });
  assert.deepEqual([failed.status, failed.body], [500, { message: 'An unexpected error occurred' }]);
  assert.equal(h.current, before);
  assert.deepEqual(h.errors.map((e) => (e as Error).message), ['runtime refused']);
});

test('POST /config while another reload is applying: 429 with Retry-After', async (t) => {
  const h = await admin(t);
  let release: () => void = () => undefined;
  let entered = false;
  h.applyHook = () =>
    new Promise<void>((resolve) => {
      entered = true;
      release = resolve;
    });
  const yaml = { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: RELOADED_YML };
  const first = call(h.base, '/config', yaml);
  await pollUntil(() => entered, { what: 'first reload applying', timeoutMs: 5000 });
  const second = await call(h.base, '/config', yaml);
  assert.deepEqual([second.status, second.body, second.headers.get('retry-after')], [429, { message: 'Currently loading previous configuration' }, '1']);
  release();
  assert.equal((await first).status, 201);
  assert.equal(h.applied.length, 1);
});

test('extra routes (the health endpoints) are tried first and may throw Kong errors', async (t) => {
  const h = await admin(t, {
    extraRoutes: [
      (method, path) => {
        if (path === '/upstreams/esign-upstream/health') return { status: 200, body: { data: [], next: null, node_id: NODE_ID } };
        if (path === '/upstreams/nope/health') throw new GatewayError('NOT_FOUND');
        if (method === 'PUT' && path.endsWith('/healthy')) return { status: 204 };
        return undefined;
      },
    ],
  });
  assert.deepEqual((await call(h.base, '/upstreams/esign-upstream/health')).body, { data: [], next: null, node_id: NODE_ID });
  assert.deepEqual(await call(h.base, '/upstreams/nope/health').then((r) => [r.status, r.body]), [404, { message: 'Not found' }]);
  assert.equal((await call(h.base, '/upstreams/esign-upstream/targets/127.0.0.1:3001/healthy', { method: 'PUT' })).status, 204);
  assert.deepEqual((await call(h.base, '/upstreams/esign-upstream')).body, plain(byName(h.current.upstreams, 'esign-upstream')));
});
