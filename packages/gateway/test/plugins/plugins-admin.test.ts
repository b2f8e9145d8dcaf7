// The admin API's read-only plugin and consumer endpoints (Kong shapes), POST /config reloading
// plugins on both workers, and KONG_PLUGINS deciding which plugins a configuration may use.
import { BUNDLED_PLUGINS } from '../../src/plugins/index.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { call } from '../admin/admin.fixture.ts';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { startPluginGateway } from './plugins.fixture.ts';
import { hashBasicAuthPassword } from '../../src/declarative/index.ts';

const BOB = 'b0b00000-0000-4000-8000-000000000001';
const KEY_ID = 'c0000000-0000-4000-8000-000000000003';

const yml = (upstream: string, routePlugins = ''): string => `_format_version: "3.0"
consumers:
  - id: ${BOB}
    username: bob
    custom_id: b-1
    keyauth_credentials: [{ id: ${KEY_ID}, key: kong }]
    basicauth_credentials: [{ username: bob, password: secret }]
    acls: [{ group: admin }]
    jwt_secrets: [{ key: bob-issuer, secret: s3cr3t }]
    hmacauth_credentials: [{ username: bob-hmac, secret: s3cr3t }]
services:
  - name: echo
    url: ${upstream}
    plugins: [{ name: acl, instance_name: echo-acl, config: { allow: [admin] } }]
    routes:
      - name: open
        paths: [/open]
      - name: guarded
        paths: [/guarded]
        plugins: [{ name: key-auth }]${routePlugins}
`;

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
type Page = { data: Record<string, unknown>[]; next: null };

test('admin: plugins, consumers and credentials in Kong shapes; writes refused; POST /config reloads plugins on both workers', async (t) => {
  let upstreamUrl = '';
  const g = await startPluginGateway(t, (u) => {
    upstreamUrl = u;
    return yml(u);
  });
  const plugins = (await call(g.admin, '/plugins')).body as Page;
  assert.deepEqual(plugins.data.map((p) => [p.name, p.instance_name]).sort(), [['acl', 'echo-acl'], ['key-auth', null]]);
  const acl = plugins.data.find((p) => p.name === 'acl')!;
  assert.deepEqual(Object.keys(acl).sort(), ['config', 'consumer', 'consumer_group', 'created_at', 'enabled', 'id', 'instance_name', 'name', 'protocols', 'route', 'service', 'tags', 'updated_at']);
  assert.deepEqual((await call(g.admin, `/plugins/${String(acl.id)}`)).body, acl);
  assert.deepEqual((await call(g.admin, '/plugins/echo-acl')).body, acl);
  assert.deepEqual((await call(g.admin, '/services/echo/plugins')).body, { data: [acl], next: null });
  assert.equal(((await call(g.admin, '/routes/guarded/plugins')).body as Page).data[0]?.name, 'key-auth');
  assert.deepEqual((await call(g.admin, '/routes/open/plugins')).body, { data: [], next: null });
  assert.deepEqual((await call(g.admin, '/plugins/enabled')).body, { enabled_plugins: [...BUNDLED_PLUGINS].sort() });
  assert.equal((await call(g.admin, '/plugins/nope')).status, 404);

  // GET /schemas/plugins/{name}: Kong's schema_to_jsonable shape.
  const schema = (await call(g.admin, '/schemas/plugins/key-auth')).body as { fields: Record<string, { fields?: Record<string, unknown>[] }>[] };
  const config = schema.fields.find((f) => 'config' in f)!.config!;
  assert.deepEqual(config.fields!.find((f) => 'key_names' in f), { key_names: { type: 'array', required: true, default: ['apikey'], elements: { type: 'string' } } });
  assert.deepEqual(schema.fields[0], { consumer: { type: 'foreign', reference: 'consumers', eq: null } });
  assert.deepEqual((await call(g.admin, '/schemas/plugins/nope')).body, { message: "No plugin named 'nope'" });
  assert.deepEqual((await call(g.admin, '/schemas/plugins/validate', json('POST', { name: 'acl', config: { allow: ['a'] } }))).body, { message: 'schema validation successful' });
  const invalid = await call(g.admin, '/schemas/plugins/validate', json('POST', { name: 'acl' }));
  assert.equal(invalid.status, 400);
  assert.deepEqual((invalid.body as { fields: unknown }).fields, { '@entity': ["at least one of these fields must be non-empty: 'config.allow', 'config.deny'"] });

  // Consumers and credentials.
  const bob = (await call(g.admin, '/consumers/bob')).body as Record<string, unknown>;
  assert.deepEqual([bob.id, bob.username, bob.custom_id], [BOB, 'bob', 'b-1']);
  assert.deepEqual((await call(g.admin, `/consumers/${BOB}`)).body, bob);
  assert.deepEqual((await call(g.admin, '/consumers')).body, { data: [bob], next: null });
  assert.deepEqual((await call(g.admin, '/consumers/bob/plugins')).body, { data: [], next: null });
  const key = (await call(g.admin, '/consumers/bob/key-auth')).body as Page;
  assert.deepEqual([key.data[0]?.id, key.data[0]?.key, key.data[0]?.consumer], [KEY_ID, 'kong', { id: BOB }]);
  assert.deepEqual((await call(g.admin, '/key-auths/kong')).body, key.data[0]);
  assert.deepEqual((await call(g.admin, `/key-auths/${KEY_ID}/consumer`)).body, bob);
  const basic = (await call(g.admin, '/basic-auths')).body as Page;
  // Stored hashed once loaded, as Kong stores it.
  assert.equal(basic.data[0]?.password, hashBasicAuthPassword('secret', BOB));
  assert.equal(((await call(g.admin, '/consumers/bob/acls/admin')).body as { group: string }).group, 'admin');
  assert.equal(((await call(g.admin, '/acls')).body as Page).data.length, 1);
  assert.equal((await call(g.admin, '/consumers/nobody/acls')).status, 404);
  const jwt = (await call(g.admin, '/consumers/bob/jwt/bob-issuer')).body as Record<string, unknown>;
  assert.deepEqual([jwt.key, jwt.secret, jwt.algorithm, jwt.rsa_public_key, jwt.consumer], ['bob-issuer', 's3cr3t', 'HS256', null, { id: BOB }]);
  assert.deepEqual(((await call(g.admin, '/jwts')).body as Page).data, [jwt]);
  assert.deepEqual((await call(g.admin, '/jwts/bob-issuer/consumer')).body, bob);
  assert.equal(((await call(g.admin, '/consumers/bob/hmac-auth/bob-hmac')).body as { secret: string }).secret, 's3cr3t');
  assert.deepEqual((await call(g.admin, '/hmac-auths/bob-hmac/consumer')).body, bob);

  // DB-less: writes are refused in Kong's words.
  for (const [path, verb, entity] of [['/consumers', 'create', 'consumers'], ['/plugins', 'create', 'plugins'], ['/consumers/bob/key-auth', 'create', 'keyauth_credentials']] as const) {
    const body = path === '/plugins' ? { name: 'key-auth' } : path === '/consumers' ? { username: 'x' } : { key: 'k' };
    const res = await call(g.admin, path, json('POST', body));
    assert.deepEqual([res.status, res.body], [405, { code: 12, name: 'operation unsupported', message: `cannot ${verb} '${entity}' entities when not using a database` }]);
  }
  assert.equal((await call(g.admin, '/plugins/enabled', json('POST', {}))).status, 405);

  // Before the reload, /open is only guarded by the service's acl: no consumer → 401.
  assert.equal((await g.call('/open')).status, 401);
  assert.equal((await g.call('/guarded?apikey=kong')).status, 200);
  // POST /config: basic-auth on the open route; both workers enforce it once loaded.
  const reloaded = yml(upstreamUrl).replace('        paths: [/open]', '        paths: [/open]\n        plugins: [{ name: basic-auth }]');
  const posted = await call(g.admin, '/config', json('POST', { config: reloaded }));
  assert.equal(posted.status, 201);
  assert.equal(Object.keys((posted.body as { plugins: object }).plugins).length, 3);
  const bobBasic = `Basic ${Buffer.from('bob:secret').toString('base64')}`;
  await pollUntil(async () => {
    for (let i = 0; i < 4; i++) if ((await g.call('/open', { headers: { authorization: bobBasic } })).status !== 200) return undefined;
    return true;
  }, { timeoutMs: 10_000, intervalMs: 50, what: 'both workers to run basic-auth on /open' });
  const challenged = await g.call('/open');
  assert.deepEqual([challenged.status, challenged.headers['www-authenticate']], [401, 'Basic realm="service"']);
  // A configuration that fails validation changes nothing.
  const bad = await call(g.admin, '/config', json('POST', { config: yml(upstreamUrl).replace('name: acl,', 'name: rate-limiting-ish,') }));
  assert.equal(bad.status, 400);
  assert.equal((await g.call('/open', { headers: { authorization: bobBasic } })).status, 200);
});

test('KONG_PLUGINS: a configuration using a plugin left out does not start; an unknown name in the setting is refused', async (t) => {
  const config = yml('http://127.0.0.1:9');
  await assert.rejects(startGatewayProcess(t, config, { env: { KONG_PLUGINS: 'key-auth' } }), /plugin 'acl' not enabled; add it to the 'plugins' configuration property/);
  await assert.rejects(startGatewayProcess(t, config, { env: { KONG_PLUGINS: 'bundled,syslog' } }), /plugins: plugin 'syslog' is bundled with Kong but not implemented by this gateway yet/);
});
