// Kong's plugins iterator, resolved at load time (kong/runloop/plugins_iterator.lua): for each
// route, the plugins that may run on it, in PRIORITY order, each with the configuration Kong's
// lookup_cfg would pick. What depends on the consumer (known only once an authentication
// plugin ran) is a ready map by consumer id, or, for consumer groups, a lookup cached per set
// of groups; the request path only looks it up.
import type { Plugin } from '../declarative/types.ts';
import type { ConsumerIndex } from './consumer-index.ts';
import type { PluginHandler, PluginHooks } from './plugin-handler.ts';
import type { PluginContext, PluginExit } from './plugin-context.ts';

/** One plugin on one route: its hooks for requests without a consumer, and per consumer. */
export type RoutePlugin = {
  readonly name: string;
  readonly priority: number;
  /** Undefined when the plugin is configured only for some consumers or consumer groups. */
  readonly base: PluginHooks | undefined;
  /** Consumer id → hooks, for consumers some plugin instance names; undefined when none does. */
  readonly byConsumer: ReadonlyMap<string, PluginHooks> | undefined;
  /**
   * The hooks for a consumer no instance names, by the consumer groups it belongs to; undefined
   * when no instance of this plugin is scoped to a group.
   */
  readonly byGroups: ((consumerId: string) => PluginHooks | undefined) | undefined;
  /** Some hooks this plugin may run with on the route have a header_filter, body_filter or log phase. */
  readonly downstream: boolean;
};

/** A route's compiled plugins; absent for a route without any (it then pays nothing). */
export type RoutePlugins = {
  /** Every plugin that may run on the route, PRIORITY order (Kong's collecting iterator). */
  readonly chain: readonly RoutePlugin[];
  /** The rewrite hooks of globally configured instances (Kong runs rewrite before routing). */
  readonly rewrite: readonly PluginHooks[];
  /**
   * Some instance has a header_filter, body_filter or log hook: the access phase then records
   * each plugin's chosen hooks for them (ctx.collected); otherwise nothing is recorded.
   */
  readonly downstream: boolean;
};

const hasDownstream = (h: PluginHooks | undefined): boolean => h !== undefined && (h.headerFilter !== undefined || h.bodyFilter !== undefined || h.log !== undefined);

// The http subsystem's protocols: a plugin runs if any of its protocols is one of them.
const HTTP_SUBSYSTEM = new Set(['http', 'https', 'grpc', 'grpcs']);

const comboKey = (route: string, service: string, consumer: string, group = ''): string => `${route}:${service}:${consumer}:${group}`;

/** The scopes of Kong's precedence: which of route, service, consumer, consumer group an instance names. */
type Scope = { readonly r: boolean; readonly s: boolean; readonly c: boolean; readonly g: boolean };
const at = (r: boolean, s: boolean, c: boolean, g: boolean): Scope => ({ r, s, c, g });

/**
 * Kong's plugin precedence with consumer groups (developer.konghq.com, plugin scopes): the most
 * specific wins. Without a consumer only the last four levels exist; a consumer without groups
 * skips the group levels. Among several groups of one consumer, the first by name wins a level.
 */
const PRECEDENCE: readonly Scope[] = [
  at(true, true, true, false), // consumer + route + service
  at(true, true, false, true), // consumer group + route + service
  at(true, false, true, false), // consumer + route
  at(false, true, true, false), // consumer + service
  at(true, false, false, true), // consumer group + route
  at(false, true, false, true), // consumer group + service
  at(true, true, false, false), // route + service
  at(false, false, true, false), // consumer
  at(false, false, false, true), // consumer group
  at(true, false, false, false), // route
  at(false, true, false, false), // service
  at(false, false, false, false), // global
];

/** The plugins of one load, grouped as Kong's combos: name → "route:service:consumer:group" → hooks. */
export class PluginCombos {
  readonly #combos = new Map<string, Map<string, PluginHooks>>();
  readonly #handlers: ReadonlyMap<string, PluginHandler>;
  readonly #consumers: ConsumerIndex;

  constructor(plugins: readonly Plugin[], handlers: ReadonlyMap<string, PluginHandler>, consumers: ConsumerIndex) {
    this.#handlers = handlers;
    this.#consumers = consumers;
    for (const plugin of plugins) {
      if (!plugin.enabled || !plugin.protocols.some((p) => HTTP_SUBSYSTEM.has(p))) continue;
      const handler = handlers.get(plugin.name);
      if (handler === undefined) throw new Error(`plugin '${plugin.name}' has no handler`);
      const byKey = this.#combos.get(plugin.name) ?? new Map<string, PluginHooks>();
      this.#combos.set(plugin.name, byKey);
      byKey.set(
        comboKey(plugin.route?.id ?? '', plugin.service?.id ?? '', plugin.consumer?.id ?? '', plugin.consumer_group?.id ?? ''),
        handler.build(plugin.config, consumers, plugin),
      );
    }
  }

  /** Whether any plugin is configured at all. */
  get empty(): boolean {
    return this.#combos.size === 0;
  }

  /** The compiled plugins of a route of `serviceId`, or undefined when none applies. */
  forRoute(routeId: string, serviceId: string): RoutePlugins | undefined {
    const chain: RoutePlugin[] = [];
    for (const [name, combos] of this.#combos) {
      // lookup_cfg: the first level of PRECEDENCE with an instance, for this consumer and its groups.
      const lookup = (consumer: string, groups: readonly string[]): PluginHooks | undefined => {
        for (const l of PRECEDENCE) {
          if (l.c && consumer === '') continue;
          const r = l.r ? routeId : '';
          const s = l.s ? serviceId : '';
          if (!l.g) {
            const hooks = combos.get(comboKey(r, s, l.c ? consumer : ''));
            if (hooks !== undefined) return hooks;
            continue;
          }
          for (const g of groups) {
            const hooks = combos.get(comboKey(r, s, '', g));
            if (hooks !== undefined) return hooks;
          }
        }
        return undefined;
      };
      const groupIdsOf = (consumerId: string): string[] => (this.#consumers.consumerGroups(consumerId) ?? []).map((g) => g.id);
      const base = lookup('', []);
      let byConsumer: Map<string, PluginHooks> | undefined;
      let scopedToGroups = false;
      let groupDownstream = false;
      for (const [key, instance] of combos) {
        const [r = '', s = '', c = '', g = ''] = key.split(':');
        if ((r !== '' && r !== routeId) || (s !== '' && s !== serviceId)) continue;
        if (g !== '') {
          scopedToGroups = true;
          groupDownstream ||= hasDownstream(instance);
        }
        if (c === '' || byConsumer?.has(c)) continue;
        const hooks = lookup(c, groupIdsOf(c));
        if (hooks !== undefined) (byConsumer ??= new Map()).set(c, hooks);
      }
      // A consumer no instance names: its hooks depend only on its groups, worked out on its
      // first request and kept per consumer (consumers come from the configuration), and per
      // set of groups.
      let byGroups: RoutePlugin['byGroups'];
      if (scopedToGroups) {
        const bySet = new Map<string, PluginHooks | undefined>();
        const byId = new Map<string, PluginHooks | undefined>();
        byGroups = (consumerId) => {
          const known = byId.get(consumerId);
          if (known !== undefined || byId.has(consumerId)) return known;
          const groups = groupIdsOf(consumerId);
          let hooks = base;
          if (groups.length > 0) {
            const setKey = groups.join(',');
            if (!bySet.has(setKey)) bySet.set(setKey, lookup('', groups));
            hooks = bySet.get(setKey);
          }
          byId.set(consumerId, hooks);
          return hooks;
        };
      }
      if (base === undefined && byConsumer === undefined && byGroups === undefined) continue;
      const handler = this.#handlers.get(name)!;
      // A group-scoped instance's hooks are known only per request: each one on this route counts.
      const downstream = hasDownstream(base) || [...(byConsumer?.values() ?? [])].some(hasDownstream) || groupDownstream;
      chain.push({ name, priority: handler.priority, base, byConsumer, byGroups, downstream });
    }
    return compiled(chain, this.#combos);
  }

  /**
   * The globally configured plugins, for requests no route matched: Kong runs their
   * header_filter and log phases on its 404 (a global prometheus counts it).
   */
  global(): RoutePlugins | undefined {
    const chain: RoutePlugin[] = [];
    for (const [name, combos] of this.#combos) {
      const base = combos.get(comboKey('', '', ''));
      if (base !== undefined) chain.push({ name, priority: this.#handlers.get(name)!.priority, base, byConsumer: undefined, byGroups: undefined, downstream: hasDownstream(base) });
    }
    return compiled(chain, this.#combos);
  }
}

function compiled(chain: RoutePlugin[], combos: ReadonlyMap<string, ReadonlyMap<string, PluginHooks>>): RoutePlugins | undefined {
  if (chain.length === 0) return undefined;
  // Higher PRIORITY first; equal priorities by name, so the order does not depend on the file.
  chain.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rewrite: PluginHooks[] = [];
  for (const p of chain) {
    const global = combos.get(p.name)?.get(comboKey('', '', ''));
    if (global?.rewrite !== undefined) rewrite.push(global);
  }
  return { chain, rewrite, downstream: chain.some((p) => p.downstream) };
}

// Kong's answer when a plugin throws (kong/init.lua execute_collecting_plugins_iterator).
const UNEXPECTED: PluginExit = { status: 500, message: 'An unexpected error occurred' };

function guarded<R extends PluginExit | undefined | Promise<PluginExit | undefined>>(hook: (ctx: PluginContext) => R, ctx: PluginContext): R | PluginExit {
  try {
    return hook(ctx);
  } catch {
    return UNEXPECTED;
  }
}

/** The access phase's outcome: at once when every hook that ran was synchronous. */
export type AccessOutcome = PluginExit | undefined | Promise<PluginExit | undefined>;

/**
 * Runs the rewrite and access phases: each plugin with the configuration for the consumer known
 * so far; the first exit wins. As Kong's collecting iterator, the plugins after an exit are
 * still collected (their access skipped) so that their header_filter and log phases run on the
 * answer; a throwing plugin becomes Kong's 500.
 */
export function runAccessPhase(plugins: RoutePlugins, ctx: PluginContext): AccessOutcome {
  let exit: PluginExit | undefined;
  for (const hooks of plugins.rewrite) {
    exit = guarded(hooks.rewrite!, ctx);
    if (exit !== undefined) break;
  }
  return runChainFrom(plugins, ctx, 0, exit, plugins.downstream ? (ctx.collected = []) : undefined);
}

// The chain from plugin `start` on; a hook answering with a promise resumes it once settled
// (a rejection is Kong's 500, as a throw).
function runChainFrom(plugins: RoutePlugins, ctx: PluginContext, start: number, exitSoFar: PluginExit | undefined, collected: PluginHooks[] | undefined): AccessOutcome {
  let exit = exitSoFar;
  const chain = plugins.chain;
  for (let i = start; i < chain.length; i++) {
    const plugin = chain[i]!;
    const consumer = ctx.consumer;
    const hooks = consumer === undefined ? plugin.base
      : (plugin.byConsumer?.get(consumer.id) ?? (plugin.byGroups !== undefined ? plugin.byGroups(consumer.id) : plugin.base));
    if (hooks === undefined) continue;
    if (exit === undefined && hooks.access !== undefined) {
      const result = guarded(hooks.access, ctx);
      if (result instanceof Promise) {
        if (collected !== undefined) collected.push(hooks);
        const next = resumeAfter(plugins, ctx, i + 1, collected);
        return result.then(next, () => next(UNEXPECTED));
      }
      exit = result;
    }
    if (collected !== undefined) collected.push(hooks);
    else if (exit !== undefined) return exit;
  }
  return exit;
}

// The chain's continuation once a hook's promise settles. Made by a function rather than as a
// named local: under tsx (esbuild's keepNames) every named closure costs a defineProperty when
// it is created, and this one is created per request on routes with shared counters.
function resumeAfter(plugins: RoutePlugins, ctx: PluginContext, from: number, collected: PluginHooks[] | undefined): (e: PluginExit | undefined) => AccessOutcome {
  return (e) => (e !== undefined && collected === undefined ? e : runChainFrom(plugins, ctx, from, e, collected));
}

/** The hooks a request without a route runs (globals only, no access phase). */
export function collectGlobal(plugins: RoutePlugins, ctx: PluginContext): void {
  if (plugins.downstream) ctx.collected = plugins.chain.map((p) => p.base!);
}
