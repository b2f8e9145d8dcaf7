// Consumer groups against a real two-worker gateway: plugins scoped to a group in Kong's
// precedence order (a consumer's own instance, then group + route, …, group, route, …, global;
// among a consumer's groups, the first by name), acl's include_consumer_groups and
// X-Consumer-Groups, and the admin API's consumer group endpoints (read-only in DB-less mode).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../admin/admin.fixture.ts';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const tier = (value: string): string => `{ name: request-transformer, config: { add: { headers: ['x-tier:${value}'] } } }`;
const keyAuth = '{ name: key-auth }';
const acl = (config: string): string => `{ name: acl, config: ${config} }`;

const yml = (upstream: string): string => `_format_version: "3.0"
consumer_groups:
  - name: gold
    plugins: [${tier('gold')}]
  - name: silver
  - name: beta
    plugins: [${tier('beta')}]
  - name: alpha
    plugins: [${tier('alpha')}]
consumers:
  - username: alice
    groups: [{ name: silver }, { name: gold }]
    acls: [{ group: admin }]
    keyauth_credentials: [{ key: alice-key }]
  - username: bob
    groups: [{ name: silver }]
    keyauth_credentials: [{ key: bob-key }]
  - username: carol
    keyauth_credentials: [{ key: carol-key }]
  - username: dave
    groups: [{ name: gold }]
    keyauth_credentials: [{ key: dave-key }]
    plugins: [${tier('dave')}]
  - username: erin
    groups: [{ name: beta }, { name: alpha }]
    keyauth_credentials: [{ key: erin-key }]
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: tiers, paths: [/tiers], plugins: [${keyAuth}] }
      - { name: other, paths: [/other], plugins: [${keyAuth}] }
      - { name: open, paths: [/open] }
      - { name: acl-groups, paths: [/acl-groups], plugins: [${keyAuth}, ${acl('{ allow: [gold], include_consumer_groups: true }')}] }
      - { name: acl-plain, paths: [/acl-plain], plugins: [${keyAuth}, ${acl('{ allow: [gold] }')}] }
      - { name: acl-deny, paths: [/acl-deny], plugins: [${keyAuth}, ${acl('{ deny: [silver], include_consumer_groups: true }')}] }
      - { name: rl-group, paths: [/rl-group], plugins: [${keyAuth}, { name: rate-limiting, config: { year: 2, limit_by: consumer-group } }] }
      - { name: rl-scoped, paths: [/rl-scoped], plugins: [${keyAuth}] }
plugins:
  - ${tier('none')}
  - name: rate-limiting
    consumer_group: silver
    route: rl-scoped
    config: { year: 2, limit_by: consumer-group }
  - name: request-transformer
    consumer_group: silver
    route: tiers
    config: { add: { headers: ['x-tier:silver'] } }
`;

const as = (key: string, more: Record<string, string> = {}) => ({ apikey: key, ...more });
const CASES: PluginCase[] = [
  { title: 'no groups: the global instance', path: '/tiers', headers: as('carol-key'), status: 200, upstreamHeaders: { 'x-tier': 'none' } },
  { title: 'no consumer: the global instance', path: '/open', status: 200, upstreamHeaders: { 'x-tier': 'none' } },
  { title: 'consumer group + route beats consumer group', path: '/tiers', headers: as('alice-key'), status: 200, upstreamHeaders: { 'x-tier': 'silver' } },
  { title: 'consumer group beats global', path: '/other', headers: as('alice-key'), status: 200, upstreamHeaders: { 'x-tier': 'gold' } },
  { title: 'a group\'s route-bound instance stays on its route', path: '/other', headers: as('bob-key'), status: 200, upstreamHeaders: { 'x-tier': 'none' } },
  { title: 'consumer group + route for its member', path: '/tiers', headers: as('bob-key'), status: 200, upstreamHeaders: { 'x-tier': 'silver' } },
  { title: 'the consumer\'s own instance beats its group\'s', path: '/other', headers: as('dave-key'), status: 200, upstreamHeaders: { 'x-tier': 'dave' } },
  { title: 'two groups at one level: the first by name', path: '/other', headers: as('erin-key'), status: 200, upstreamHeaders: { 'x-tier': 'alpha' } },
  // acl include_consumer_groups: consumer group names count, after the acls, in X-Consumer-Groups.
  { title: 'acl: allowed by a consumer group', path: '/acl-groups', headers: as('alice-key'), status: 200, upstreamHeaders: { 'x-consumer-groups': 'admin, gold, silver' } },
  { title: 'acl: a consumer outside the group', path: '/acl-groups', headers: as('bob-key'), status: 403, message: 'You cannot consume this service' },
  { title: 'acl: no groups at all', path: '/acl-groups', headers: as('carol-key'), status: 403, message: 'You cannot consume this service' },
  { title: 'acl: a spoofed X-Consumer-Groups is no group', path: '/acl-groups', headers: as('carol-key', { 'X-Consumer-Groups': 'gold' }), status: 403 },
  { title: 'acl: a spoofed header is replaced', path: '/acl-groups', headers: as('dave-key', { 'X-Consumer-Groups': 'root' }), status: 200, upstreamHeaders: { 'x-consumer-groups': 'gold' } },
  { title: 'acl without include_consumer_groups ignores consumer groups', path: '/acl-plain', headers: as('alice-key'), status: 403, message: 'You cannot consume this service' },
  { title: 'acl deny by a consumer group', path: '/acl-deny', headers: as('bob-key'), status: 403 },
  { title: 'acl deny passes the others', path: '/acl-deny', headers: as('dave-key'), status: 200, upstreamHeaders: { 'x-consumer-groups': 'gold' } },
];

type Page = { data: Record<string, unknown>[]; next: null };
const names = (list: unknown): unknown[] => (list as Record<string, unknown>[]).map((x) => x.username ?? x.name);

test('consumer groups: scoped plugins, acl and the admin API on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);

  // rate-limiting limit_by consumer-group: alice (gold, silver) and dave (gold) share gold's
  // count; carol (no group) counts by address; a group-scoped instance counts its own group.
  const year = async (path: string, key: string): Promise<[number, unknown]> => {
    const res = await g.call(path, { headers: { apikey: key } });
    return [res.status, res.headers['x-ratelimit-remaining-year']];
  };
  assert.deepEqual(await year('/rl-group', 'alice-key'), [200, '1']);
  assert.deepEqual(await year('/rl-group', 'dave-key'), [200, '0']);
  assert.deepEqual((await year('/rl-group', 'alice-key'))[0], 429);
  assert.deepEqual(await year('/rl-group', 'carol-key'), [200, '1']);
  assert.deepEqual(await year('/rl-scoped', 'bob-key'), [200, '1']);
  assert.deepEqual(await year('/rl-scoped', 'alice-key'), [200, '0']);
  assert.deepEqual((await year('/rl-scoped', 'bob-key'))[0], 429);
  assert.deepEqual(await year('/rl-scoped', 'carol-key'), [200, undefined]);

  const groups = (await call(g.admin, '/consumer_groups')).body as Page;
  assert.deepEqual(names(groups.data), ['gold', 'silver', 'beta', 'alpha']);
  assert.deepEqual(Object.keys(groups.data[0]!).sort(), ['created_at', 'id', 'name', 'tags', 'updated_at']);
  const gold = (await call(g.admin, '/consumer_groups/gold')).body as { consumer_group: Record<string, unknown>; consumers: unknown; plugins: { name: string; consumer_group: unknown }[] };
  assert.deepEqual(gold.consumer_group, groups.data[0]);
  assert.deepEqual(names(gold.consumers), ['alice', 'dave']);
  assert.deepEqual(gold.plugins.map((p) => [p.name, p.consumer_group]), [['request-transformer', { id: groups.data[0]!.id }]]);
  assert.deepEqual((await call(g.admin, `/consumer_groups/${String(groups.data[0]!.id)}`)).body, gold);
  assert.deepEqual(names(((await call(g.admin, '/consumer_groups/silver/consumers')).body as { consumers: unknown }).consumers), ['alice', 'bob']);
  assert.deepEqual(names(((await call(g.admin, '/consumers/alice/consumer_groups')).body as { consumer_groups: unknown }).consumer_groups), ['gold', 'silver']);
  assert.deepEqual(((await call(g.admin, '/consumers/carol/consumer_groups')).body as { consumer_groups: unknown }).consumer_groups, []);
  assert.deepEqual(((await call(g.admin, '/consumer_groups/silver/plugins')).body as Page).data.map((x) => x.name), ['rate-limiting', 'request-transformer']);
  assert.equal((await call(g.admin, '/consumer_groups/ghost')).status, 404);
  assert.equal((await call(g.admin, '/consumers/ghost/consumer_groups')).status, 404);
  // DB-less: every write refused.
  const post = (path: string, body: unknown) => call(g.admin, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const created = await post('/consumer_groups', { name: 'platinum' });
  assert.deepEqual([created.status, created.body], [405, { code: 12, name: 'operation unsupported', message: "cannot create 'consumer_groups' entities when not using a database" }]);
  assert.equal((await post('/consumer_groups/gold/consumers', { consumer: 'bob' })).status, 405);
  assert.equal((await call(g.admin, '/consumer_groups/gold', { method: 'DELETE' })).status, 405);
  assert.equal((await call(g.admin, '/consumers/alice/consumer_groups', { method: 'DELETE' })).status, 405);
});
