/**
 * The health state of one target address, and Kong's counter model over it.
 *
 * Source: lua-resty-healthcheck `lib/resty/healthcheck.lua` (`incr_counter`,
 * `set_target_status`); docs/gateway-health.md, "The counter model". Active and passive reports share
 * these four counters; only the limits differ (the caller passes the one that applies).
 */

/** lua-resty-healthcheck's internal states; the `mostly_*` ones are on the way to the other side. */
export type InternalHealth = 'healthy' | 'mostly_healthy' | 'mostly_unhealthy' | 'unhealthy';

/** The four counters Kong packs into one shm integer. */
export type CounterKind = 'success' | 'http' | 'tcp' | 'timeout';

export type TargetCounters = {
  readonly success: number;
  readonly http: number;
  readonly tcp: number;
  readonly timeout: number;
};

/** One address's health: its internal state and its counters. Immutable. */
export type TargetState = {
  readonly health: InternalHealth;
  readonly counters: TargetCounters;
};

const ZERO: TargetCounters = Object.freeze({ success: 0, http: 0, tcp: 0, timeout: 0 });

/** A new address starts healthy with zeroed counters (Kong `add_target`). */
export const INITIAL_TARGET_STATE: TargetState = Object.freeze({ health: 'healthy', counters: ZERO });

/** `healthy` and `mostly_healthy` take traffic (healthcheck.lua `get_target_status`). */
export function isUp(health: InternalHealth): boolean {
  return health === 'healthy' || health === 'mostly_healthy';
}

/**
 * Applies one report to a state and returns the next state (the same object when nothing
 * changes, so callers can detect no-ops with `===`).
 *
 * - limit 0 → complete no-op: not even the other counters are reset;
 * - a fully healthy target ignores successes, a fully unhealthy one ignores failures;
 * - a success clears the three failure counters; any failure clears only the success counter;
 * - reaching the limit flips the state; a first failure on `healthy` gives `mostly_healthy`,
 *   a first success on `unhealthy` gives `mostly_unhealthy`.
 */
export function applyReport(state: TargetState, kind: CounterKind, limit: number): TargetState {
  if (limit === 0) return state;
  const want: InternalHealth = kind === 'success' ? 'healthy' : 'unhealthy';
  if (state.health === want) return state;

  const c = state.counters;
  const counters: TargetCounters =
    kind === 'success'
      ? { success: c.success + 1, http: 0, tcp: 0, timeout: 0 }
      : { success: 0, http: c.http, tcp: c.tcp, timeout: c.timeout, [kind]: c[kind] + 1 };

  let health = state.health;
  if (counters[kind] >= limit) health = want;
  else if (state.health === 'healthy' && counters.http + counters.tcp + counters.timeout > 0) health = 'mostly_healthy';
  else if (state.health === 'unhealthy' && counters.success > 0) health = 'mostly_unhealthy';
  return { health, counters };
}

/** Manual `PUT …/healthy|unhealthy`: all four counters to 0, state set at once (Kong `set_target_status`). */
export function forcedState(healthy: boolean): TargetState {
  return { health: healthy ? 'healthy' : 'unhealthy', counters: ZERO };
}
