// Health checks with Kong's semantics: counter model, checkers, active probes, passive reports,
// threshold, admin views and routes. See docs/gateway-health.md.
/** The per-address state machine (Kong's counter model). */
export { applyReport, forcedState, isUp, INITIAL_TARGET_STATE, type CounterKind, type InternalHealth, type TargetCounters, type TargetState } from './target-state.ts';
/** Kong's strict upstream threshold. */
export { balancerHealthy } from './balancer-healthy.ts';
/** Whether an upstream's healthchecks record turns checks on (Kong healthcheckers.lua). */
export { healthchecksOn } from './checks-on.ts';
/** Status lists and limits compiled for O(1) classification. */
export { classifyHttpStatus, compileChecks, type CheckMode, type Classified, type CompiledChecks, type ModeChecks } from './compiled-checks.ts';
/** One upstream's checker. */
export { HealthChecker, type CheckedAddress, type HealthChangeListener, type HealthOutcome } from './health-checker.ts';
/** A node's checkers, rebuilt per configuration with state kept across reloads. */
export { HealthRegistry, HEALTH_RETENTION_MS, addressOf, type HealthRegistryOptions, type PreparedHealth } from './health-registry.ts';
/** Active probing loops of one upstream. */
export { ActiveProber, type ActiveProberOptions, type Probe, type ProbeRequest, type Timers } from './active-prober.ts';
/** The real socket probe (http, https, tcp). */
export { probeTarget, probeRequestText } from './probe-target.ts';
/** What the runtime, proxy and admin use. */
export type { AvailabilityListener, NodeHealth } from './node-health.ts';
/** A node's authoritative health (one process, or a cluster primary). */
export { LocalHealth, type HealthBus, type LocalHealthOptions, type SetStatusEvent, type StateListener } from './local-health.ts';
/** Kong's health JSON views. */
export { balancerHealthView, findTarget, findUpstream, upstreamHealthView, upstreamTargets, type HealthLabel, type HealthReader } from './health-view.ts';
/** The health admin endpoints. */
export { routeHealthRequest, setTargetHealth, upstreamHealth, type HealthRouteDeps, type HealthRouteResult } from './health-routes.ts';
/** Hand-driven timers for tests of time-based health code. */
export { FakeTimers, flushMicrotasks } from './fake-timers.ts';
