// `signet-gateway start`: settings from flags and KONG_* env (validated once), the configuration
// loaded, then one of the process layouts in cluster/: one process (--workers 1), or a
// node:cluster primary with proxy workers. Stops cleanly on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { loadSnapshot } from '../build-gateway.ts';
import type { CommandIo } from '../cli.ts';
import { NODE_ID_ENV, type NodeStart } from '../cluster/node-start.ts';
import { runPrimary } from '../cluster/primary.ts';
import { watchProcessFaults } from '../cluster/process-faults.ts';
import { runSingle } from '../cluster/run-single.ts';
import { runWorker } from '../cluster/worker.ts';
import { buildGatewayConfig, ConfigError, type GatewayConfig } from '../config.ts';
import type { Snapshot } from '../declarative/types.ts';
import { GatewayError } from '../errors.ts';
import { buildReusePortAddon } from '../listen/reuse-port-addon.ts';
import { readStartSettings, type StartSettings } from './read-start-settings.ts';

/** `signet-gateway start [--config FILE] [--proxy-listen L] [--admin-listen L] [--workers N] [--ssl-cert F --ssl-cert-key F]` */
export async function start(args: readonly string[], io: CommandIo): Promise<number> {
  let settings: StartSettings;
  let config: GatewayConfig;
  try {
    settings = await readStartSettings(args, process.env, (path) => readFile(path, 'utf8'));
    config = buildGatewayConfig(settings);
    // Built before any worker starts: the workers only load it (src/listen/reuse-port-addon.ts).
    const reuseport = [...config.proxyListen, ...(config.streamListen ?? [])].find((a) => a.reuseport === true);
    if (reuseport !== undefined && !cluster.isWorker) {
      try {
        buildReusePortAddon();
      } catch (err) {
        throw new ConfigError(config.proxyListen.includes(reuseport) ? 'proxy_listen' : 'stream_listen', (err as Error).message);
      }
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`signet-gateway start: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const accessLogSetting = process.env.KONG_PROXY_ACCESS_LOG;
  const node: NodeStart = {
    config,
    log: pino({ base: { pid: process.pid, role: cluster.isWorker ? 'worker' : 'primary' } }),
    redisUrl: settings.redis_url,
    supervised: settings.supervised,
    accessLog: accessLogSetting !== undefined && accessLogSetting !== '' && accessLogSetting !== 'off',
    // The primary hands its id to the workers it forks (cluster/primary.ts).
    nodeId: (cluster.isWorker ? process.env[NODE_ID_ENV] : undefined) ?? randomUUID(),
  };
  // Whatever escapes every handler is logged, in each layout (cluster/process-faults.ts);
  // pino flushes its stream on exit.
  watchProcessFaults(process, node.log, (code) => process.exit(code));
  if (cluster.isWorker) return runWorker(node);
  let snapshot: Snapshot;
  try {
    snapshot = await loadSnapshot(config);
  } catch (err) {
    if (err instanceof GatewayError) {
      for (const line of err.lines) io.err(line);
      return 1;
    }
    io.err(`signet-gateway start: cannot read ${config.declarativeConfig}: ${(err as Error).message}`);
    return 1;
  }
  return config.workers === 1 ? runSingle(node, snapshot) : runPrimary(node, snapshot);
}
