import { PdfError } from '../pdf-error.ts';

/** A unit of work; it must stop (kill its process, close its page) when `signal` aborts. */
export type Job<T> = (signal: AbortSignal) => Promise<T>;

type Waiting = { start: () => void; reject: (err: Error) => void };

export type WorkQueueOptions = {
  /**
   * Jobs one tenant may have waiting; one more is refused with CONVERTER_BUSY at once. The
   * untenanted ('') are not counted against it. Default: no limit.
   */
  maxWaitingPerTenant?: number;
};

/**
 * Bounded concurrency with a deadline per job. At most `concurrency` jobs run; the rest wait,
 * each tenant's in FIFO order and the tenants in turn: an account that queues a hundred slow
 * documents delays another account's next one by one job per slot, not by a hundred. A job
 * that outlives `timeoutMs` is aborted and its caller gets CONVERSION_TIMEOUT at once, and its
 * slot is freed: the engine behind the job restarts whatever hung, so a zip bomb costs one
 * timeout, never a stuck queue.
 */
export class WorkQueue {
  readonly #concurrency: number;
  readonly #maxWaitingPerTenant: number;
  /** Waiting jobs by tenant; the Map's order is the turn (a served tenant goes to the back). */
  readonly #waiting = new Map<string, Waiting[]>();
  #waitingCount = 0;
  #running = 0;
  #closed = false;

  constructor(concurrency: number, options: WorkQueueOptions = {}) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`concurrency must be a positive integer, got ${concurrency}`);
    const max = options.maxWaitingPerTenant ?? Infinity;
    if (!(max >= 0)) throw new TypeError(`maxWaitingPerTenant must be a number ≥ 0, got ${max}`);
    this.#concurrency = concurrency;
    this.#maxWaitingPerTenant = max;
  }

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting for a slot. */
  get waiting(): number {
    return this.#waitingCount;
  }

  /**
   * Runs `job` when a slot is free and it is `tenant`'s turn; rejects with CONVERSION_TIMEOUT
   * after `timeoutMs` of running, or with CONVERTER_BUSY when the tenant has too many waiting.
   */
  async run<T>(job: Job<T>, timeoutMs: number, what = 'document', tenant = ''): Promise<T> {
    await this.#acquire(tenant);
    const controller = new AbortController();
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.#running--;
      this.#next();
    };
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const err = new PdfError('CONVERSION_TIMEOUT', `The ${what} was not converted within ${timeoutMs} ms.`);
        controller.abort(err);
        release();
        reject(err);
      }, timeoutMs);
    });
    try {
      return await Promise.race([job(controller.signal), deadline]);
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  /** Rejects every waiting job with CONVERTER_CLOSED; running jobs finish or time out. */
  close(): void {
    this.#closed = true;
    const waiting = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    this.#waitingCount = 0;
    for (const w of waiting) w.reject(new PdfError('CONVERTER_CLOSED'));
  }

  async #acquire(tenant: string): Promise<void> {
    if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
    if (this.#running < this.#concurrency) {
      this.#running++;
      return;
    }
    let line = this.#waiting.get(tenant);
    if (tenant !== '' && (line?.length ?? 0) >= this.#maxWaitingPerTenant) {
      throw new PdfError('CONVERTER_BUSY', `${this.#maxWaitingPerTenant} documents of this account are already waiting for conversion.`);
    }
    if (!line) this.#waiting.set(tenant, (line = []));
    const queued = line;
    this.#waitingCount++;
    await new Promise<void>((start, reject) => queued.push({ start, reject }));
  }

  #next(): void {
    if (this.#running >= this.#concurrency) return;
    const turn = this.#waiting.entries().next();
    if (turn.done) return;
    const [tenant, line] = turn.value;
    const w = line.shift()!;
    // Served: the tenant goes to the back of the turn, or leaves it when it has nothing left.
    this.#waiting.delete(tenant);
    if (line.length > 0) this.#waiting.set(tenant, line);
    this.#waitingCount--;
    this.#running++;
    w.start();
  }
}
