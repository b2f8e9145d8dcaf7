// correlation-id against a real two-worker gateway: cases from Kong's
// spec/03-plugins/11-correlation-id/01-access_spec.lua (generators, echo_downstream on proxied
// responses, on the gateway's 502, on a later plugin's exit and on the 404 of no route).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusedPort } from '../proxy/proxy.fixture.ts';
import { startPluginGateway } from './plugins.fixture.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_COUNTER = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})#(\d+)$/;
const TRACKER = /^\d+\.\d+\.\d+\.\d+-\d+-\d+-\d+-\d+-\d{10}\.\d{3}$/;

const route = (host: string, plugins: string): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: ${plugins}`;
const cid = (config: string): string => `[{ name: correlation-id, config: ${config} }]`;
const yml = (dead: number) => (upstream: string): string => `_format_version: "3.0"
plugins: [{ name: correlation-id, config: { generator: uuid, echo_downstream: true } }]
consumers: [{ username: bob, keyauth_credentials: [{ key: kong }] }]
services:
  - name: echo
    url: ${upstream}
    routes:${route('counter.test', cid('{}'))}${route('uuid.test', cid('{ generator: uuid }'))}${route('tracker.test', cid('{ generator: tracker }'))}${route('echo.test', '[]')}${route('custom.test', cid('{ header_name: Foo-Bar-Id, generator: uuid }'))}${route('auth.test', '[{ name: key-auth }]')}
  - name: dead
    url: http://127.0.0.1:${dead}
    routes:${route('dead.test', '[]')}
`;

test('correlation-id: Kong\'s access spec cases', async (t) => {
  const g = await startPluginGateway(t, yml(await refusedPort()));
  const upstreamId = async (host: string, headers: Record<string, string> = {}, name = 'kong-request-id') => {
    const res = await g.call('/', { headers: { Host: host, ...headers } });
    assert.equal(res.status, 200);
    return res.json.headers?.[name];
  };

  // uuid#counter: the worker's uuid, then its counter.
  const ids = await Promise.all([1, 2, 3, 4].map(() => upstreamId('counter.test')));
  for (const id of ids) assert.match(String(id), UUID_COUNTER);
  assert.equal(new Set(ids).size, 4, 'every id differs');
  const byWorker = new Map<string, number[]>();
  for (const id of ids) {
    const [, uuid = '', n = ''] = UUID_COUNTER.exec(String(id))!;
    byWorker.set(uuid, [...(byWorker.get(uuid) ?? []), Number(n)]);
  }
  for (const counters of byWorker.values()) assert.equal(new Set(counters).size, counters.length, 'a worker never repeats its counter');

  const [u1, u2] = [await upstreamId('uuid.test'), await upstreamId('uuid.test')];
  assert.match(String(u1), UUID);
  assert.notEqual(u1, u2);
  const [t1, t2] = [await upstreamId('tracker.test'), await upstreamId('tracker.test')];
  assert.match(String(t1), TRACKER);
  assert.notEqual(t1, t2);

  // echo_downstream: the same id upstream and back.
  const echoed = await g.call('/', { headers: { Host: 'echo.test' } });
  assert.match(String(echoed.headers['kong-request-id']), UUID);
  assert.equal(echoed.headers['kong-request-id'], echoed.json.headers?.['kong-request-id']);
  const notAsked = await g.call('/', { headers: { Host: 'uuid.test' } });
  assert.equal(notAsked.headers['kong-request-id'], undefined, 'no echo unless asked');

  assert.match(String(await upstreamId('custom.test', {}, 'foo-bar-id')), UUID, 'custom header name');
  assert.equal(await upstreamId('uuid.test', { 'Kong-Request-ID': 'foobar' }), 'foobar', 'an existing header is preserved');
  assert.notEqual(await upstreamId('uuid.test', { 'Kong-Request-ID': '' }), '', 'an empty one is replaced');
  assert.notEqual(await upstreamId('uuid.test', { 'Kong-Request-ID': '   ' }), '   ', 'a blank one is replaced');

  // echo_downstream on answers the upstream never gave.
  const bad = await g.call('/', { headers: { Host: 'dead.test' } });
  assert.equal(bad.status, 502);
  assert.match(String(bad.headers['kong-request-id']), UUID);
  const denied = await g.call('/', { headers: { Host: 'auth.test', 'Kong-Request-ID': 'my very personal id' } });
  assert.equal(denied.status, 401);
  assert.equal(denied.headers['kong-request-id'], 'my very personal id');
  const noRoute = await g.call('/', { headers: { Host: 'nowhere.test' } });
  assert.equal(noRoute.status, 404);
  assert.match(String(noRoute.headers['kong-request-id']), UUID, 'the global instance echoes on the 404 of no route (access never ran)');
});
