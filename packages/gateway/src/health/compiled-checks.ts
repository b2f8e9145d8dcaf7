import type { Healthchecks } from '../declarative/types.ts';
import type { CounterKind } from './target-state.ts';

/** Where a report comes from: the two share counters but each has its own limits and lists. */
export type CheckMode = 'active' | 'passive';

/** One mode's limits and status lists, compiled for an O(1) lookup per report. */
export type ModeChecks = {
  /** Index = HTTP status (0-999); 1 = healthy, 2 = unhealthy, 0 = in neither list. */
  readonly statusClass: Uint8Array;
  /** The four classifications, built once: reports on the proxy's hot path allocate nothing. */
  readonly success: Classified;
  readonly http: Classified;
  readonly tcp: Classified;
  readonly timeout: Classified;
};

/** Both modes of an upstream's `healthchecks`, compiled once per configuration. */
export type CompiledChecks = { readonly active: ModeChecks; readonly passive: ModeChecks };

const HEALTHY = 1;
const UNHEALTHY = 2;

function compileMode(
  healthy: { readonly http_statuses: readonly number[]; readonly successes: number },
  unhealthy: {
    readonly http_statuses: readonly number[];
    readonly http_failures: number;
    readonly tcp_failures: number;
    readonly timeouts: number;
  },
): ModeChecks {
  const statusClass = new Uint8Array(1000);
  for (const s of unhealthy.http_statuses) statusClass[s] = UNHEALTHY;
  // healthcheck.lua report_http_status tests the healthy list first: a status in both lists is a success.
  for (const s of healthy.http_statuses) statusClass[s] = HEALTHY;
  return {
    statusClass,
    success: { kind: 'success', limit: healthy.successes },
    http: { kind: 'http', limit: unhealthy.http_failures },
    tcp: { kind: 'tcp', limit: unhealthy.tcp_failures },
    timeout: { kind: 'timeout', limit: unhealthy.timeouts },
  };
}

/** Compiles an upstream's `healthchecks` record. */
export function compileChecks(hc: Healthchecks): CompiledChecks {
  return {
    active: compileMode(hc.active.healthy, hc.active.unhealthy),
    passive: compileMode(hc.passive.healthy, hc.passive.unhealthy),
  };
}

/** A report reduced to the counter it feeds and the limit that applies. */
export type Classified = { readonly kind: CounterKind; readonly limit: number };

/**
 * healthcheck.lua report_http_status: healthy list → success; unhealthy list, or status 0 /
 * unparsable → HTTP failure; anything else is ignored (undefined) and resets nothing.
 */
export function classifyHttpStatus(checks: ModeChecks, status: number): Classified | undefined {
  // `tonumber(status) or 0`: a missing or unparsable status line counts as 0, an HTTP failure.
  const cls = !Number.isInteger(status) || status === 0 ? UNHEALTHY : status > 0 && status < 1000 ? checks.statusClass[status] : 0;
  if (cls === HEALTHY) return checks.success;
  if (cls === UNHEALTHY) return checks.http;
  return undefined;
}
