// Kong's queue for logging plugins (kong/tools/queue.lua, settings kong/tools/queue_schema.lua):
// entries wait in memory, bounded by max_entries (and max_bytes), and go out in batches of up to
// max_batch_size once the batch is full or max_coalescing_delay passed; a failed batch is retried
// after initial_retry_delay, doubling up to max_retry_delay, until max_retry_time, then dropped
// with a log line. The request that produced an entry never waits for any of it.
import { pluginLog } from './plugin-log.ts';

/** Kong's queue settings (seconds for times). */
export type QueueSettings = {
  readonly max_batch_size: number;
  readonly max_coalescing_delay: number;
  readonly max_entries: number;
  readonly max_bytes: number | null;
  readonly max_retry_time: number;
  readonly initial_retry_delay: number;
  readonly max_retry_delay: number;
  readonly concurrency_limit: number;
};

/** Sends one batch; rejects (or resolves false) when it did not go through. */
export type BatchHandler = (entries: readonly string[]) => Promise<void>;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** One named queue. */
export class LogQueue {
  readonly name: string;
  settings: QueueSettings;
  handler: BatchHandler;
  readonly #entries: string[] = [];
  #bytes = 0;
  #running = false;
  #inFlight = 0;
  #warnedFull = false;
  /** Wakes the loop waiting for entries (or for the batch to fill). */
  #wake: (() => void) | undefined;
  /** The process is stopping: batches go out without waiting to fill (Kong: ngx.worker.exiting()). */
  #draining = false;
  /** drain() callers waiting for the queue to empty. */
  readonly #idle: (() => void)[] = [];

  constructor(name: string, settings: QueueSettings, handler: BatchHandler) {
    this.name = name;
    this.settings = settings;
    this.handler = handler;
  }

  get size(): number {
    return this.#entries.length;
  }

  #log(level: 'warn' | 'error', message: string): void {
    pluginLog()[level]({ queue: this.name }, `queue ${this.name}: ${message}`);
  }

  /** Adds an entry; the oldest ones make room when the queue is full (Kong drops old entries). */
  enqueue(entry: string): void {
    const s = this.settings;
    if (s.max_bytes !== null && entry.length > s.max_bytes) {
      this.#log('error', `string to be queued is longer (${entry.length} bytes) than the queue's max_bytes (${s.max_bytes} bytes)`);
      return;
    }
    let dropped = 0;
    while (this.#entries.length >= s.max_entries || (s.max_bytes !== null && this.#bytes + entry.length > s.max_bytes)) {
      this.#bytes -= this.#entries.shift()!.length;
      dropped++;
    }
    if (dropped > 0 && !this.#warnedFull) {
      this.#warnedFull = true;
      this.#log('error', 'queue full, dropping old entries until processing is successful again');
    }
    this.#entries.push(entry);
    this.#bytes += entry.length;
    if (!this.#running) void this.#run();
    else if (this.#entries.length >= s.max_batch_size) this.#wake?.();
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#entries.length > 0) {
        const s = this.settings;
        // Coalesce: wait for a full batch or the delay, whichever comes first.
        if (this.#entries.length < s.max_batch_size && s.max_coalescing_delay > 0 && !this.#draining) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, s.max_coalescing_delay * 1000);
            timer.unref();
            this.#wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.#wake = undefined;
        }
        const batch = this.#entries.splice(0, s.max_batch_size);
        for (const e of batch) this.#bytes -= e.length;
        if (s.concurrency_limit === -1) {
          this.#inFlight++;
          void this.#deliver(batch).finally(() => {
            this.#inFlight--;
            this.#settle();
          });
        } else {
          await this.#deliver(batch);
        }
      }
    } finally {
      this.#running = false;
      this.#settle();
    }
  }

  // Resolves drain() once nothing is queued, being sent, or waiting for a retry.
  #settle(): void {
    if (this.#running || this.#inFlight > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /**
   * The process is stopping: what is queued goes out now, in batches, retried as usual; resolves
   * once the queue is empty (the caller bounds the wait).
   */
  drain(): Promise<void> {
    this.#draining = true;
    this.#wake?.();
    if (!this.#running && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #deliver(batch: readonly string[]): Promise<void> {
    const s = this.settings;
    const started = Date.now();
    for (let retry = 0; ; retry++) {
      try {
        await this.handler(batch);
        this.#warnedFull = false;
        return;
      } catch (err) {
        this.#log('warn', `handler could not process entries: ${err instanceof Error ? err.message : String(err)}`);
      }
      if ((Date.now() - started) / 1000 > s.max_retry_time) {
        this.#log('error', `could not send entries due to max_retry_time exceeded. ${batch.length} queue entries were lost`);
        return;
      }
      await sleep(Math.min(s.max_retry_delay, 2 ** retry * s.initial_retry_delay) * 1000);
    }
  }
}

// Kong shares one queue between plugin instances with the same name (their log server settings).
const queues = new Map<string, LogQueue>();

/**
 * A graceful stop: every queue of this process sends what it holds, within `timeoutMs` (a ref'd
 * timer keeps the process alive meanwhile; the queues' own retry timers do not).
 */
export async function drainLogQueues(timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  try {
    await Promise.race([Promise.all([...queues.values()].map((q) => q.drain())), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The queue named `name`, created on first use; a reload keeps its entries and takes the new settings. */
export function namedQueue(name: string, settings: QueueSettings, handler: BatchHandler): LogQueue {
  let q = queues.get(name);
  if (q === undefined) queues.set(name, (q = new LogQueue(name, settings, handler)));
  q.settings = settings;
  q.handler = handler;
  return q;
}
