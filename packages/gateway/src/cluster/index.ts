// The process layouts of a node (one process, or a node:cluster primary and its workers), the
// messages between them, health shared by the workers (the primary holds the state) and operator
// events across nodes (Redis pub/sub). See docs/gateway-health.md.
/** The layouts `signet-gateway start` picks from. */
export { runSingle } from './run-single.ts';
export { runPrimary } from './primary.ts';
export { runWorker } from './worker.ts';
export type { NodeStart } from './node-start.ts';
/** The configuration and metrics messages between primary and workers. */
export { CONFIG_TAG, isConfigMessage, type ConfigMessage } from './config-messages.ts';
export { METRICS_TAG, isMetricsMessage, type MetricsMessage } from './metrics-messages.ts';
/** The primary's side: applies workers' reports and operator calls, broadcasts state. */
export { serveWorkerHealth, type ServeWorkerHealthOptions } from './serve-worker-health.ts';
/** A worker's mirror of its node's health. */
export { WorkerHealth } from './worker-health.ts';
/** IPC channels: node:cluster's workers from the primary, and the primary from a worker. */
export { clusterWorkerHub, processPrimaryPort, type PrimaryPort, type WorkerHub } from './worker-hub.ts';
/** Operator events across gateway nodes over Redis pub/sub. */
export { RedisHealthBus, HEALTH_CHANNEL, type RedisHealthBusOptions } from './redis-health-bus.ts';
/** The IPC message shapes. */
export { HEALTH_TAG, isHealthMessage, type PrimaryToWorker, type StateEntry, type WorkerToPrimary } from './health-messages.ts';
