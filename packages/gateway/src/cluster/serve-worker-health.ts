import type { HealthOutcome } from '../health/health-checker.ts';
import type { LocalHealth } from '../health/local-health.ts';
import { HEALTH_TAG, isHealthMessage, type PrimaryToWorker, type StateEntry, type WorkerToPrimary } from './health-messages.ts';
import type { WorkerHub } from './worker-hub.ts';

export type ServeWorkerHealthOptions = {
  /**
   * true: a configuration a worker loads is loaded here too when its hash is new (the workers
   * own the configuration). false (default): the primary's owner loads it, and a worker's copy
   * never replaces it — a worker still holding an older snapshot during a reload must not roll
   * the primary back.
   */
  readonly loadFromWorkers?: boolean;
};

/**
 * Makes a node's primary the single holder of its health state (Kong's `kong_healthchecks`
 * shm): workers' passive reports and operator calls come in over IPC and are applied here,
 * where the active probes also run, and every state change goes out to every worker (Kong's
 * worker events). A worker that loads a configuration says so and gets the full state for it
 * (when it is the primary's). Returns the function that detaches it.
 */
export function serveWorkerHealth(health: LocalHealth, hub: WorkerHub, options: ServeWorkerHealthOptions = {}): () => void {
  const offState = health.onStateChange((upstream, key, h) => {
    const message: PrimaryToWorker = { tag: HEALTH_TAG, k: 'state', entry: [upstream, key, h] };
    hub.broadcast(message);
  });
  // Workers that loaded a configuration before the primary did (a reload round: the primary
  // commits once they all have), by worker: the hash they wait for the full state of.
  const waiting = new Map<number, string>();
  const sendStates = (workerId: number, hash: string): void => {
    const reply: PrimaryToWorker = { tag: HEALTH_TAG, k: 'states', hash, entries: allStates(health) };
    hub.send(workerId, reply);
  };
  const offLoad = health.onLoad((snapshot) => {
    for (const [workerId, hash] of waiting) {
      if (hash !== snapshot.hash) continue;
      waiting.delete(workerId);
      sendStates(workerId, hash);
    }
  });
  const offMessage = hub.onMessage((workerId, raw) => {
    if (!isHealthMessage(raw)) return;
    const message = raw as WorkerToPrimary;
    switch (message.k) {
      case 'report':
        health.reportPassive(message.upstream, message.key, message.outcome as Exclude<HealthOutcome, 'connected'>);
        return;
      case 'set':
        health.setStatus(message.upstream, message.keys, message.healthy);
        return;
      case 'load': {
        if (health.snapshot?.hash !== message.snapshot.hash) {
          // Not the primary's configuration (yet): answered if the primary loads it; a worker
          // that moves on to another one asks again.
          if (options.loadFromWorkers !== true) {
            waiting.set(workerId, message.snapshot.hash);
            return;
          }
          health.load(message.snapshot);
        }
        waiting.delete(workerId);
        sendStates(workerId, message.snapshot.hash);
        return;
      }
    }
  });
  return () => {
    offState();
    offLoad();
    offMessage();
  };
}

function allStates(health: LocalHealth): StateEntry[] {
  const entries: StateEntry[] = [];
  for (const checker of health.registry.checkers()) {
    for (const { address, state } of checker.entries()) entries.push([checker.upstream.name, address.key, state.health]);
  }
  return entries;
}
