// kong/plugins/response-ratelimiting/{handler,access,header_filter,log}.lua: limits on named
// counters that the upstream moves itself, by answering with `X-Kong-Limit: video=1, image=2`
// (header_name). Access reads each counter (local: the node's, through the primary; redis: MGET)
// and tells the upstream what remains (X-RateLimit-Remaining-<name>); block_on_first_violation
// refuses a request once any counter is used up. header_filter reads the upstream's report, sends
// X-RateLimit-Limit/Remaining-<name>-<period>, removes the report header and turns the answer into
// a bodiless 429 when a used-up counter was asked for more; the log phase then counts the report.
import type { Plugin } from '../../declarative/types.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { pluginLog } from '../plugin-log.ts';
import { REDIS_COUNTERS, type RedisSettings } from '../redis-counters.ts';
import type { CounterAdd } from '../rate-limiting/counter-store.ts';
import { localCounters } from '../rate-limiting/local-counters.ts';
import { EXPIRATION, PERIODS, windowStart, type Period } from '../rate-limiting/periods.ts';
import type { BodyTransform } from '../response-head.ts';
import { RESPONSE_RATELIMITING_SCHEMA } from './schema.ts';
import { parseLimitHeader } from './parse-limit-header.ts';

type Config = {
  readonly header_name: string;
  readonly limit_by: 'consumer' | 'credential' | 'ip';
  readonly policy: 'local' | 'redis';
  readonly fault_tolerant: boolean;
  readonly redis: RedisSettings;
  readonly block_on_first_violation: boolean;
  readonly hide_client_headers: boolean;
  readonly limits: Readonly<Record<string, Readonly<Partial<Record<Period, number | null>>>>>;
};

/** One configured (limit name, period) with its counter for this request. */
type Slot = { readonly name: string; readonly period: Period; readonly limit: number; readonly key: string };

/** What access leaves for the later phases (Kong's kong.ctx.plugin). */
type State = { readonly slots: readonly Slot[]; readonly usages: readonly number[]; increments?: Map<string, number>; stop?: boolean };

const EMPTY_UUID = '00000000-0000-0000-0000-000000000000';
const SHARED_KEY = 'response-ratelimiting';
const TOO_MANY = 429;

// access.lua get_identifier: the consumer, else the credential, else the client address.
function identifier(conf: Config, ctx: PluginContext): string {
  const id = conf.limit_by === 'consumer' ? (ctx.consumer?.id ?? ctx.credential?.identifier)
    : conf.limit_by === 'credential' ? ctx.credential?.identifier : undefined;
  return id ?? ctx.clientIp;
}

// Drops the upstream's body: Kong's kong.response.exit(429) in header_filter sends none.
const NO_BODY: BodyTransform = { write: () => undefined, end: () => undefined };

/** response-ratelimiting, PRIORITY 900. */
export const RESPONSE_RATELIMITING_HANDLER: PluginHandler = {
  name: RESPONSE_RATELIMITING_SCHEMA.name,
  priority: RESPONSE_RATELIMITING_SCHEMA.priority,
  build(config, _consumers, plugin?: Plugin) {
    const conf = config as Config;
    const names = Object.keys(conf.limits);
    const configured = names.flatMap((name) => PERIODS.filter((p) => typeof conf.limits[name]![p] === 'number').map((period) => ({ name, period })));
    // policies/init.lua get_local_key: the plugin's own route and service.
    const scope = `${plugin?.route?.id ?? EMPTY_UUID}:${plugin?.service?.id ?? EMPTY_UUID}`;
    const counters = localCounters;
    const read = (keys: readonly string[]): readonly number[] | Promise<readonly number[]> =>
      conf.policy === 'redis' ? REDIS_COUNTERS.read(conf.redis, keys) : counters().read(keys);

    const decide = (ctx: PluginContext, slots: readonly Slot[], usages: readonly number[]): PluginExit | undefined => {
      // Per name: the smallest remaining of its periods goes to the upstream.
      for (const name of names) {
        let remaining: number | undefined;
        slots.forEach((s, i) => {
          if (s.name !== name) return;
          const left = s.limit - usages[i]!;
          if (remaining === undefined || left < remaining) remaining = left;
        });
        // Kong compares with 0 exactly: a counter pushed below it by a large report does not block.
        if (conf.block_on_first_violation && slots.some((s, i) => s.name === name && s.limit - usages[i]! === 0)) {
          return { status: TOO_MANY, message: `API rate limit exceeded for '${name}'` };
        }
        ctx.setHeader(`X-RateLimit-Remaining-${name}`, String(remaining));
      }
      (ctx.shared ??= {})[SHARED_KEY] = { slots, usages } satisfies State;
      return undefined;
    };
    const failed = (err: unknown): undefined => {
      pluginLog().error({ plugin: 'response-ratelimiting', err: err instanceof Error ? err.message : String(err) }, 'failed to get usage');
      if (!conf.fault_tolerant) throw err;
      return undefined;
    };

    return {
      access(ctx) {
        const now = Date.now();
        const id = identifier(conf, ctx);
        const slots: Slot[] = configured.map(({ name, period }) => ({
          name, period, limit: conf.limits[name]![period]!,
          key: `response-ratelimit:${scope}:${id}:${windowStart(period, now)}:${name}:${period}`,
        }));
        let usages: readonly number[] | Promise<readonly number[]>;
        try {
          usages = read(slots.map((s) => s.key));
        } catch (err) {
          return failed(err);
        }
        return usages instanceof Promise ? usages.then((u) => decide(ctx, slots, u), failed) : decide(ctx, slots, usages);
      },
      headerFilter(ctx, head) {
        const state = ctx.shared?.[SHARED_KEY] as State | undefined;
        // Without usage (access failed or refused), the report is left as it is, as in Kong.
        if (state === undefined) return;
        const increments = head.source === 'upstream' ? parseLimitHeader(head.getAll(conf.header_name), conf.limits) : new Map<string, number>();
        state.increments = increments;
        let stop = false;
        state.slots.forEach((s, i) => {
          const remaining = s.limit - state.usages[i]!;
          const increment = increments.get(s.name) ?? 0;
          if (!conf.hide_client_headers) {
            head.set(`X-RateLimit-Limit-${s.name}-${s.period}`, String(s.limit));
            head.set(`X-RateLimit-Remaining-${s.name}-${s.period}`, String(Math.max(0, remaining - increment)));
          }
          if (increment > 0 && remaining <= 0) stop = true;
        });
        head.remove(conf.header_name);
        if (stop) {
          // The upstream's answer is replaced by a bodiless 429, and its report is not counted.
          state.stop = true;
          head.status = TOO_MANY;
        }
      },
      bodyFilter(ctx) {
        return (ctx.shared?.[SHARED_KEY] as State | undefined)?.stop === true ? NO_BODY : undefined;
      },
      log(ctx) {
        const state = ctx.shared?.[SHARED_KEY] as State | undefined;
        if (state === undefined || state.stop === true || state.increments === undefined) return;
        const adds: CounterAdd[] = [];
        for (const s of state.slots) {
          const by = state.increments.get(s.name);
          if (by !== undefined && by !== 0) adds.push({ key: s.key, by, expireSeconds: EXPIRATION[s.period] });
        }
        if (adds.length === 0) return;
        if (conf.policy === 'local') {
          counters().add(adds);
          return;
        }
        REDIS_COUNTERS.add(conf.redis, adds).catch((err: unknown) => {
          pluginLog().error({ plugin: 'response-ratelimiting', err: err instanceof Error ? err.message : String(err) }, 'failed to increment usage');
        });
      },
    };
  },
};
