// The node's REDIS_URL as the Redis of rate-limiting and response-ratelimiting instances with
// policy `redis` that name none: Kong requires `redis.host` there; a gateway started with
// REDIS_URL fills the connection fields the plugin leaves unset from it before validation, so
// every node sharing that Redis shares the limits without repeating it in kong.yml. A plugin
// that names its own host is left as written. Without REDIS_URL, Kong's "required field missing".
import type { Input } from './schema.ts';

const REDIS_POLICY_PLUGINS = new Set(['rate-limiting', 'response-ratelimiting']);

/** The `redis` record fields a redis:// or rediss:// URL gives. */
export type RedisUrlFields = {
  readonly host: string;
  readonly port: number;
  readonly database: number;
  readonly ssl: boolean;
  readonly username?: string;
  readonly password?: string;
};

/** Reads REDIS_URL (redis://[user:password@]host[:port][/database], rediss:// for TLS); throws a message naming what is wrong. */
export function redisUrlFields(url: string): RedisUrlFields {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`'${url}' is not a URL (expected redis://host:port/database)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`expected redis:// or rediss://, got ${u.protocol}//`);
  if (u.hostname === '') throw new Error('no host');
  const path = u.pathname.replace(/^\//, '');
  if (!/^\d*$/.test(path)) throw new Error(`database '${path}' is not a number`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 6379 : Number(u.port),
    database: path === '' ? 0 : Number(path),
    ssl: u.protocol === 'rediss:',
    ...(u.username === '' ? {} : { username: decodeURIComponent(u.username) }),
    ...(u.password === '' ? {} : { password: decodeURIComponent(u.password) }),
  };
}

const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);

// A plugin entry whose redis policy names no host (in `redis.host` or the redis_host shorthand).
function wantsDefault(plugin: Input): boolean {
  if (typeof plugin.name !== 'string' || !REDIS_POLICY_PLUGINS.has(plugin.name)) return false;
  const config = plugin.config;
  if (!isRecord(config) || config.policy !== 'redis') return false;
  const redis = isRecord(config.redis) ? config.redis : {};
  return (redis.host === undefined || redis.host === null) && config.redis_host === undefined;
}

function fill(plugin: Input, fields: RedisUrlFields): Input {
  const config = plugin.config as Input;
  const redis = isRecord(config.redis) ? config.redis : {};
  const filled: Input = { ...redis };
  for (const [k, v] of Object.entries(fields)) if (filled[k] === undefined && config[`redis_${k}`] === undefined) filled[k] = v;
  return { ...plugin, config: { ...config, redis: filled } };
}

/** The declarative input with REDIS_URL's fields filled into every redis-policy plugin naming no host (nested ones too). */
export function applyRedisUrl(input: unknown, fields: RedisUrlFields): unknown {
  if (Array.isArray(input)) return input.map((v) => applyRedisUrl(v, fields));
  if (!isRecord(input)) return input;
  const out: Input = {};
  for (const [k, v] of Object.entries(input)) {
    out[k] = k === 'plugins' && Array.isArray(v)
      ? v.map((p) => (isRecord(p) && wantsDefault(p) ? fill(applyRedisUrl(p, fields) as Input, fields) : applyRedisUrl(p, fields)))
      : applyRedisUrl(v, fields);
  }
  return out;
}
