import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.ts';

/** How a primary passes its node id to the workers it forks. */
export const NODE_ID_ENV = 'SIGNET_NODE_ID';

/** What every process layout (single, primary, worker) starts from: validated once by the cli. */
export type NodeStart = {
  readonly config: GatewayConfig;
  readonly log: Logger;
  /** REDIS_URL: operator health events shared across nodes; undefined → this node only. */
  readonly redisUrl: string | undefined;
  /** Started by npm start's supervisor: stop when it is gone. */
  readonly supervised: boolean;
  /** KONG_PROXY_ACCESS_LOG set to anything but `off`: one JSON line per request on stdout. */
  readonly accessLog: boolean;
  /** This node's id (Kong's node_id): new at each start; a worker gets its primary's. */
  readonly nodeId: string;
  /**
   * The CPUs of each worker slot (nginx_main_worker_cpu_affinity), checked against the CPUs the
   * gateway may use before any worker starts; absent, the scheduler places the workers.
   */
  readonly workerCpus?: readonly (readonly number[])[];
};
