import type { NodeHealth } from '../health/node-health.ts';
import type { ProxyHooks } from './proxy-hooks.ts';

/**
 * Feeds attempts to passive health checks the way Kong does (kong/runloop/handler.lua log phase, kong/init.lua Kong.balancer): a response reports
 * the upstream's own status, 504 counting as a timeout; a failed attempt that is retried reports
 * a timeout or a tcp failure; the final failed attempt reaches Kong's log phase as 504 (timeout)
 * or 502 (an HTTP status, ignored by the default lists).
 */
export function passiveHealthHooks(health: Pick<NodeHealth, 'reportPassive'>): ProxyHooks {
  return {
    onAttempt(upstream, address, outcome, retried) {
      if (typeof outcome === 'number') {
        health.reportPassive(upstream.name, address.key, outcome === 504 ? 'timeout' : outcome);
      } else if (retried || outcome === 'timeout') {
        health.reportPassive(upstream.name, address.key, outcome);
      } else {
        health.reportPassive(upstream.name, address.key, 502);
      }
    },
  };
}
