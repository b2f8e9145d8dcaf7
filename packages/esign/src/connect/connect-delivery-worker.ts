import { PollingLoop } from '../background/polling-loop.ts';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from '../mail/retry-delay.ts';
import type { ClaimedDelivery, ClaimInput } from '../store/connect-repository.ts';
import { connectBody, withDocumentBytes } from './build-connect-message.ts';
import type { ConnectMessage } from '../domain/connect/connect-message.ts';
import { connectSignatures } from './connect-signatures.ts';
import type { PostToListener } from './post-to-listener.ts';
import { Slots } from '@signet/kit';

/** The delivery outbox as the worker sees it (store/connect-repository.ts implements it). */
export interface ConnectDeliveryQueue {
  /**
   * Due deliveries, leased to `workerId`, round robin across accounts; none for the listener URLs
   * in `exceptUrls` (this worker is serving them), none past an account's `perAccount` cap.
   */
  claim(input: ClaimInput): Promise<ClaimedDelivery[]>;
  markDelivered(id: string, workerId: string, now: Date): Promise<void>;
  markFailed(id: string, workerId: string, error: string, retryAt: Date | undefined): Promise<void>;
  /**
   * Hands a claimed delivery back unattempted, due at `dueAt` (default: at once), for any
   * instance: the worker is stopping, or the listener just failed to answer an earlier message.
   */
  release(id: string, workerId: string, dueAt?: Date): Promise<void>;
  /** Deletes finished (delivered, discarded) deliveries created before `before`. */
  purgeFinished(before: Date): Promise<number>;
}

export type ConnectWorkerOptions = {
  readonly queue: ConnectDeliveryQueue;
  /** The account's active HMAC secrets, opened, oldest first. */
  readonly hmacSecrets: (accountId: string) => Promise<string[]>;
  readonly post: PostToListener;
  /**
   * A document's PDF for includeDocuments: the sealed one when `signed` (the message is about a
   * completed envelope), else the original. Read at each attempt; both are immutable, so every
   * attempt of a message sends the same bytes.
   */
  readonly documentBytes?: (accountId: string, envelopeId: string, documentId: string, signed: boolean) => Promise<Uint8Array | undefined>;
  /** Unique per process (several esign instances share one outbox). */
  readonly workerId: string;
  readonly clock?: () => Date;
  /** In [0, 1); jitter for the backoff. */
  readonly random?: () => number;
  readonly retry?: RetryPolicy;
  /** Per POST: DocuSign expects listeners to answer within seconds. */
  readonly timeoutMs?: number;
  /** Longer than timeoutMs times batchSize, so a live worker never loses its claim. */
  readonly leaseMs?: number;
  readonly batchSize?: number;
  /** Listeners served at once by this worker, a true bound: a batch claims no more than the free slots. */
  readonly maxListeners?: number;
  /**
   * Listeners one account may have served at once by this worker (default a quarter of
   * maxListeners). Held even when no other account waits: a chain cannot be cut short (its
   * listener may take timeoutMs per message), so slots lent to one tenant could not be taken
   * back when another's message arrives; with a quarter each, three tenants with hostile
   * listeners still leave a quarter of the slots free for everyone else.
   */
  readonly maxListenersPerAccount?: number;
  /**
   * includeDocuments deliveries built and posted at once by this worker. Each holds its
   * envelope's documents several times over (bytes, base64, the JSON body): one send to 32
   * configurations held 1.4 GB for 8 MB of PDF before this bound.
   */
  readonly maxDocumentDeliveries?: number;
  readonly pollIntervalMs?: number;
  /** How long finished deliveries are kept (default 30 days); the purge runs at most hourly per instance. */
  readonly retentionMs?: number;
  readonly onError?: (err: unknown, delivery?: ClaimedDelivery) => void;
};

/** What became of one claimed delivery; `unreachable` when the listener gave no answer at all. */
type Outcome = { kind: 'delivered' | 'retried' | 'failed' | 'released'; unreachable?: boolean; retryAt?: Date };

/** What one pass did. */
export type ConnectPass = { claimed: number; delivered: number; retried: number; failed: number };

/**
 * Connect's default backoff: 30 s doubling up to 1 h, 12 attempts; with the equal jitter of
 * retryDelayMs the retries span about 2.5 to 5 hours before a delivery is marked failed.
 */
export const CONNECT_RETRY_POLICY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 12 };

/**
 * Delivers Connect messages: claims due deliveries, POSTs each message's raw JSON (retryCount
 * set to the attempts before this one) with one X-DocuSign-Signature-N per active HMAC key
 * when the subscription asked for HMAC, and records a 2xx as delivered; anything else (a
 * status, a timeout, a refused address) is retried with exponential backoff, and marked
 * failed after the last attempt, where the failure log and republish find it.
 *
 * Each listener URL is served by one chain at a time (its messages in the order the events
 * happened); the polling loop starts chains and does not wait for them, so a slow or dead
 * listener never holds up the next batch for the others. stop() does not wait for slow
 * listeners either: it aborts the POSTs under way and releases the claims.
 */
export class ConnectDeliveryWorker {
  readonly #o: Required<Omit<ConnectWorkerOptions, 'onError'>> & Pick<ConnectWorkerOptions, 'onError'>;
  readonly #loop: PollingLoop;
  #nextPurgeAt = 0;
  /** Aborted by stop(): in-flight POSTs end at once instead of after their timeout. */
  #stopping = new AbortController();
  /** The listener URLs being served, each by one chain, and the accounts whose messages it carries; claims skip them. */
  readonly #busy = new Map<string, { chain: Promise<void>; accounts: ReadonlySet<string> }>();
  /** Claims one at a time (the loop's pass, runOnce): each counts the slots the one before took. */
  #claiming: Promise<unknown> = Promise.resolve();
  readonly #documentSlots: Slots;

  constructor(options: ConnectWorkerOptions) {
    this.#o = { clock: () => new Date(), random: Math.random, documentBytes: () => Promise.resolve(undefined), retry: CONNECT_RETRY_POLICY, timeoutMs: 10_000, leaseMs: 300_000, batchSize: 10, maxListeners: 32, maxListenersPerAccount: Math.max(1, Math.ceil((options.maxListeners ?? 32) / 4)), maxDocumentDeliveries: 2, pollIntervalMs: 1_000, retentionMs: 30 * 86_400_000, ...options };
    this.#documentSlots = new Slots(this.#o.maxDocumentDeliveries);
    // A pass claims and starts serving, without waiting for the listeners: a chain that ends
    // wakes the loop, as its listener's next messages may be due.
    this.#loop = new PollingLoop(async () => {
      if (this.#busy.size >= this.#o.maxListeners) return false;
      const pass = this.#emptyPass();
      // Not awaited: each chain reports its own errors and stop() waits for it (#busy).
      void Promise.all(await this.#claimAndServe(pass));
      return pass.claimed === this.#o.batchSize;
    }, {
      intervalMs: this.#o.pollIntervalMs,
      onError: (err) => this.#o.onError?.(err),
    });
  }

  /**
   * Claims and delivers one batch, and resolves when it is done (the loop does not wait; tests
   * and tools do). Each listener URL gets its messages one at a time, in the order the events
   * happened; different listeners are served concurrently. A listener that could not be reached
   * at all (timeout, connection error, refused address) is not tried again in this batch: its
   * later messages are handed back, due with the failed one's retry, so a dead listener costs
   * one timeout rather than one per message, and its messages keep their order.
   */
  async runOnce(): Promise<ConnectPass> {
    const pass = this.#emptyPass();
    await Promise.all(await this.#claimAndServe(pass));
    return pass;
  }

  #emptyPass(): ConnectPass {
    return { claimed: 0, delivered: 0, retried: 0, failed: 0 };
  }

  #claimAndServe(pass: ConnectPass): Promise<Promise<void>[]> {
    const next = this.#claiming.then(() => this.#claimAndServeNow(pass));
    this.#claiming = next.catch(() => undefined);
    return next;
  }

  /**
   * Claims due deliveries of the listeners not being served, and starts one chain per listener.
   * A delivery starts at most one chain, so claiming no more than the free slots keeps
   * maxListeners a true bound, and no more than an account's share left keeps it to its share.
   */
  async #claimAndServeNow(pass: ConnectPass): Promise<Promise<void>[]> {
    const o = this.#o;
    await this.#purge();
    const free = o.maxListeners - this.#busy.size;
    if (free <= 0) return [];
    const taken = new Map<string, number>();
    for (const { accounts } of this.#busy.values()) for (const account of accounts) taken.set(account, (taken.get(account) ?? 0) + 1);
    const items = await o.queue.claim({
      workerId: o.workerId, now: o.clock(), leaseMs: o.leaseMs, limit: Math.min(o.batchSize, free),
      exceptUrls: [...this.#busy.keys()], perAccount: { limit: o.maxListenersPerAccount, taken },
    });
    pass.claimed += items.length;
    const byListener = new Map<string, ClaimedDelivery[]>();
    for (const item of items) byListener.set(item.url, [...(byListener.get(item.url) ?? []), item]);
    const stopping = this.#stopping.signal;
    return [...byListener].map(([url, queue]) => {
      const chain = this.#serve(queue, pass, stopping)
        .catch((err: unknown) => o.onError?.(err))
        .finally(() => {
          this.#busy.delete(url);
          this.#loop.wake();
        });
      // Two accounts may share a listener URL: the chain counts against each one it serves.
      this.#busy.set(url, { chain, accounts: new Set(queue.map((item) => item.accountId)) });
      return chain;
    });
  }

  /** One listener's messages, one at a time. */
  async #serve(queue: readonly ClaimedDelivery[], pass: ConnectPass, stopping: AbortSignal): Promise<void> {
    const o = this.#o;
    let unreachableUntil: Date | undefined;
    for (const item of queue) {
      if (unreachableUntil) {
        await o.queue.release(item.id, o.workerId, unreachableUntil);
        continue;
      }
      const outcome = await this.#deliver(item, stopping);
      if (outcome.kind !== 'released') pass[outcome.kind]++;
      if (outcome.unreachable) unreachableUntil = outcome.retryAt ?? o.clock();
    }
  }

  /** Keeps the table from growing forever: delivered rows are only history. */
  async #purge(): Promise<void> {
    const now = this.#o.clock().getTime();
    if (now < this.#nextPurgeAt) return;
    this.#nextPurgeAt = now + 3_600_000;
    await this.#o.queue.purgeFinished(new Date(now - this.#o.retentionMs));
  }

  async #deliver(item: ClaimedDelivery, stopping: AbortSignal): Promise<Outcome> {
    const o = this.#o;
    // Stopping: what is not done is handed back, for this instance's next start or another
    // instance, rather than held until the lease ends (up to leaseMs) or counted as a failure.
    const release = async (): Promise<Outcome> => {
      await o.queue.release(item.id, o.workerId);
      return { kind: 'released' };
    };
    if (stopping.aborted) return release();
    let answered = false;
    // The documents are read, encoded and sent under a slot, so the memory they take is bounded.
    const giveBack = item.includeDocuments ? await this.#documentSlots.take() : undefined;
    try {
      if (stopping.aborted) return await release();
      const message = item.includeDocuments ? await this.#withDocuments(item) : item.message;
      const body = connectBody(message, item.attempts - 1);
      const headers = item.includeHMAC ? connectSignatures(await o.hmacSecrets(item.accountId), body, item.accountId) : {};
      const status = await o.post({ url: item.url, body, headers, timeoutMs: o.timeoutMs, signal: stopping });
      answered = true;
      if (status < 200 || status > 299) throw new Error(`The listener answered HTTP ${status}.`);
      await o.queue.markDelivered(item.id, o.workerId, o.clock());
      return { kind: 'delivered' };
    } catch (err) {
      // Cut short by stop(): the listener may have got it; it goes again (delivery is at least once).
      if (stopping.aborted) return release();
      o.onError?.(err, item);
      const retryAt = item.attemptsSinceRepublish >= o.retry.maxAttempts ? undefined : new Date(o.clock().getTime() + retryDelayMs(item.attemptsSinceRepublish, o.retry, o.random()));
      await o.queue.markFailed(item.id, o.workerId, err instanceof Error ? err.message.slice(0, 1000) : String(err), retryAt);
      return { kind: retryAt ? 'retried' : 'failed', unreachable: !answered, ...(retryAt ? { retryAt } : {}) };
    } finally {
      giveBack?.();
    }
  }

  /** includeDocuments deliveries under way now. */
  get documentDeliveries(): number {
    return this.#documentSlots.taken;
  }

  #withDocuments(item: ClaimedDelivery): Promise<ConnectMessage> {
    const { accountId, envelopeId } = item.message.data;
    const signed = (item.message.data.envelopeSummary as { status?: string } | undefined)?.status === 'completed';
    return withDocumentBytes(item.message, (documentId) => this.#o.documentBytes(accountId, envelopeId, documentId, signed));
  }

  start(): void {
    if (this.#stopping.signal.aborted) this.#stopping = new AbortController();
    this.#loop.start();
  }

  /** Runs a pass soon (an envelope change wrote deliveries, or a republish). */
  wake(): void {
    this.#loop.wake();
  }

  /** Stops polling, aborts the POSTs under way and releases the undelivered claims; resolves when every chain has ended. */
  async stop(): Promise<void> {
    this.#stopping.abort(new Error('The Connect worker is stopping.'));
    await this.#loop.stop();
    await Promise.all([...this.#busy.values()].map((b) => b.chain));
  }
}
