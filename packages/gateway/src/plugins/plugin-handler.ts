// The request-time half of a plugin (kong/plugins/<name>/handler.lua): its phases as small
// typed hooks, built once per configuration load for each plugin instance, so the request
// path only calls ready closures.
import type { ConsumerIndex } from './consumer-index.ts';
import type { PluginContext, PluginExit } from './plugin-context.ts';

/**
 * The access phase: may authenticate, edit the upstream request, or answer in the upstream's
 * place (the returned exit ends the chain, as kong.response.error does).
 */
export type AccessHook = (ctx: PluginContext) => PluginExit | undefined;

/** One plugin instance's hooks. Only the phases the implemented plugins need exist so far. */
export type PluginHooks = {
  readonly access?: AccessHook;
};

/** A plugin's handler: builds an instance's hooks from its (validated, defaulted) config. */
export type PluginHandler = {
  readonly name: string;
  /** Kong's PRIORITY: higher runs first. */
  readonly priority: number;
  build(config: Readonly<Record<string, unknown>>, consumers: ConsumerIndex): PluginHooks;
};
