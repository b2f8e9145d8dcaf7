import type { Snapshot } from '../declarative/types.ts';
import type { HealthOutcome } from '../health/health-checker.ts';
import { HealthRegistry, type PreparedHealth } from '../health/health-registry.ts';
import type { AvailabilityListener, NodeHealth } from '../health/node-health.ts';
import { isUp, type InternalHealth } from '../health/target-state.ts';
import { HEALTH_TAG, isHealthMessage, type PrimaryToWorker, type WorkerToPrimary } from './health-messages.ts';
import type { PrimaryPort } from './worker-hub.ts';

/**
 * A worker's view of its node's health: a mirror of the primary's states (cluster/
 * serve-worker-health.ts), read synchronously by the balancer. Passive reports that could
 * change something go to the primary; the common case — a success on a healthy address, a
 * status in neither list, a kind whose threshold is 0 — is decided here and costs no message.
 */
export class WorkerHealth implements NodeHealth {
  readonly #port: PrimaryPort;
  readonly #mirror = new HealthRegistry();
  readonly #availability = new Set<AvailabilityListener>();
  readonly #offPort: () => void;
  #hash: string | undefined;

  constructor(port: PrimaryPort) {
    this.#port = port;
    this.#mirror.onChange((upstream, address, health, previous) => {
      const up = isUp(health);
      if (up !== isUp(previous)) for (const l of this.#availability) l(upstream, address.key, up);
    });
    this.#offPort = port.onMessage((raw) => {
      if (!isHealthMessage(raw)) return;
      const message = raw as PrimaryToWorker;
      if (message.k === 'state') this.#mirror.assume(...message.entry);
      else if (message.hash === this.#hash) for (const entry of message.entries) this.#mirror.assume(...entry);
    });
  }

  load(snapshot: Snapshot): void {
    this.prepare(snapshot).commit();
  }

  prepare(snapshot: Snapshot): PreparedHealth {
    const next = this.#mirror.prepare(snapshot);
    return {
      isAddressHealthy: next.isAddressHealthy,
      commit: () => {
        this.#hash = snapshot.hash;
        next.commit();
        this.#send({ tag: HEALTH_TAG, k: 'load', snapshot });
      },
    };
  }

  checksOn(upstreamName: string): boolean {
    return this.#mirror.checker(upstreamName) !== undefined;
  }

  addressHealth(upstreamName: string, key: string): InternalHealth | undefined {
    return this.#mirror.checker(upstreamName)?.state(key)?.health;
  }

  isAddressHealthy(upstreamName: string, key: string): boolean {
    return this.#mirror.isAddressHealthy(upstreamName, key);
  }

  onAvailabilityChange(listener: AvailabilityListener): () => void {
    this.#availability.add(listener);
    return () => this.#availability.delete(listener);
  }

  reportPassive(upstreamName: string, key: string, outcome: Exclude<HealthOutcome, 'connected'>): void {
    const checker = this.#mirror.checker(upstreamName);
    const health = checker?.state(key)?.health;
    if (checker === undefined || health === undefined || checker.isNoop(key, outcome, 'passive', health)) return;
    this.#send({ tag: HEALTH_TAG, k: 'report', upstream: upstreamName, key, outcome });
  }

  setStatus(upstreamName: string, keys: readonly string[], healthy: boolean): void {
    this.#send({ tag: HEALTH_TAG, k: 'set', upstream: upstreamName, keys, healthy });
  }

  close(): Promise<void> {
    this.#offPort();
    return Promise.resolve();
  }

  #send(message: WorkerToPrimary): void {
    this.#port.send(message);
  }
}
