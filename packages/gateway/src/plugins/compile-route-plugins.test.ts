// Kong's plugin precedence (plugins_iterator.lua lookup_cfg) and PRIORITY order, resolved at
// load: each case configures one plugin at several scopes and asks which instance runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Consumer, Plugin } from '../declarative/types.ts';
import { ConsumerIndex } from './consumer-index.ts';
import { PluginCombos, runAccessPhase } from './compile-route-plugins.ts';
import { PluginContext } from './plugin-context.ts';
import type { PluginHandler } from './plugin-handler.ts';

const R = 'route-1';
const S = 'service-1';
const C = 'consumer-1';
const times = { created_at: 0, updated_at: 0 };
const consumer: Consumer = { id: C, username: 'c', custom_id: null, tags: null, ...times };
const consumers = new ConsumerIndex({ consumers: [consumer], keyauth_credentials: [], basicauth_credentials: [], acls: [], jwt_secrets: [], hmacauth_credentials: [] });

// A handler that records which instance ran (its config `tag`), and may authenticate `consumer`.
const seen: string[] = [];
const recorder = (name: string, priority: number): PluginHandler => ({
  name,
  priority,
  build: (config) => ({
    access(ctx) {
      seen.push(`${name}:${String(config.tag)}`);
      // An asynchronous hook (as rate-limiting's shared counters): answers once its promise settles.
      if (config.wait === 'pass') return Promise.resolve(undefined);
      if (config.wait === 'exit') return Promise.resolve({ status: 429, message: 'later' });
      if (config.wait === 'fail') return Promise.reject(new Error('store down'));
      if (config.login === true) ctx.authenticate(consumer, { identifier: 'x', consumerId: C });
      return config.exit === true ? { status: 403, message: 'no' } : undefined;
    },
  }),
});
const HANDLERS = new Map([recorder('auth', 1000), recorder('limit', 900), recorder('early', 2000), recorder('also-900', 900)].map((h) => [h.name, h]));

function plugin(name: string, scope: { route?: string; service?: string; consumer?: string }, config: Record<string, unknown>, enabled = true): Plugin {
  return {
    id: `${name}-${config.tag as string}`, name, instance_name: null, ...times, config, enabled, tags: null,
    protocols: ['http', 'https'], route: scope.route ? { id: scope.route } : null, service: scope.service ? { id: scope.service } : null,
    consumer: scope.consumer ? { id: scope.consumer } : null,
  };
}

function run(plugins: Plugin[], route = R, service = S): string[] {
  seen.length = 0;
  const compiled = new PluginCombos(plugins, HANDLERS, consumers).forRoute(route, service);
  const outcome = compiled === undefined ? undefined : runAccessPhase(compiled, new PluginContext('GET', [], ''));
  assert.ok(!(outcome instanceof Promise), 'synchronous hooks answer at once');
  return [...seen];
}

const login = plugin('auth', {}, { tag: 'login', login: true });
const ALL = {
  global: {},
  service: { service: S },
  route: { route: R },
  consumer: { consumer: C },
  'route+service': { route: R, service: S },
  'service+consumer': { service: S, consumer: C },
  'route+consumer': { route: R, consumer: C },
  'route+service+consumer': { route: R, service: S, consumer: C },
} as const;
type Scope = keyof typeof ALL;

// [configured scopes, the instance that runs for an authenticated consumer] (lookup_cfg order:
// R+S+C, R+C, S+C, R+S, C, R, S, global).
const PRECEDENCE: [Scope[], Scope][] = [
  [['global'], 'global'],
  [['global', 'service'], 'service'],
  [['global', 'service', 'route'], 'route'],
  [['global', 'service', 'route', 'route+service'], 'route+service'],
  [['route', 'consumer'], 'consumer'],
  [['route+service', 'consumer'], 'route+service'],
  [['route+service', 'service+consumer'], 'service+consumer'],
  [['service+consumer', 'route+consumer'], 'route+consumer'],
  [['route+consumer', 'route+service+consumer'], 'route+service+consumer'],
  [Object.keys(ALL) as Scope[], 'route+service+consumer'],
];

for (const [scopes, expected] of PRECEDENCE) {
  test(`precedence: ${scopes.join(', ')} → ${expected}`, () => {
    const limits = scopes.map((scope) => plugin('limit', ALL[scope], { tag: scope }));
    assert.deepEqual(run([login, ...limits]), ['auth:login', `limit:${expected}`]);
  });
}

test('without a consumer, consumer-scoped instances are skipped (route+service, route, service, global)', () => {
  const limits = (Object.keys(ALL) as Scope[]).filter((s) => s !== 'route+service').map((scope) => plugin('limit', ALL[scope], { tag: scope }));
  assert.deepEqual(run(limits), ['limit:route']);
  assert.deepEqual(run([plugin('limit', { consumer: C }, { tag: 'only-consumer' })]), []);
});

test('instances of other routes and services never apply', () => {
  assert.deepEqual(run([plugin('limit', { route: 'other' }, { tag: 'r' }), plugin('limit', { service: 'other' }, { tag: 's' })]), []);
  assert.deepEqual(run([plugin('limit', { route: R }, { tag: 'r' })], 'route-2'), []);
});

test('PRIORITY order, higher first; equal priorities by name; a disabled instance does not run', () => {
  const plugins = [
    plugin('limit', {}, { tag: 'g' }), plugin('also-900', {}, { tag: 'g' }), plugin('early', {}, { tag: 'g' }),
    plugin('auth', {}, { tag: 'g' }), plugin('early', { route: R }, { tag: 'off' }, false),
  ];
  assert.deepEqual(run(plugins), ['early:g', 'auth:g', 'also-900:g', 'limit:g']);
});

test('the first exit ends the access phase', () => {
  assert.deepEqual(run([plugin('auth', {}, { tag: 'stop', exit: true }), plugin('limit', {}, { tag: 'never' })]), ['auth:stop']);
});

test('a route without plugins compiles to nothing', () => {
  assert.equal(new PluginCombos([], HANDLERS, consumers).forRoute(R, S), undefined);
});

test('an asynchronous hook: the chain resumes after it in order; its exit or rejection ends it', async () => {
  const chain = (wait: string) => new PluginCombos([
    plugin('early', {}, { tag: 'a' }), plugin('auth', {}, { tag: 'waits', wait }), plugin('limit', {}, { tag: 'after' }),
  ], HANDLERS, consumers).forRoute(R, S)!;
  seen.length = 0;
  const passed = runAccessPhase(chain('pass'), new PluginContext('GET', [], ''));
  assert.ok(passed instanceof Promise);
  assert.equal(await passed, undefined);
  assert.deepEqual(seen, ['early:a', 'auth:waits', 'limit:after']);
  seen.length = 0;
  assert.deepEqual(await runAccessPhase(chain('exit'), new PluginContext('GET', [], '')), { status: 429, message: 'later' });
  assert.deepEqual(seen, ['early:a', 'auth:waits']);
  assert.deepEqual(await runAccessPhase(chain('fail'), new PluginContext('GET', [], '')), { status: 500, message: 'An unexpected error occurred' });
});
