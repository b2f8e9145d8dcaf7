// The request-time half of a plugin (kong/plugins/<name>/handler.lua): its phases as small
// typed hooks, built once per configuration load for each plugin instance, so the request
// path only calls ready closures. A plugin defines only the phases it has; a route whose
// plugins have none of the response phases pays nothing for them (compile-route-plugins.ts).
import type { ConsumerIndex } from './consumer-index.ts';
import type { Plugin } from '../declarative/types.ts';
import type { PluginContext, PluginExit } from './plugin-context.ts';
import type { BodyTransform, ResponseHead } from './response-head.ts';
import type { LogEntry } from './log-entry.ts';

/**
 * The rewrite phase: as access, always synchronous.
 */
export type RewriteHook = (ctx: PluginContext) => PluginExit | undefined;

/**
 * The access phase: may authenticate, edit the upstream request, or answer in the upstream's
 * place (the returned exit ends the chain, as kong.response.error does). A hook that must ask
 * another process (rate-limiting's shared counters) returns a promise; the others stay
 * synchronous, and a chain of synchronous hooks never waits.
 */
export type AccessHook = (ctx: PluginContext) => PluginExit | undefined | Promise<PluginExit | undefined>;

/**
 * Kong's header_filter: the response head before it is sent (the upstream's, or the gateway's
 * own answer), to edit its status and headers.
 */
export type HeaderFilterHook = (ctx: PluginContext, head: ResponseHead) => void;

/**
 * Kong's body_filter, as a streaming transform opened once per response after header_filter:
 * undefined when this response's body is left alone (it then streams untouched).
 */
export type BodyFilterHook = (ctx: PluginContext, head: ResponseHead) => BodyTransform | undefined;

/** Kong's log phase: after the response went out (or the client left); must not throw nor block. */
export type LogHook = (ctx: PluginContext, entry: LogEntry) => void;

/** One plugin instance's hooks, Kong's phases in the order they run. */
export type PluginHooks = {
  /** Kong runs rewrite before routing: only globally configured instances get it. */
  readonly rewrite?: RewriteHook;
  readonly access?: AccessHook;
  readonly headerFilter?: HeaderFilterHook;
  readonly bodyFilter?: BodyFilterHook;
  readonly log?: LogHook;
};

/** A plugin's handler: builds an instance's hooks from its (validated, defaulted) config. */
export type PluginHandler = {
  readonly name: string;
  /** Kong's PRIORITY: higher runs first. */
  readonly priority: number;
  /** `plugin` is the instance itself (its id and the route/service it is set on). */
  build(config: Readonly<Record<string, unknown>>, consumers: ConsumerIndex, plugin?: Plugin): PluginHooks;
};
