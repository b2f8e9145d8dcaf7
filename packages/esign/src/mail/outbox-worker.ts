import type { MailTransport } from './mail-transport.ts';
import { PollingLoop } from '../background/polling-loop.ts';
import { MailDeliveryError } from './mail-transport.ts';
import type { OutboxItem, OutboxQueue } from './outbox-queue.ts';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-delay.ts';

export type OutboxWorkerOptions = {
  readonly queue: OutboxQueue;
  readonly transport: MailTransport;
  /** Unique per process (several esign instances share one outbox). */
  readonly workerId: string;
  readonly clock?: () => Date;
  /** In [0, 1); jitter for the backoff. */
  readonly random?: () => number;
  readonly retry?: RetryPolicy;
  /** How long a claim lasts; longer than any one SMTP exchange (nodemailer's timeouts). */
  readonly leaseMs?: number;
  readonly batchSize?: number;
  /** Idle time between polls when the outbox was empty. */
  readonly pollIntervalMs?: number;
  /** Told about failures (logging). */
  readonly onError?: (err: unknown, item?: OutboxItem) => void;
};

/** What one pass did. */
export type OutboxPass = { claimed: number; delivered: number; retried: number; dead: number };

/**
 * Delivers the mail outbox: claims due rows with a lease, sends each through the transport,
 * and records delivery, a retry at an exponentially later time, or death after the last
 * attempt (or a permanent SMTP refusal). Safe with many instances: claims are atomic in the
 * database (store/outbox-repository.ts).
 */
export class OutboxWorker {
  readonly #o: Required<Omit<OutboxWorkerOptions, 'onError'>> & Pick<OutboxWorkerOptions, 'onError'>;
  readonly #loop: PollingLoop;

  constructor(options: OutboxWorkerOptions) {
    this.#o = {
      clock: () => new Date(),
      random: Math.random,
      retry: DEFAULT_RETRY_POLICY,
      leaseMs: 120_000,
      batchSize: 10,
      pollIntervalMs: 1_000,
      ...options,
    };
    // A full batch is followed at once by the next; an empty one by a pause. A pass that throws
    // (the database was unreachable) is retried at the next poll.
    this.#loop = new PollingLoop(async () => (await this.runOnce()).claimed === this.#o.batchSize, {
      intervalMs: this.#o.pollIntervalMs,
      onError: (err) => this.#o.onError?.(err),
    });
  }

  /** Claims and delivers one batch. */
  async runOnce(): Promise<OutboxPass> {
    const o = this.#o;
    const items = await o.queue.claim({ workerId: o.workerId, now: o.clock(), leaseMs: o.leaseMs, limit: o.batchSize });
    const pass: OutboxPass = { claimed: items.length, delivered: 0, retried: 0, dead: 0 };
    for (const item of items) {
      try {
        await o.transport.send(item.message);
        await o.queue.markDelivered(item.id, o.workerId, o.clock());
        pass.delivered++;
      } catch (err) {
        o.onError?.(err, item);
        const permanent = err instanceof MailDeliveryError && err.permanent;
        const retryAt = permanent || item.attempts >= o.retry.maxAttempts ? undefined : new Date(o.clock().getTime() + retryDelayMs(item.attempts, o.retry, o.random()));
        await o.queue.markFailed(item.id, o.workerId, err instanceof Error ? err.message.slice(0, 1000) : String(err), retryAt);
        if (retryAt) pass.retried++;
        else pass.dead++;
      }
    }
    return pass;
  }

  /** Polls until stop(): a full batch is followed at once by the next, an empty one by a pause. */
  start(): void {
    this.#loop.start();
  }

  /** Runs a pass soon (after an envelope change wrote mails), instead of at the next poll. */
  wake(): void {
    this.#loop.wake();
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }
}
