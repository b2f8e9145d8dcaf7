import { PollingLoop } from '../background/polling-loop.ts';
import { EVIDENCE_LEASE_MS, nextEvidenceAttempt } from '../domain/signing/evidence-retry.ts';
import type { EvidenceRepository } from '../store/evidence-repository.ts';
import type { EvidenceUpgrader } from './evidence-upgrader.ts';

export type EvidenceWorkerOptions = {
  readonly repository: EvidenceRepository;
  readonly upgrader: EvidenceUpgrader;
  readonly clock: () => Date;
  readonly pollIntervalMs?: number;
  readonly onError?: (err: unknown, envelopeId?: string) => void;
  readonly onUpgraded?: (envelopeId: string, level: string) => void;
};

/**
 * Upgrades completed envelopes whose evidence stayed below the configured level (the TSA was
 * down at completion) in place: the stored sealed files are replaced by their timestamped
 * versions. The queue is a table, so a restart loses nothing; each envelope is claimed with a
 * lease first, so two instances never upgrade the same one at once, and a failure waits out
 * its backoff (domain/signing/evidence-retry.ts) before the next try.
 */
export class EvidenceWorker {
  readonly #o: EvidenceWorkerOptions;
  readonly #loop: PollingLoop;

  constructor(options: EvidenceWorkerOptions) {
    this.#o = options;
    this.#loop = new PollingLoop(async () => {
      await this.runOnce();
      return false;
    }, { intervalMs: options.pollIntervalMs ?? 30_000, onError: (err) => options.onError?.(err) });
  }

  /** Upgrades what is due; returns the envelope ids upgraded by this pass. */
  async runOnce(): Promise<string[]> {
    const done: string[] = [];
    const now = this.#o.clock();
    // Without a TSA nothing can be raised; the queue waits for an instance with one.
    for (const row of this.#o.upgrader.upgrades ? await this.#o.repository.due(now, 10) : []) {
      if (!(await this.#o.repository.claim(row, new Date(now.getTime() + EVIDENCE_LEASE_MS)))) continue;
      try {
        const files = await this.#o.repository.files(row.envelope_id);
        if (!files) throw new TypeError(`envelope ${row.envelope_id} has no sealed files`);
        const outcome = await this.#o.upgrader.upgrade(files);
        // What was gained is kept even when a later step failed; the queue entry stays until the target.
        const savedAt = this.#o.clock();
        await this.#o.repository.saveUpgrade(row.envelope_id, row.account_id, outcome.files, outcome.level, savedAt, outcome.error === undefined, this.#o.upgrader.renewAt(outcome.files, savedAt));
        if (outcome.error !== undefined) throw outcome.error;
        this.#o.onUpgraded?.(row.envelope_id, outcome.level);
        done.push(row.envelope_id);
      } catch (err) {
        this.#o.onError?.(err, row.envelope_id);
        const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        const failedAt = this.#o.clock();
        await this.#o.repository.recordFailure(row.envelope_id, error, (attempts) => nextEvidenceAttempt(attempts, failedAt))
          .catch((recordErr: unknown) => this.#o.onError?.(recordErr, row.envelope_id));
      }
    }
    return [...done, ...(await this.#renewDue(now))];
  }

  /** B-LTA renewals that are due: claimed with a lease, renewed, the next date set; a failure retries in an hour. */
  async #renewDue(now: Date): Promise<string[]> {
    const done: string[] = [];
    // Without a TSA nothing can be renewed; claiming would only rewrite the files unchanged.
    if (!this.#o.upgrader.renews) return done;
    for (const row of await this.#o.repository.dueRenewals(now, 10)) {
      if (!(await this.#o.repository.claimRenewal(row, new Date(now.getTime() + EVIDENCE_LEASE_MS)))) continue;
      try {
        const files = await this.#o.repository.files(row.envelope_id);
        if (!files) throw new TypeError(`envelope ${row.envelope_id} has no sealed files`);
        const renewed = await this.#o.upgrader.renew(files);
        const savedAt = this.#o.clock();
        await this.#o.repository.saveUpgrade(row.envelope_id, row.account_id, renewed, this.#o.upgrader.levelOf(renewed), savedAt, true, this.#o.upgrader.renewAt(renewed, savedAt));
        this.#o.onUpgraded?.(row.envelope_id, 'B-LTA renewed');
        done.push(row.envelope_id);
      } catch (err) {
        this.#o.onError?.(err, row.envelope_id);
        await this.#o.repository.renewAt(row.envelope_id, new Date(this.#o.clock().getTime() + 3_600_000))
          .catch((recordErr: unknown) => this.#o.onError?.(recordErr, row.envelope_id));
      }
    }
    return done;
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }
}
