import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type RequestDrainOptions = {
  /** Done once no request (other than health probes) is in flight and none has started for this long. */
  quietMs: number;
  /** Done after this long whatever still arrives (the stop must end). */
  maxMs: number;
  now?: () => number;
  /** How often the drain looks again. */
  checkEveryMs?: number;
};

/** Paths a load balancer probes: they neither count as traffic nor delay the drain. */
const PROBES = new Set(['/health']);

/**
 * A graceful stop behind a load balancer: once draining, /health answers 503 and responses say
 * `Connection: close`, yet requests are still served, because the balancer may send some until
 * it notices (a health probe or its operator's admin call). The drain is over when the traffic
 * has stopped: nothing in flight and nothing new for `quietMs`. Only then is the server closed,
 * so no request meets a closed port or Fastify's 503-on-close.
 */
export class RequestDrain {
  #inFlight = 0;
  #lastStartedAt = 0;
  #draining = false;
  readonly #options: Required<RequestDrainOptions>;

  constructor(options: RequestDrainOptions) {
    this.#options = { now: Date.now, checkEveryMs: 50, ...options };
  }

  /** Counts the server's requests (call before it listens). */
  track(server: Server): void {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (PROBES.has((req.url ?? '').split('?')[0] ?? '')) return;
      this.#inFlight += 1;
      this.#lastStartedAt = this.#options.now();
      res.once('close', () => {
        this.#inFlight -= 1;
      });
    });
  }

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts draining; resolves when the traffic has stopped (or maxMs has passed). */
  drain(): Promise<{ waitedMs: number; inFlight: number }> {
    this.#draining = true;
    const { now, quietMs, maxMs, checkEveryMs } = this.#options;
    const startedAt = now();
    // A request that started before the drain counts from the drain's start: the quiet period
    // must be seen from here on.
    this.#lastStartedAt = Math.max(this.#lastStartedAt, startedAt);
    return new Promise((resolve) => {
      const look = () => {
        const t = now();
        if ((this.#inFlight === 0 && t - this.#lastStartedAt >= quietMs) || t - startedAt >= maxMs) {
          resolve({ waitedMs: t - startedAt, inFlight: this.#inFlight });
          return;
        }
        setTimeout(look, checkEveryMs);
      };
      look();
    });
  }
}
