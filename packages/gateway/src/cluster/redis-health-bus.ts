import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { HealthBus, SetStatusEvent } from '../health/local-health.ts';

/** The pub/sub channel gateway nodes share. */
export const HEALTH_CHANNEL = 'signet:health:post_health';

type Wire = SetStatusEvent & { readonly origin: string };

export type RedisHealthBusOptions = {
  /** Identifies this node on the wire so it skips its own events; default a random UUID. */
  readonly nodeId?: string;
  /** Connection problems (ioredis reconnects by itself); default silent. */
  readonly onError?: (error: Error) => void;
};

/**
 * Operator healthy/unhealthy events across gateway nodes over Redis pub/sub (ioredis). Kong
 * broadcasts `balancer:post_health` as a cluster event (dao/targets.lua:295-327); DB-less Kong
 * drops it, the spec (§3, §6) wants every node to reset its counters, so here it travels.
 */
export class RedisHealthBus implements HealthBus {
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #nodeId: string;
  readonly #handlers = new Set<(event: SetStatusEvent) => void>();
  readonly #ready: Promise<unknown>;

  constructor(url: string, options: RedisHealthBusOptions = {}) {
    this.#nodeId = options.nodeId ?? randomUUID();
    const onError = options.onError ?? (() => undefined);
    this.#pub = new Redis(url, { lazyConnect: false });
    this.#sub = new Redis(url, { lazyConnect: false });
    this.#pub.on('error', onError);
    this.#sub.on('error', onError);
    this.#sub.on('message', (channel: string, text: string) => {
      if (channel !== HEALTH_CHANNEL) return;
      const event = parse(text);
      if (event === undefined || event.origin === this.#nodeId) return;
      const { origin: _origin, ...rest } = event;
      for (const h of this.#handlers) h(rest);
    });
    this.#ready = this.#sub.subscribe(HEALTH_CHANNEL);
    // Rejected when closed before Redis ever answered; only ready() callers care.
    this.#ready.catch(() => undefined);
  }

  /** Resolves once this node is subscribed (events published before that are not seen). */
  ready(): Promise<void> {
    return this.#ready.then(() => undefined);
  }

  publish(event: SetStatusEvent): void {
    const wire: Wire = { ...event, origin: this.#nodeId };
    this.#pub.publish(HEALTH_CHANNEL, JSON.stringify(wire)).catch(() => undefined);
  }

  subscribe(handler: (event: SetStatusEvent) => void): void {
    this.#handlers.add(handler);
  }

  /** Quits cleanly when connected; otherwise drops the connection attempts at once (a quit would wait for Redis forever). */
  async close(): Promise<void> {
    this.#handlers.clear();
    await Promise.allSettled([this.#sub, this.#pub].map(async (client) => {
      if (client.status === 'ready') await client.quit();
      else client.disconnect();
    }));
  }
}

function parse(text: string): Wire | undefined {
  try {
    const v = JSON.parse(text) as Partial<Wire>;
    if (v.type !== 'set_status' || typeof v.upstream !== 'string' || typeof v.healthy !== 'boolean') return undefined;
    if (!Array.isArray(v.keys) || !v.keys.every((k) => typeof k === 'string') || typeof v.origin !== 'string') return undefined;
    return v as Wire;
  } catch {
    return undefined;
  }
}
