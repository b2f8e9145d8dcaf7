// The `redis` policy's counters (kong/plugins/rate-limiting/policies/init.lua, redis, sync_rate
// -1): every gateway node counts in the Redis the plugin's `redis` record names, so one limit
// holds across nodes. Kong increments each period's counter in its own EVAL (INCR, then EXPIRE
// on the first hit) and reads the usage as the value before its own increment; here the periods
// of one request go in one script call, so a request costs one Redis round trip whatever its
// periods. response-ratelimiting reads its counters (MGET) before proxying and adds what the
// upstream reported (INCRBY, EXPIRE when new) after the response, one round trip each. One
// ioredis connection per distinct Redis setting per process, kept across reloads while some
// plugin still counts there (Runtime.load closes the others).
import { createHash } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Plugin } from '../declarative/types.ts';
import type { CounterAdd, CounterAsk } from './rate-limiting/counter-store.ts';

/** kong/tools/redis/schema.lua's record, as validated and defaulted. */
export type RedisSettings = {
  readonly host: string | null;
  readonly port: number;
  readonly timeout: number;
  readonly username: string | null;
  readonly password: string | null;
  readonly database: number;
  readonly ssl: boolean;
  readonly ssl_verify: boolean;
  readonly server_name: string | null;
};

// KEYS: the counters; ARGV: each one's lifetime in seconds. Returns the values before this hit.
const TAKE_SCRIPT = `local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('INCR', key)
  if v == 1 then redis.call('EXPIRE', key, ARGV[i]) end
  out[i] = v - 1
end
return out`;
// KEYS: the counters; ARGV: each one's increment, then each one's lifetime in seconds.
const ADD_SCRIPT = `local n = #KEYS
for i, key in ipairs(KEYS) do
  local existed = redis.call('EXISTS', key)
  redis.call('INCRBY', key, ARGV[i])
  if existed == 0 then redis.call('EXPIRE', key, ARGV[n + i]) end
end
return n`;

type Script = { readonly text: string; readonly sha: string };
const script = (text: string): Script => ({ text, sha: createHash('sha1').update(text).digest('hex') });
const TAKE = script(TAKE_SCRIPT);
const ADD = script(ADD_SCRIPT);

const present = (s: string | null): s is string => s !== null && s !== '';

/** ioredis options for Kong's settings: AUTH only with a password (username with it), SELECT a non-zero database. */
export function redisOptions(s: RedisSettings): RedisOptions {
  const timeout = s.timeout > 0 ? s.timeout : undefined;
  return {
    host: s.host ?? '127.0.0.1',
    port: s.port,
    db: s.database,
    ...(present(s.password) ? { password: s.password, ...(present(s.username) ? { username: s.username } : {}) } : {}),
    ...(s.ssl ? { tls: { rejectUnauthorized: s.ssl_verify, ...(present(s.server_name) ? { servername: s.server_name } : {}) } } : {}),
    // Kong's timeout covers connect, send and read of each call.
    ...(timeout === undefined ? {} : { connectTimeout: timeout, commandTimeout: timeout }),
    // A command never waits for a later reconnection: it fails, and fault_tolerant decides.
    maxRetriesPerRequest: 0,
    // Reconnect quickly once Redis is back (ioredis's default backs off up to 2 s).
    retryStrategy: (times: number) => Math.min(times * 50, 500),
  };
}

/** Where a process's redis-policy plugins count; one connection per distinct setting. */
export class RedisCounters {
  readonly #clients = new Map<string, Redis>();
  readonly #onError: (error: Error) => void;

  constructor(onError: (error: Error) => void = () => undefined) {
    this.#onError = onError;
  }

  /**
   * Counts this request in every period and resolves with each counter's value before it
   * (refused requests count too, as Kong's realtime redis usage increments before it compares).
   * Rejects when Redis cannot answer: at once while the connection is known to be down, else
   * within the settings' timeout.
   */
  async take(settings: RedisSettings, asks: readonly CounterAsk[]): Promise<number[]> {
    const reply = await this.#run(settings, TAKE, asks.map((a) => a.key), asks.map((a) => a.expireSeconds));
    if (!Array.isArray(reply) || reply.length !== asks.length) throw new Error('unexpected reply from Redis to the rate-limiting script');
    return reply.map(Number);
  }

  /** Each counter's current value (0 when absent), in one MGET. */
  async read(settings: RedisSettings, keys: readonly string[]): Promise<number[]> {
    const values = await this.#ready(settings).mget(...keys);
    return values.map((v) => (v === null ? 0 : Number(v)));
  }

  /** Moves each counter by its `by`; a counter created by it expires its period's length later. */
  async add(settings: RedisSettings, adds: readonly CounterAdd[]): Promise<void> {
    await this.#run(settings, ADD, adds.map((a) => a.key), [...adds.map((a) => a.by), ...adds.map((a) => a.expireSeconds)]);
  }

  async #run(settings: RedisSettings, s: Script, keys: readonly string[], args: readonly number[]): Promise<unknown> {
    const client = this.#ready(settings);
    try {
      return await client.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      // A Redis that has not seen the script yet (first call, restart, SCRIPT FLUSH) gets it whole.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(s.text, keys.length, ...keys, ...args);
    }
  }

  // The connection, unless it is known to be down: then the call fails at once.
  #ready(settings: RedisSettings): Redis {
    const client = this.#client(settings);
    const state = client.status;
    if (state === 'reconnecting' || state === 'close' || state === 'end') {
      throw new Error(`Redis ${settings.host ?? ''}:${settings.port} is unreachable (connection ${state})`);
    }
    return client;
  }

  /**
   * Closes the connections no plugin of the running configuration uses any more (a reload
   * removed the plugin or pointed it elsewhere). A request still counting on one finishes first:
   * QUIT is queued after the commands already sent.
   */
  retain(inUse: Iterable<RedisSettings>): void {
    const keep = new Set<string>();
    for (const settings of inUse) keep.add(JSON.stringify(settings));
    for (const [key, client] of this.#clients) {
      if (keep.has(key)) continue;
      this.#clients.delete(key);
      if (client.status === 'ready') client.quit().catch(() => client.disconnect());
      else client.disconnect();
    }
  }

  /** Closes every connection (the process is stopping). */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled(clients.map(async (c) => {
      if (c.status === 'ready') await c.quit();
      else c.disconnect();
    }));
  }

  #client(settings: RedisSettings): Redis {
    const key = JSON.stringify(settings);
    let client = this.#clients.get(key);
    if (client === undefined) {
      client = new Redis(redisOptions(settings));
      client.on('error', this.#onError);
      this.#clients.set(key, client);
    }
    return client;
  }
}

/** The plugins that count in Redis: their `redis` records, as the handlers got them. */
export function redisSettingsOf(plugins: readonly Plugin[]): RedisSettings[] {
  const out: RedisSettings[] = [];
  for (const p of plugins) {
    if (!p.enabled || (p.name !== 'rate-limiting' && p.name !== 'response-ratelimiting')) continue;
    const config = p.config as { readonly policy?: string; readonly redis?: RedisSettings };
    if (config.policy === 'redis' && config.redis !== undefined) out.push(config.redis);
  }
  return out;
}

/**
 * The process's redis counters: connection errors are not logged here (ioredis reports every
 * reconnection attempt); each request that cannot count logs its own failure, as Kong does.
 */
export const REDIS_COUNTERS = new RedisCounters();
