import { PollingLoop } from '../background/polling-loop.ts';
import type { BulkSendStore, ClaimedBulkRow } from '../domain/bulk-send/bulk-ports.ts';
import { loadBulkSource, sendBulkCopy, type BulkSource } from '../domain/bulk-send/send-bulk-copy.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';

export type BulkSendWorkerOptions = {
  readonly bulk: Pick<BulkSendStore, 'claimRows' | 'finishRow'>;
  readonly envelopes: EnvelopeDeps;
  readonly workerId: string;
  readonly pollIntervalMs?: number;
  /** Rows claimed per pass: the most this instance holds in memory at once. */
  readonly batchSize?: number;
  /** How long a claim holds before another instance may take the row (a crashed instance's rows come back). */
  readonly leaseMs?: number;
  readonly onError?: (err: unknown, row?: ClaimedBulkRow) => void;
};

/**
 * Makes the envelopes of queued bulk send rows (domain/bulk-send/send-bulk-copy.ts), a few rows
 * per pass, so a batch of any size is streamed: the rows of one pass and the draft's PDFs are
 * all this instance holds. Any number of instances share the queue: rows are claimed with a
 * lease, and a row's envelope id is fixed, so a row is made once even when a lease ran out
 * while its first claimant was still writing.
 */
export class BulkSendWorker {
  readonly #o: BulkSendWorkerOptions;
  readonly #loop: PollingLoop;

  constructor(options: BulkSendWorkerOptions) {
    this.#o = options;
    const size = options.batchSize ?? 25;
    this.#loop = new PollingLoop(async () => (await this.runOnce()) === size, { intervalMs: options.pollIntervalMs ?? 2_000, onError: (err) => options.onError?.(err) });
  }

  /** One pass: claims rows, makes their envelopes; the number of rows claimed. */
  async runOnce(): Promise<number> {
    const o = this.#o;
    const rows = await o.bulk.claimRows({ workerId: o.workerId, now: o.envelopes.clock(), leaseMs: o.leaseMs ?? 5 * 60_000, limit: o.batchSize ?? 25 });
    // The draft and its PDFs, loaded once per batch in this pass.
    const sources = new Map<string, Promise<BulkSource>>();
    for (const row of rows) {
      try {
        const key = `${row.accountId}/${row.sourceEnvelopeId}`;
        if (!sources.has(key)) sources.set(key, loadBulkSource(o.envelopes, row.accountId, row.sourceEnvelopeId));
        const source = await sources.get(key)!;
        await o.bulk.finishRow(row.rowId, o.workerId, await sendBulkCopy(o.envelopes, source, row), o.envelopes.clock());
      } catch (err) {
        // Left claimed: the lease runs out and a later pass (here or elsewhere) tries the row again.
        o.onError?.(err, row);
      }
    }
    return rows.length;
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
