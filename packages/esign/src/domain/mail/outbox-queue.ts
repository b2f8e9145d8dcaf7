import type { MailMessage } from './mail-message.ts';

/** One claimed outbox row. `attempts` already counts this attempt. */
export type OutboxItem = { readonly id: string; readonly attempts: number; readonly message: MailMessage };

/**
 * The outbox as the delivery worker sees it (store/outbox-repository.ts implements it).
 * Claims are leases: a worker that dies leaves its rows to be claimed again once the lease
 * ends, so delivery is at least once. Completion is fenced by the worker id, so a worker
 * whose lease ran out cannot overwrite what the next claimant recorded.
 */
export interface OutboxQueue {
  /** Atomically claims up to `limit` due rows for `workerId` until `now + leaseMs`. */
  claim(input: { workerId: string; now: Date; leaseMs: number; limit: number }): Promise<OutboxItem[]>;
  markDelivered(id: string, workerId: string, now: Date): Promise<void>;
  /** Records a failure; `retryAt` undefined means give up (the row becomes dead). */
  markFailed(id: string, workerId: string, error: string, retryAt: Date | undefined): Promise<void>;
  /** Gives back claimed rows that were not attempted: due again at once, the claim's attempt not counted. */
  release(ids: readonly string[], workerId: string): Promise<void>;
}
