// Kong's plugin layout: kong/plugins/<name>/{schema,handler} as plugins/<name>/{schema,handler}.ts.
// This file is the registry of handlers; plugin-schemas.ts the registry of schemas.
import { ACL_HANDLER } from './acl/handler.ts';
import { BASIC_AUTH_HANDLER } from './basic-auth/handler.ts';
import { KEY_AUTH_HANDLER } from './key-auth/handler.ts';
import { JWT_HANDLER } from './jwt/handler.ts';
import { HMAC_AUTH_HANDLER } from './hmac-auth/handler.ts';
import type { PluginHandler } from './plugin-handler.ts';

/** Every implemented plugin's handler, by name. */
export const PLUGIN_HANDLERS: ReadonlyMap<string, PluginHandler> = new Map(
  [JWT_HANDLER, KEY_AUTH_HANDLER, BASIC_AUTH_HANDLER, HMAC_AUTH_HANDLER, ACL_HANDLER].map((h) => [h.name, h]),
);

/** Schemas, the enabled-plugins setting and Kong's bundled list. */
export { PLUGIN_SCHEMAS, BUNDLED_PLUGINS, KONG_BUNDLED_PLUGINS, parsePluginsSetting } from './plugin-schemas.ts';
/** The per-route compiled plugins and the access phase runner. */
export { PluginCombos, runAccessPhase, type RoutePlugins, type RoutePlugin } from './compile-route-plugins.ts';
export { ConsumerIndex } from './consumer-index.ts';
export { PluginContext, type PluginExit } from './plugin-context.ts';
export type { PluginHandler, PluginHooks, AccessHook } from './plugin-handler.ts';
