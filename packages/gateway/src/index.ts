// @signet/gateway: a Kong-compatible, database-less API gateway.
/** Builds a gateway process's data plane (runtime, proxy listeners with gRPC, stream listeners) from a GatewayConfig. */
export { buildGateway, loadSnapshot, type Gateway, type GatewayDeps } from './build-gateway.ts';
/** The process configuration (Kong's names), validated once at start. */
export { buildGatewayConfig, parseListen, ConfigError, type GatewayConfig, type GatewaySettings, type ListenAddress } from './config.ts';
/** The running configuration: router, balancers, certificates; swapped atomically on reload. */
export { Runtime, type RuntimeOptions, type RuntimeState } from './runtime.ts';
/** The health checker's hook into the data plane, and Kong's passive-report rules over it. */
export type { AttemptOutcome, ProxyHooks } from './proxy/proxy-hooks.ts';
export { passiveHealthHooks } from './proxy/passive-health-hooks.ts';
/** kong.yml → Snapshot. */
export { parseDeclarativeConfig, EMPTY_SNAPSHOT } from './declarative/index.ts';
export type { Snapshot } from './declarative/types.ts';
