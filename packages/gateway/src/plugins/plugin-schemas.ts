// The plugins this gateway implements, by name (one line per plugin), and Kong's own bundled list: what `plugins =
// bundled` means here, and which names deserve "not implemented yet" rather than "unknown".
import type { PluginSchema } from './plugin-schema.ts';
import { ACL_SCHEMA } from './acl/schema.ts';
import { BASIC_AUTH_SCHEMA } from './basic-auth/schema.ts';
import { KEY_AUTH_SCHEMA } from './key-auth/schema.ts';
import { JWT_SCHEMA } from './jwt/schema.ts';
import { HMAC_AUTH_SCHEMA } from './hmac-auth/schema.ts';
import { IP_RESTRICTION_SCHEMA } from './ip-restriction/schema.ts';
import { RATE_LIMITING_SCHEMA } from './rate-limiting/schema.ts';
import { REQUEST_SIZE_LIMITING_SCHEMA } from './request-size-limiting/schema.ts';
import { REQUEST_TERMINATION_SCHEMA } from './request-termination/schema.ts';
import { PROXY_CACHE_SCHEMA } from './proxy-cache/schema.ts';
import { RESPONSE_RATELIMITING_SCHEMA } from './response-ratelimiting/schema.ts';
import { BOT_DETECTION_SCHEMA } from './bot-detection/schema.ts';
import { CORS_SCHEMA } from './cors/schema.ts';
import { CORRELATION_ID_SCHEMA } from './correlation-id/schema.ts';
import { REDIRECT_SCHEMA } from './redirect/schema.ts';
import { RESPONSE_TRANSFORMER_SCHEMA } from './response-transformer/schema.ts';
import { REQUEST_TRANSFORMER_SCHEMA } from './request-transformer/schema.ts';
import { PROMETHEUS_SCHEMA } from './prometheus/schema.ts';
import { HTTP_LOG_SCHEMA } from './http-log/schema.ts';
import { FILE_LOG_SCHEMA } from './file-log/schema.ts';
import { TCP_LOG_SCHEMA } from './tcp-log/schema.ts';
import { UDP_LOG_SCHEMA } from './udp-log/schema.ts';
import { OPENTELEMETRY_SCHEMA } from './opentelemetry/schema.ts';

/** Every implemented plugin's schema, by name. */
export const PLUGIN_SCHEMAS: ReadonlyMap<string, PluginSchema> = new Map(
  [
    JWT_SCHEMA,
    KEY_AUTH_SCHEMA,
    BASIC_AUTH_SCHEMA,
    HMAC_AUTH_SCHEMA,
    ACL_SCHEMA,
    IP_RESTRICTION_SCHEMA,
    RATE_LIMITING_SCHEMA,
    REQUEST_SIZE_LIMITING_SCHEMA,
    REQUEST_TERMINATION_SCHEMA,
    PROXY_CACHE_SCHEMA,
    RESPONSE_RATELIMITING_SCHEMA,
    BOT_DETECTION_SCHEMA,
    CORS_SCHEMA,
    CORRELATION_ID_SCHEMA,
    REDIRECT_SCHEMA,
    RESPONSE_TRANSFORMER_SCHEMA,
    REQUEST_TRANSFORMER_SCHEMA,
    PROMETHEUS_SCHEMA,
    HTTP_LOG_SCHEMA,
    FILE_LOG_SCHEMA,
    TCP_LOG_SCHEMA,
    UDP_LOG_SCHEMA,
    OPENTELEMETRY_SCHEMA,
  ].map((s) => [s.name, s]),
);

/** Kong's bundled plugins (kong/constants.lua), implemented here or not. */
export const KONG_BUNDLED_PLUGINS: readonly string[] = [
  'jwt', 'acl', 'correlation-id', 'cors', 'oauth2', 'tcp-log', 'udp-log', 'file-log', 'http-log', 'key-auth',
  'hmac-auth', 'basic-auth', 'ip-restriction', 'request-transformer', 'response-transformer',
  'request-size-limiting', 'rate-limiting', 'response-ratelimiting', 'syslog', 'loggly', 'datadog', 'ldap-auth',
  'statsd', 'bot-detection', 'aws-lambda', 'request-termination', 'prometheus', 'proxy-cache', 'session', 'acme',
  'grpc-gateway', 'grpc-web', 'pre-function', 'post-function', 'azure-functions', 'zipkin', 'opentelemetry',
  'ai-proxy', 'ai-prompt-decorator', 'ai-prompt-template', 'ai-prompt-guard', 'ai-request-transformer',
  'ai-response-transformer', 'standard-webhooks', 'redirect',
];

/** `plugins = bundled`: every implemented plugin. */
export const BUNDLED_PLUGINS: ReadonlySet<string> = new Set(PLUGIN_SCHEMAS.keys());

/**
 * Kong's `plugins` setting ("bundled", "off", or a comma list that may include "bundled") as the
 * set of enabled names; throws a message naming the first name that cannot be enabled.
 */
export function parsePluginsSetting(value: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const raw of value.split(',')) {
    const name = raw.trim();
    if (name === '' || name === 'off') continue;
    if (name === 'bundled') {
      for (const n of BUNDLED_PLUGINS) out.add(n);
    } else if (PLUGIN_SCHEMAS.has(name)) {
      out.add(name);
    } else if (KONG_BUNDLED_PLUGINS.includes(name)) {
      throw new Error(`plugin '${name}' is bundled with Kong but not implemented by this gateway yet`);
    } else {
      throw new Error(`plugin '${name}' is not installed (this gateway runs only its own plugins: ${[...BUNDLED_PLUGINS].join(', ')})`);
    }
  }
  return out;
}
