import type { Logger } from 'pino';
import { LocalHealth } from '../health/local-health.ts';
import { RedisHealthBus } from './redis-health-bus.ts';

/** The health state a node holds (single process or primary), on Redis when REDIS_URL is set. */
export function localHealthFor(redisUrl: string | undefined, nodeId: string, log: Logger): LocalHealth {
  const bus = redisUrl === undefined
    ? undefined
    : new RedisHealthBus(redisUrl, { nodeId, onError: (e) => log.warn({ err: e.message }, 'redis health bus') });
  return new LocalHealth(bus ? { bus } : {});
}
