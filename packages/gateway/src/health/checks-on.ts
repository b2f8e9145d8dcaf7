import type { Healthchecks, HealthcheckType } from '../declarative/types.ts';

/**
 * Kong healthcheckers.lua:226-236: a checker exists only if an active interval or a passive
 * *unhealthy* threshold is non-zero. Off → every report is a no-op, health shows
 * HEALTHCHECKS_OFF and the healthy/unhealthy endpoints answer 400.
 */
export function healthchecksOn(hc: Healthchecks): boolean {
  const { active, passive } = hc;
  if (
    active.healthy.interval === 0 &&
    active.unhealthy.interval === 0 &&
    passive.unhealthy.tcp_failures === 0 &&
    passive.unhealthy.timeouts === 0 &&
    passive.unhealthy.http_failures === 0
  ) {
    return false;
  }
  // lua-resty-healthcheck `new()` asserts tcp/http/https (check_valid_type), so in Kong a grpc
  // type leaves the upstream unchecked (docs/gateway-health.md, "When checks are on"). Here grpc/grpcs checks are implemented
  // (probe-grpc.ts: grpc.health.v1.Health/Check), as the spec's type list asks.
  return isCheckerType(active.type) && isCheckerType(passive.type);
}

function isCheckerType(type: HealthcheckType): boolean {
  return type === 'tcp' || type === 'http' || type === 'https' || type === 'grpc' || type === 'grpcs';
}
