import type { Snapshot } from '../declarative/types.ts';
import type { NodeHealth } from '../health/node-health.ts';
import { CONFIG_TAG, isConfigMessage, type ConfigMessage } from './config-messages.ts';
import type { WorkerHub } from './worker-hub.ts';

/**
 * How long a reload waits for every worker's answer. Loading takes ~1 s for a 1,100-entity
 * configuration on a loaded machine (docs/gateway-config.md, "Speed"); a worker silent this long
 * is wedged, and a configuration nobody confirmed is not made current.
 */
export const RELOAD_TIMEOUT_MS = 30_000;

export type ClusterConfigDeps = {
  readonly hub: WorkerHub;
  /** The primary's health state (active probes, the admin API's health endpoints). */
  readonly health: Pick<NodeHealth, 'load'>;
  /** Workers serving (they answer a reload round). */
  readonly readyWorkers: () => Iterable<number>;
  /** Every connected worker, those still starting included. */
  readonly liveWorkers: () => Iterable<number>;
  readonly timeoutMs?: number;
};

type Round = {
  readonly id: number;
  readonly waiting: Set<number>;
  loaded: number;
  readonly done: (error?: Error) => void;
};

/**
 * The configuration a cluster primary owns (`current`: kong.yml at start, then POST /config) and
 * how a new one reaches the workers. A reload is a round: every ready worker is sent the snapshot
 * and loads it; only when all have answered `loaded` does it become `current` and the primary's
 * health state take it. A worker that refuses it (or does not answer in time) fails the round:
 * the others are sent `current` back, and POST /config answers 500 with nothing changed. So
 * `current`, which every new worker starts from, is always a configuration workers could load.
 */
export class ClusterConfig {
  readonly #deps: ClusterConfigDeps;
  #current: Snapshot;
  #rounds = 0;
  #round: Round | undefined;

  constructor(first: Snapshot, deps: ClusterConfigDeps) {
    this.#current = first;
    this.#deps = deps;
  }

  /** The running configuration. */
  get current(): Snapshot {
    return this.#current;
  }

  /** Makes `snapshot` current once every ready worker loaded it; rejects, changing nothing, otherwise. */
  async apply(snapshot: Snapshot): Promise<void> {
    const { hub } = this.#deps;
    const workers = [...this.#deps.readyWorkers()];
    if (workers.length === 0) throw new Error('no worker is serving to load the configuration; try again');
    const id = ++this.#rounds;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => this.#finish(new Error(`workers ${[...(this.#round?.waiting ?? [])].join(', ')} did not answer the reload`)), this.#deps.timeoutMs ?? RELOAD_TIMEOUT_MS);
        this.#round = {
          id,
          waiting: new Set(workers),
          loaded: 0,
          done: (error) => {
            clearTimeout(timer);
            this.#round = undefined;
            if (error) reject(error);
            else resolve();
          },
        };
        for (const w of workers) hub.send(w, { tag: CONFIG_TAG, k: 'snapshot', snapshot, round: id } satisfies ConfigMessage);
      });
    } catch (e) {
      // Whoever loaded it (or may yet: a late answer) goes back to the running configuration.
      for (const w of workers) hub.send(w, { tag: CONFIG_TAG, k: 'snapshot', snapshot: this.#current } satisfies ConfigMessage);
      throw e;
    }
    this.#current = snapshot;
    this.#deps.health.load(snapshot);
    // Workers that started during the round were handed the configuration it replaced.
    const sent = new Set(workers);
    for (const w of this.#deps.liveWorkers()) {
      if (!sent.has(w)) hub.send(w, { tag: CONFIG_TAG, k: 'snapshot', snapshot } satisfies ConfigMessage);
    }
  }

  /** A worker's config message: `request` is answered with `current`; `loaded`/`rejected` count in their round. */
  onMessage(workerId: number, message: unknown): void {
    if (!isConfigMessage(message)) return;
    if (message.k === 'request') {
      this.#deps.hub.send(workerId, { tag: CONFIG_TAG, k: 'snapshot', snapshot: this.#current } satisfies ConfigMessage);
      return;
    }
    const round = this.#round;
    if ((message.k !== 'loaded' && message.k !== 'rejected') || round === undefined || message.round !== round.id) return;
    if (!round.waiting.delete(workerId)) return;
    if (message.k === 'rejected') {
      this.#finish(new Error(`worker ${workerId} could not load the configuration: ${message.error}`));
      return;
    }
    round.loaded++;
    this.#settleIfDone();
  }

  /** A worker that exited owes no answer. */
  onExit(workerId: number): void {
    if (this.#round?.waiting.delete(workerId)) this.#settleIfDone();
  }

  #settleIfDone(): void {
    const round = this.#round;
    if (round === undefined || round.waiting.size > 0) return;
    // Every worker of the round exited: nobody showed it loads.
    this.#finish(round.loaded > 0 ? undefined : new Error('every worker exited during the reload'));
  }

  #finish(error?: Error): void {
    this.#round?.done(error);
  }
}
