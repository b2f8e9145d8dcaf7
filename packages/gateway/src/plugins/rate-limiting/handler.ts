// kong/plugins/rate-limiting/handler.lua with the `local` and `redis` policies
// (policies/init.lua): each configured period counts requests per identifier in a window on the
// UTC calendar; a request that finds any period exhausted is refused with
// error_code/error_message. Kong's RateLimit-* and X-RateLimit-* headers go on every answer
// unless hide_client_headers. When Redis cannot answer, fault_tolerant lets the request through
// without headers (and logs), otherwise the request fails with Kong's 500.
import type { Plugin } from '../../declarative/types.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { localCounters } from './local-counters.ts';
import { REDIS_COUNTERS, type RedisSettings } from '../redis-counters.ts';
import { pluginLog } from '../plugin-log.ts';
import type { Period } from './periods.ts';
import { RateLimitPlan, type RateLimitUsage } from './rate-limit-plan.ts';
import { RATE_LIMITING_SCHEMA } from './schema.ts';
import type { ConsumerIndex } from '../consumer-index.ts';

type RateLimitingConfig = Readonly<Record<Period, number | null>> & {
  readonly limit_by: 'consumer' | 'consumer-group' | 'credential' | 'ip' | 'service' | 'header' | 'path';
  readonly header_name: string | null;
  readonly path: string | null;
  readonly hide_client_headers: boolean;
  readonly error_code: number;
  readonly error_message: string;
  readonly policy: 'local' | 'redis';
  readonly fault_tolerant: boolean;
  readonly redis: RedisSettings;
};

// Kong's key for a plugin without a route or service (policies/init.lua EMPTY_UUID).
const EMPTY_UUID = '00000000-0000-0000-0000-000000000000';
const SHARED_KEY = 'rate-limiting';

// Kong's get_identifier: the chosen entity, else the client address. A consumer group is the
// instance's own group when it is scoped to one, else the consumer's first group by name (the
// one Kong's precedence picks).
function identifier(conf: RateLimitingConfig, ctx: PluginContext, consumers: ConsumerIndex, group: string | undefined): string {
  let id: string | undefined;
  switch (conf.limit_by) {
    case 'consumer-group': id = ctx.consumer === undefined ? undefined : (group ?? consumers.consumerGroups(ctx.consumer.id)?.[0]?.id); break;
    case 'service': id = ctx.serviceId; break;
    case 'consumer': id = ctx.consumer?.id ?? ctx.credential?.identifier; break;
    case 'credential': id = ctx.credential?.identifier; break;
    case 'header': id = ctx.firstHeader(conf.header_name!); break;
    case 'path': {
      const q = ctx.target.indexOf('?');
      const path = q === -1 ? ctx.target : ctx.target.slice(0, q);
      if (path === conf.path) id = path;
      break;
    }
    case 'ip': break;
  }
  return id ?? ctx.clientIp;
}

/** rate-limiting, PRIORITY 910. */
export const RATE_LIMITING_HANDLER: PluginHandler = {
  name: RATE_LIMITING_SCHEMA.name,
  priority: RATE_LIMITING_SCHEMA.priority,
  build(config, consumers, plugin?: Plugin) {
    const conf = config as RateLimitingConfig;
    // Kong keys counters by the plugin's own route and service, so two instances never share one.
    const plan = new RateLimitPlan((p) => conf[p], `${plugin?.route?.id ?? EMPTY_UUID}:${plugin?.service?.id ?? EMPTY_UUID}`);
    const refused: PluginExit = { status: conf.error_code, message: conf.error_message };
    const group = plugin?.consumer_group?.id;
    const headers = !conf.hide_client_headers;
    const verdict = (ctx: PluginContext, usages: readonly number[], starts: readonly number[], now: number): PluginExit | undefined => {
      if (headers) (ctx.shared ??= {})[SHARED_KEY] = { usages, starts, now } satisfies RateLimitUsage;
      return plan.stopAt(usages) === -1 ? undefined : refused;
    };
    // handler.lua: a data store that fails is logged; fault_tolerant proxies without headers.
    const failed = (err: unknown): undefined => {
      pluginLog().error({ plugin: 'rate-limiting', err: err instanceof Error ? err.message : String(err) }, 'failed to get usage');
      if (!conf.fault_tolerant) throw err;
      return undefined;
    };
    const redis = conf.redis;
    return {
      access(ctx) {
        const now = Date.now();
        const starts = plan.starts(now);
        const asks = plan.asks(identifier(conf, ctx, consumers, group), starts);
        if (conf.policy === 'redis') return REDIS_COUNTERS.take(redis, asks).then((u) => verdict(ctx, u, starts, now), failed);
        const usages = localCounters().take(asks);
        return usages instanceof Promise ? usages.then((u) => verdict(ctx, u, starts, now)) : verdict(ctx, usages, starts, now);
      },
      // The answer, the upstream's or the refusal, carries the headers access computed.
      headerFilter(ctx, head) {
        const usage = ctx.shared?.[SHARED_KEY] as RateLimitUsage | undefined;
        if (usage !== undefined) plan.setHeaders(head, usage);
      },
    };
  }
};
