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
      if (typeof config.login === 'string') ctx.authenticate({ ...consumer, id: config.login }, { identifier: 'x', consumerId: config.login });
      return config.exit === true ? { status: 403, message: 'no' } : undefined;
    },
  }),
});
// A plugin with a log phase when configured so (as correlation-id has a header_filter only with echo_downstream).
const logger: PluginHandler = { name: 'logger', priority: 5, build: (config) => (config.log === true ? { log: () => undefined } : { access: () => undefined }) };
const HANDLERS = new Map([recorder('auth', 1000), recorder('limit', 900), recorder('early', 2000), recorder('also-900', 900), logger].map((h) => [h.name, h]));

function plugin(name: string, scope: { route?: string; service?: string; consumer?: string }, config: Record<string, unknown>, enabled = true): Plugin {
  return {
    id: `${name}-${config.tag as string}`, name, instance_name: null, ...times, config, enabled, tags: null,
    protocols: ['http', 'https'], route: scope.route ? { id: scope.route } : null, service: scope.service ? { id: scope.service } : null, consumer_group: null,
    consumer: scope.consumer ? { id: scope.consumer } : null,
  };
}

function run(plugins: Plugin[], route = R, service = S, index = consumers): string[] {
  seen.length = 0;
  const compiled = new PluginCombos(plugins, HANDLERS, index).forRoute(route, service);
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

// Consumer groups (Kong Gateway's plugin precedence with consumer groups): C is in groups `a`
// and `b`; D in none.
const D = 'consumer-2';
const group = (id: string, name: string) => ({ id, name, tags: null, ...times });
const membership = (consumer: string, groupId: string) => ({ id: `${consumer}-${groupId}`, created_at: 0, consumer: { id: consumer }, consumer_group: { id: groupId } });
const grouped = new ConsumerIndex({
  consumers: [consumer, { ...consumer, id: D, username: 'd' }], keyauth_credentials: [], basicauth_credentials: [], acls: [], jwt_secrets: [], hmacauth_credentials: [],
  consumer_groups: [group('group-b', 'b'), group('group-a', 'a')],
  consumer_group_consumers: [membership(C, 'group-b'), membership(C, 'group-a')],
});
const GROUP_SCOPES = {
  ...ALL,
  'group:a': { group: 'group-a' },
  'group:b': { group: 'group-b' },
  'group+route:a': { group: 'group-a', route: R },
  'group+route:b': { group: 'group-b', route: R },
  'group+service:a': { group: 'group-a', service: S },
  'group+route+service:a': { group: 'group-a', route: R, service: S },
  'consumer on another route': { consumer: C, route: 'other' },
} as const;
type GroupScope = keyof typeof GROUP_SCOPES;
const scoped = (scope: GroupScope): Plugin => {
  const { group: g, ...rest } = { group: undefined, ...GROUP_SCOPES[scope] } as { group?: string; route?: string; service?: string; consumer?: string };
  return { ...plugin('limit', rest, { tag: scope }), consumer_group: g === undefined ? null : { id: g } };
};

// [configured scopes, the instance that runs for C]: consumer+route+service, group+route+service,
// consumer+route, consumer+service, group+route, group+service, route+service, consumer, group,
// route, service, global.
const GROUP_PRECEDENCE: [GroupScope[], GroupScope][] = [
  [['global', 'group:b'], 'group:b'],
  [['route', 'service', 'group:a'], 'group:a'],
  [['consumer', 'group:a'], 'consumer'],
  [['route+service', 'group+route:a'], 'group+route:a'],
  [['route+service', 'group+service:a'], 'group+service:a'],
  [['group+route:a', 'service+consumer'], 'service+consumer'],
  [['route+consumer', 'group+route+service:a'], 'group+route+service:a'],
  [['route+service+consumer', 'group+route+service:a'], 'route+service+consumer'],
  // Two groups at one level: the first by name; a more specific level wins over the name.
  [['group:b', 'group:a'], 'group:a'],
  [['group:a', 'group+route:b'], 'group+route:b'],
  // A consumer some instance names elsewhere still gets its groups' instances here.
  [['consumer on another route', 'group+route:b'], 'group+route:b'],
];

for (const [scopes, expected] of GROUP_PRECEDENCE) {
  test(`precedence with consumer groups: ${scopes.join(', ')} → ${expected}`, () => {
    assert.deepEqual(run([login, ...scopes.map(scoped)], R, S, grouped), ['auth:login', `limit:${expected}`]);
  });
}

test('group-scoped instances apply only to members, and never without a consumer', () => {
  const plugins = [scoped('route'), scoped('group:a'), scoped('group+route+service:a')];
  assert.deepEqual(run([plugin('auth', {}, { tag: 'login', login: D }), ...plugins], R, S, grouped), ['auth:login', 'limit:route']);
  assert.deepEqual(run(plugins, R, S, grouped), ['limit:route']);
  assert.deepEqual(run([scoped('group:a')], R, S, grouped), []);
});

test('the response phases are prepared for a route only when an instance that may run on it has one (a group-scoped one elsewhere does not count)', () => {
  const logAt = (scope: { route?: string }, groupId: string, log: boolean): Plugin => ({ ...plugin('logger', scope, { tag: `${groupId}-${String(log)}`, log }), consumer_group: { id: groupId } });
  const compile = (plugins: Plugin[]) => new PluginCombos(plugins, HANDLERS, grouped).forRoute(R, S);
  // The instance on R has no log phase; the one with a log phase is on another route.
  assert.equal(compile([scoped('route'), logAt({ route: R }, 'group-a', false), logAt({ route: 'other' }, 'group-b', true)])?.downstream, false);
  assert.equal(compile([scoped('route'), logAt({ route: R }, 'group-a', true)])?.downstream, true);
  assert.equal(compile([scoped('route'), logAt({}, 'group-b', true)])?.downstream, true);
});

test("a consumer's group-scoped hooks are the same on every request (worked out once, then kept)", () => {
  const plugins = [login, scoped('route'), scoped('group:b'), scoped('group+route:a')];
  const first = run(plugins, R, S, grouped);
  assert.deepEqual(first, ['auth:login', 'limit:group+route:a']);
  const compiled = new PluginCombos(plugins, HANDLERS, grouped).forRoute(R, S)!;
  for (let i = 0; i < 3; i++) {
    seen.length = 0;
    assert.equal(runAccessPhase(compiled, new PluginContext('GET', [], '')), undefined);
    assert.deepEqual(seen, first);
  }
});
