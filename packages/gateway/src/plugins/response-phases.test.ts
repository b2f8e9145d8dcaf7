// Kong's downstream phases (kong/init.lua): header_filter, body_filter and log run over the
// plugins the access phase collected, in PRIORITY order, also when a plugin answered early;
// rewrite runs only for global instances; a route whose plugins lack them records nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Plugin } from '../declarative/types.ts';
import { ConsumerIndex } from './consumer-index.ts';
import { collectGlobal, PluginCombos, runAccessPhase } from './compile-route-plugins.ts';
import { PluginContext } from './plugin-context.ts';
import type { PluginHandler } from './plugin-handler.ts';
import { chainTransforms, ResponseHead, type BodyTransform } from './response-head.ts';
import { openBodyFilter, runHeaderFilter, runLogPhase } from './response-phases.ts';
import type { LogEntry } from './log-entry.ts';

const consumers = new ConsumerIndex({ consumers: [], keyauth_credentials: [], basicauth_credentials: [], acls: [], jwt_secrets: [], hmacauth_credentials: [] });
const seen: string[] = [];
const upper: BodyTransform = { write: (c) => Buffer.from(c.toString().toUpperCase()), end: () => undefined };

// Each phase records itself; config decides which phases the instance has.
const phased = (name: string, priority: number): PluginHandler => ({
  name,
  priority,
  build: (config) => ({
    ...(config.rewrite === true ? { rewrite: () => void seen.push(`${name}:rewrite`) } : {}),
    access: () => {
      seen.push(`${name}:access`);
      if (config.throws === true) throw new Error('boom');
      return config.exit === true ? { status: 403, message: 'no' } : undefined;
    },
    ...(config.downstream === true ? {
      headerFilter: (_ctx: PluginContext, head: ResponseHead) => { seen.push(`${name}:header_filter`); head.set('X-' + name, String(head.status)); },
      bodyFilter: () => (seen.push(`${name}:body_filter`), name === 'low' ? upper : undefined),
      log: () => void seen.push(`${name}:log`),
    } : {}),
  }),
});
const HANDLERS = new Map([phased('high', 2000), phased('mid', 1000), phased('low', 10)].map((h) => [h.name, h]));
const times = { created_at: 0, updated_at: 0 };
const plugin = (name: string, config: Record<string, unknown>, route?: string): Plugin => ({
  id: name, name, instance_name: null, ...times, config, enabled: true, tags: null, protocols: ['http'], consumer_group: null,
  route: route === undefined ? null : { id: route }, service: null, consumer: null,
});

function request(plugins: Plugin[]): { ctx: PluginContext; exit: unknown; head: ResponseHead } {
  seen.length = 0;
  const compiled = new PluginCombos(plugins, HANDLERS, consumers).forRoute('r', 's')!;
  const ctx = new PluginContext('GET', [], '');
  const exit = runAccessPhase(compiled, ctx);
  const head = new ResponseHead(exit === undefined ? 200 : 403, ['Content-Type', 'text/plain'], exit === undefined ? 'upstream' : 'kong');
  runHeaderFilter(ctx, head);
  openBodyFilter(ctx, head);
  runLogPhase(ctx, {} as LogEntry);
  return { ctx, exit, head };
}

test('every phase in PRIORITY order; header_filter edits the head', () => {
  const { head } = request([plugin('low', { downstream: true }), plugin('high', { downstream: true }), plugin('mid', {})]);
  assert.deepEqual(seen, [
    'high:access', 'mid:access', 'low:access',
    'high:header_filter', 'low:header_filter', 'high:body_filter', 'low:body_filter', 'high:log', 'low:log',
  ]);
  assert.deepEqual(head.getAll('x-high'), ['200']);
});

test('an early exit skips the later access hooks, not the later response phases (Kong collects them all)', () => {
  request([plugin('high', { exit: true }), plugin('mid', { downstream: true }), plugin('low', { downstream: true })]);
  assert.deepEqual(seen, ['high:access', 'mid:header_filter', 'low:header_filter', 'mid:body_filter', 'low:body_filter', 'mid:log', 'low:log']);
});

test('a throwing access hook is Kong\'s 500 and the log phase still runs', () => {
  const { exit } = request([plugin('high', { throws: true }), plugin('low', { downstream: true })]);
  assert.deepEqual(exit, { status: 500, message: 'An unexpected error occurred' });
  assert.ok(seen.includes('low:log'));
});

test('rewrite runs for global instances only, before access', () => {
  request([plugin('high', { rewrite: true }), plugin('mid', { rewrite: true }, 'r')]);
  assert.deepEqual(seen, ['high:rewrite', 'high:access', 'mid:access']);
});

test('a route whose plugins have no response phase collects nothing', () => {
  const { ctx } = request([plugin('high', {})]);
  assert.equal(ctx.collected, undefined);
});

test('requests without a route run the global instances\' response phases', () => {
  seen.length = 0;
  const combos = new PluginCombos([plugin('low', { downstream: true }), plugin('mid', { downstream: true }, 'r')], HANDLERS, consumers);
  const ctx = new PluginContext('GET', [], '');
  collectGlobal(combos.global()!, ctx);
  runLogPhase(ctx, {} as LogEntry);
  assert.deepEqual(seen, ['low:log']);
});

test('body transforms chain in order and flush what they hold at the end', () => {
  let held = '';
  const holdAll: BodyTransform = { write: (c) => ((held += c.toString()), undefined), end: () => Buffer.from(held + '!') };
  const t = chainTransforms([holdAll, upper]);
  assert.equal(t.write(Buffer.from('ab')), undefined);
  assert.equal(t.write(Buffer.from('c')), undefined);
  assert.equal(t.end()?.toString(), 'ABC!');
});

test('ResponseHead: case-insensitive get/set/remove; header injection refused', () => {
  const h = new ResponseHead(200, ['Vary', 'a', 'vary', 'b', 'X', '1'], 'upstream');
  assert.deepEqual(h.getAll('VARY'), ['a', 'b']);
  h.set('VARY', 'c');
  assert.deepEqual(h.headers, ['X', '1', 'VARY', 'c']);
  assert.throws(() => h.set('X', 'a\r\nSet-Cookie: x'));
  assert.throws(() => h.add('Bad Name', 'v'));
  // A name checked once stays valid; an invalid one is refused every time, not remembered.
  assert.throws(() => h.add('Bad Name', 'v'));
  h.add('X-Ok', 'v');
  h.add('X-Ok', 'w');
  assert.deepEqual(h.getAll('x-ok'), ['v', 'w']);
});

test('ResponseHead: names of the same length but different letters are not matched; exact and mixed case are', () => {
  const h = new ResponseHead(200, ['X-Cache-Key', '1', 'x-cache-kez', '2', 'X-CACHE-KEY', '3', 'Content-Type', 'a'], 'upstream');
  assert.equal(h.get('x-Cache-key'), '1');
  h.remove('X-Cache-Key');
  assert.deepEqual(h.headers, ['x-cache-kez', '2', 'Content-Type', 'a']);
  assert.equal(h.has('X-Cache-Key'), false);
  assert.equal(h.get('content-type'), 'a');
});
