// Kong's plugin layout: kong/plugins/<name>/{schema,handler} as plugins/<name>/{schema,handler}.ts.
// This file is the registry of handlers (one line per plugin); plugin-schemas.ts the registry of schemas.
import { ACL_HANDLER } from './acl/handler.ts';
import { BASIC_AUTH_HANDLER } from './basic-auth/handler.ts';
import { KEY_AUTH_HANDLER } from './key-auth/handler.ts';
import { JWT_HANDLER } from './jwt/handler.ts';
import { HMAC_AUTH_HANDLER } from './hmac-auth/handler.ts';
import { IP_RESTRICTION_HANDLER } from './ip-restriction/handler.ts';
import { RATE_LIMITING_HANDLER } from './rate-limiting/handler.ts';
import { REQUEST_SIZE_LIMITING_HANDLER } from './request-size-limiting/handler.ts';
import { REQUEST_TERMINATION_HANDLER } from './request-termination/handler.ts';
import { PROXY_CACHE_HANDLER } from './proxy-cache/handler.ts';
import { RESPONSE_RATELIMITING_HANDLER } from './response-ratelimiting/handler.ts';
import { BOT_DETECTION_HANDLER } from './bot-detection/handler.ts';
import { CORS_HANDLER } from './cors/handler.ts';
import { CORRELATION_ID_HANDLER } from './correlation-id/handler.ts';
import { REDIRECT_HANDLER } from './redirect/handler.ts';
import { RESPONSE_TRANSFORMER_HANDLER } from './response-transformer/handler.ts';
import { REQUEST_TRANSFORMER_HANDLER } from './request-transformer/handler.ts';
import { PROMETHEUS_HANDLER } from './prometheus/handler.ts';
import { HTTP_LOG_HANDLER } from './http-log/handler.ts';
import { FILE_LOG_HANDLER } from './file-log/handler.ts';
import { TCP_LOG_HANDLER } from './tcp-log/handler.ts';
import { UDP_LOG_HANDLER } from './udp-log/handler.ts';
import { OPENTELEMETRY_HANDLER } from './opentelemetry/handler.ts';
import type { PluginHandler } from './plugin-handler.ts';

/** Every implemented plugin's handler, by name. */
export const PLUGIN_HANDLERS: ReadonlyMap<string, PluginHandler> = new Map(
  [
    JWT_HANDLER,
    KEY_AUTH_HANDLER,
    BASIC_AUTH_HANDLER,
    HMAC_AUTH_HANDLER,
    ACL_HANDLER,
    IP_RESTRICTION_HANDLER,
    RATE_LIMITING_HANDLER,
    REQUEST_SIZE_LIMITING_HANDLER,
    REQUEST_TERMINATION_HANDLER,
    PROXY_CACHE_HANDLER,
    RESPONSE_RATELIMITING_HANDLER,
    BOT_DETECTION_HANDLER,
    CORS_HANDLER,
    CORRELATION_ID_HANDLER,
    REDIRECT_HANDLER,
    RESPONSE_TRANSFORMER_HANDLER,
    REQUEST_TRANSFORMER_HANDLER,
    PROMETHEUS_HANDLER,
    HTTP_LOG_HANDLER,
    FILE_LOG_HANDLER,
    TCP_LOG_HANDLER,
    UDP_LOG_HANDLER,
    OPENTELEMETRY_HANDLER,
  ].map((h) => [h.name, h]),
);

/** Schemas, the enabled-plugins setting and Kong's bundled list. */
export { PLUGIN_SCHEMAS, BUNDLED_PLUGINS, KONG_BUNDLED_PLUGINS, parsePluginsSetting } from './plugin-schemas.ts';
/** The per-route compiled plugins, the access phase runner and the response phases. */
export { PluginCombos, runAccessPhase, collectGlobal, type AccessOutcome, type RoutePlugins, type RoutePlugin } from './compile-route-plugins.ts';
export { runHeaderFilter, openBodyFilter, runLogPhase, wantsLog } from './response-phases.ts';
export { ResponseHead, chainTransforms, type BodyTransform } from './response-head.ts';
export { serializeLogEntry, requestHeadLength, RequestLogEntry, type LogEntry } from './log-entry.ts';
export { ConsumerIndex } from './consumer-index.ts';
/** request-size-limiting's refusal, also answered by the proxy when a streamed body crosses the bound. */
export { SIZE_LIMIT_MESSAGE } from './request-size-limiting/handler.ts';
export { setPluginLogger, type PluginLogger } from './plugin-log.ts';
/** A graceful stop sends what the logging plugins' queues hold. */
export { drainLogQueues } from './log-queue.ts';
/** The process's Redis connections of the redis policies (closed with the gateway). */
export { REDIS_COUNTERS, redisSettingsOf } from './redis-counters.ts';
export { PluginContext, type PluginExit, type HeaderEdit, type BodySource } from './plugin-context.ts';
export type { PluginHandler, PluginHooks, AccessHook, HeaderFilterHook, BodyFilterHook, LogHook } from './plugin-handler.ts';
