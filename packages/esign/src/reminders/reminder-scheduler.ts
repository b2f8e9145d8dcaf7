import { PollingLoop } from '../background/polling-loop.ts';
import type { Clock, EnvelopeStore } from '../domain/envelope/ports.ts';
import { envelopeWrite } from '../domain/envelope/envelope-write.ts';
import type { NotificationRepository } from '../store/notification-repository.ts';
import { scheduledStep, type ScheduledStepDeps } from '../domain/notification/scheduled-step.ts';

export type ReminderSchedulerOptions = ScheduledStepDeps & {
  readonly store: Pick<EnvelopeStore, 'find' | 'update'>;
  readonly due: Pick<NotificationRepository, 'dueEnvelopes' | 'refreshNextDue' | 'postpone'>;
  /** Injected: tests move it forward by days. */
  readonly clock: Clock;
  /** Reminders count in days; a minute between polls is plenty (tests poll faster). */
  readonly pollIntervalMs?: number;
  readonly batchSize?: number;
  /** How long an envelope whose step failed waits before it is tried again (default 10 minutes). */
  readonly failureRetryMs?: number;
  readonly onError?: (err: unknown, envelopeId?: string) => void;
};

/**
 * What one pass did: `changed` saved a step, `lost` found another writer first, `refreshed`
 * only corrected a stale next_due_at, `failed` threw (the envelope was postponed).
 */
export type ReminderPass = { due: number; changed: number; lost: number; refreshed: number; failed: number };

/**
 * Sends due reminders and expiration warnings, expires envelopes, and ends workflow holds whose
 * time came (scheduled sending, delayed routing). Safe with any
 * number of instances on one database: each envelope's step is saved with the envelope's
 * version check (store/envelopes-repository.ts), so when two schedulers pick the same envelope
 * one saves and the other's save is refused — and its mails, which are in the same
 * transaction, never exist. The loser does not retry: the winner moved next_due_at on.
 */
export class ReminderScheduler {
  readonly #o: ReminderSchedulerOptions;
  readonly #loop: PollingLoop;

  constructor(options: ReminderSchedulerOptions) {
    this.#o = options;
    const batch = options.batchSize ?? 20;
    // A full batch is followed at once by the next (a backlog after downtime drains quickly).
    // A pass that failed as a whole (the database is down) throws and waits for the next poll.
    this.#loop = new PollingLoop(async () => {
      const pass = await this.runOnce();
      return pass.due === batch;
    }, { intervalMs: options.pollIntervalMs ?? 60_000, onError: (err) => options.onError?.(err) });
  }

  async runOnce(): Promise<ReminderPass> {
    const o = this.#o;
    const now = o.clock();
    const due = await o.due.dueEnvelopes(now, o.batchSize ?? 20);
    const pass: ReminderPass = { due: due.length, changed: 0, lost: 0, refreshed: 0, failed: 0 };
    for (const { envelopeId, accountId, nextDueAt } of due) {
      try {
        const envelope = await o.store.find(accountId, envelopeId);
        if (!envelope) throw new Error(`envelope ${envelopeId} of account ${accountId} has a notification row but could not be loaded`);
        const change = scheduledStep(o, envelope, now);
        if (!change) {
          await o.due.refreshNextDue(envelope);
          pass.refreshed++;
        } else if (await o.store.update(envelopeWrite(envelope, change))) pass.changed++;
        else pass.lost++;
      } catch (err) {
        pass.failed++;
        o.onError?.(err, envelopeId);
        // Out of the head of the queue, or the same failures fill every batch and nothing
        // due after them is ever sent. If the database itself is failing this throws too,
        // and the pass ends: the loop retries at the next poll.
        await o.due.postpone(envelopeId, nextDueAt, new Date(now.getTime() + (o.failureRetryMs ?? 10 * 60_000)));
      }
    }
    return pass;
  }

  start(): void {
    this.#loop.start();
  }

  wake(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }
}
