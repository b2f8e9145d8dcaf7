import { setTimeout as delay } from 'node:timers/promises';
import type { MailTransport } from './mail-transport.ts';
import { PollingLoop } from '../background/polling-loop.ts';
import { MailDeliveryError } from './mail-transport.ts';
import { outboxMessageId } from './outbox-message-id.ts';
import type { OutboxItem, OutboxQueue } from '../domain/mail/outbox-queue.ts';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-delay.ts';

export type OutboxWorkerOptions = {
  readonly queue: OutboxQueue;
  readonly transport: MailTransport;
  /** Unique per process (several esign instances share one outbox). */
  readonly workerId: string;
  /** Right part of every Message-ID (PUBLIC_URL's host name, the same on every instance). */
  readonly messageIdHost: string;
  readonly clock?: () => Date;
  /** In [0, 1); jitter for the backoff. */
  readonly random?: () => number;
  readonly retry?: RetryPolicy;
  /** How long a claim lasts; longer than any one SMTP exchange (nodemailer's timeouts). */
  readonly leaseMs?: number;
  readonly batchSize?: number;
  /** Idle time between polls when the outbox was empty. */
  readonly pollIntervalMs?: number;
  /**
   * Told about failures (logging). `outcome` says what became of the row: `retry` (due again
   * later), `dead` (a permanent refusal or the last attempt: operators must look), or
   * `unrecorded` (the peer accepted the mail but the delivery could not be written: once the
   * lease runs out it is sent again, with the same Message-ID).
   */
  readonly onError?: (err: unknown, item?: OutboxItem, outcome?: 'retry' | 'dead' | 'unrecorded') => void;
};

/** What one pass did. `released`: claimed but given back unsent (the lease was half spent). */
export type OutboxPass = { claimed: number; delivered: number; retried: number; dead: number; released: number };

// Recording a delivery is retried briefly: a failure there must not pass for a failed send.
const RECORD_RETRY_DELAYS_MS = [50, 250, 1_000];

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
    // A host that cannot make a Message-ID stops the server at start, not every mail later.
    outboxMessageId('probe', options.messageIdHost);
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

  /**
   * Claims and delivers one batch. Delivery is at least once: a row is marked delivered only
   * after the peer's 250, so a crash in between sends it again once the lease runs out. Every
   * attempt at a row carries the same Message-ID, which is what lets the receiver keep one copy.
   * Two things keep second sends rare: no send starts once half the lease is spent (the rest of
   * the batch is released, so another worker cannot claim a row this one is still sending), and
   * a failure to record a delivery is retried, never taken for a failed send.
   */
  async runOnce(): Promise<OutboxPass> {
    const o = this.#o;
    const claimedAt = o.clock().getTime();
    const items = await o.queue.claim({ workerId: o.workerId, now: new Date(claimedAt), leaseMs: o.leaseMs, limit: o.batchSize });
    const pass: OutboxPass = { claimed: items.length, delivered: 0, retried: 0, dead: 0, released: 0 };
    for (const [i, item] of items.entries()) {
      if (o.clock().getTime() - claimedAt >= o.leaseMs / 2) {
        const rest = items.slice(i).map((it) => it.id);
        await o.queue.release(rest, o.workerId);
        pass.released = rest.length;
        break;
      }
      try {
        await o.transport.send(item.message, outboxMessageId(item.id, o.messageIdHost));
      } catch (err) {
        const permanent = err instanceof MailDeliveryError && err.permanent;
        const retryAt = permanent || item.attempts >= o.retry.maxAttempts ? undefined : new Date(o.clock().getTime() + retryDelayMs(item.attempts, o.retry, o.random()));
        o.onError?.(err, item, retryAt ? 'retry' : 'dead');
        await o.queue.markFailed(item.id, o.workerId, err instanceof Error ? err.message.slice(0, 1000) : String(err), retryAt);
        if (retryAt) pass.retried++;
        else pass.dead++;
        continue;
      }
      await this.#recordDelivered(item);
      pass.delivered++;
    }
    return pass;
  }

  /** The peer has the mail: record it, retrying briefly; if that keeps failing, the lease decides. */
  async #recordDelivered(item: OutboxItem): Promise<void> {
    const o = this.#o;
    for (let attempt = 0; ; attempt++) {
      try {
        await o.queue.markDelivered(item.id, o.workerId, o.clock());
        return;
      } catch (err) {
        const wait = RECORD_RETRY_DELAYS_MS[attempt];
        if (wait === undefined) {
          o.onError?.(err, item, 'unrecorded');
          return;
        }
        await delay(wait);
      }
    }
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
