// Kong's plugins iterator, resolved at load time (kong/runloop/plugins_iterator.lua): for each
// route, the plugins that may run on it, in PRIORITY order, each with the configuration Kong's
// lookup_cfg would pick. What depends on the consumer (known only once an authentication
// plugin ran) is a ready map by consumer id; the request path only looks it up.
import type { Plugin } from '../declarative/types.ts';
import type { ConsumerIndex } from './consumer-index.ts';
import type { PluginHandler, PluginHooks } from './plugin-handler.ts';
import type { PluginContext, PluginExit } from './plugin-context.ts';

/** One plugin on one route: its hooks for requests without a consumer, and per consumer. */
export type RoutePlugin = {
  readonly name: string;
  readonly priority: number;
  /** Undefined when the plugin is configured only for some consumers. */
  readonly base: PluginHooks | undefined;
  /** Consumer id → hooks, for consumers some plugin instance names; undefined when none does. */
  readonly byConsumer: ReadonlyMap<string, PluginHooks> | undefined;
};

/** A route's compiled plugins; absent for a route without any (it then pays nothing). */
export type RoutePlugins = { readonly access: readonly RoutePlugin[] };

// The http subsystem's protocols: a plugin runs if any of its protocols is one of them.
const HTTP_SUBSYSTEM = new Set(['http', 'https', 'grpc', 'grpcs']);

const comboKey = (route: string, service: string, consumer: string): string => `${route}:${service}:${consumer}`;

/** The plugins of one load, grouped as Kong's combos: name → "route:service:consumer" → hooks. */
export class PluginCombos {
  readonly #combos = new Map<string, Map<string, PluginHooks>>();
  readonly #handlers: ReadonlyMap<string, PluginHandler>;

  constructor(plugins: readonly Plugin[], handlers: ReadonlyMap<string, PluginHandler>, consumers: ConsumerIndex) {
    this.#handlers = handlers;
    for (const plugin of plugins) {
      if (!plugin.enabled || !plugin.protocols.some((p) => HTTP_SUBSYSTEM.has(p))) continue;
      const handler = handlers.get(plugin.name);
      if (handler === undefined) throw new Error(`plugin '${plugin.name}' has no handler`);
      const byKey = this.#combos.get(plugin.name) ?? new Map<string, PluginHooks>();
      this.#combos.set(plugin.name, byKey);
      byKey.set(comboKey(plugin.route?.id ?? '', plugin.service?.id ?? '', plugin.consumer?.id ?? ''), handler.build(plugin.config, consumers));
    }
  }

  /** Whether any plugin is configured at all. */
  get empty(): boolean {
    return this.#combos.size === 0;
  }

  /** The compiled plugins of a route of `serviceId`, or undefined when none applies. */
  forRoute(routeId: string, serviceId: string): RoutePlugins | undefined {
    const access: RoutePlugin[] = [];
    for (const [name, combos] of this.#combos) {
      const at = (r: string, s: string, c: string): PluginHooks | undefined => combos.get(comboKey(r, s, c));
      // lookup_cfg without a consumer: route+service, route, service, global.
      const base = at(routeId, serviceId, '') ?? at(routeId, '', '') ?? at('', serviceId, '') ?? at('', '', '');
      let byConsumer: Map<string, PluginHooks> | undefined;
      for (const key of combos.keys()) {
        const [r = '', s = '', c = ''] = key.split(':');
        if (c === '' || (r !== '' && r !== routeId) || (s !== '' && s !== serviceId) || byConsumer?.has(c)) continue;
        // lookup_cfg with a consumer: route+service+consumer, route+consumer, service+consumer,
        // route+service, consumer, route, service, global.
        const hooks = at(routeId, serviceId, c) ?? at(routeId, '', c) ?? at('', serviceId, c) ?? at(routeId, serviceId, '')
          ?? at('', '', c) ?? at(routeId, '', '') ?? at('', serviceId, '') ?? at('', '', '');
        if (hooks !== undefined) (byConsumer ??= new Map()).set(c, hooks);
      }
      if (base === undefined && byConsumer === undefined) continue;
      const handler = this.#handlers.get(name)!;
      access.push({ name, priority: handler.priority, base, byConsumer });
    }
    if (access.length === 0) return undefined;
    // Higher PRIORITY first; equal priorities by name, so the order does not depend on the file.
    access.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { access };
  }
}

/** Runs the access phase: each plugin with the configuration for the consumer known so far; the first exit wins. */
export function runAccessPhase(plugins: RoutePlugins, ctx: PluginContext): PluginExit | undefined {
  for (const plugin of plugins.access) {
    const consumer = ctx.consumer;
    const hooks = consumer !== undefined && plugin.byConsumer !== undefined ? (plugin.byConsumer.get(consumer.id) ?? plugin.base) : plugin.base;
    const exit = hooks?.access?.(ctx);
    if (exit !== undefined) return exit;
  }
  return undefined;
}
