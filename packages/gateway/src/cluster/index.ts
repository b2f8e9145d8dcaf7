// Health shared by a node's workers (node:cluster IPC, the primary holds the state) and operator
// events across nodes (Redis pub/sub). See docs/gateway-health.md.
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
