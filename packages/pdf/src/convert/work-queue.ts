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
 * each tenant's in FIFO order, and a free slot goes to the waiting tenant whose last job started
 * longest ago (one that has none running yet first): an account that queues a hundred slow
 * documents delays another account's next one by at most one job per slot. A job
 * that outlives `timeoutMs` is aborted and its caller gets CONVERSION_TIMEOUT at once, and its
 * slot is freed: the engine behind the job restarts whatever hung, so a zip bomb costs one
 * timeout, never a stuck queue.
 */
export class WorkQueue {
  readonly #concurrency: number;
  readonly #maxWaitingPerTenant: number;
  /** Waiting jobs by tenant (the Map's order breaks ties: first come first). */
  readonly #waiting = new Map<string, Waiting[]>();
  /**
   * When each tenant with work here last started a job (a count of starts), and how many of
   * its jobs run: a tenant leaves both when it has nothing running or waiting.
   */
  readonly #lastStart = new Map<string, number>();
  readonly #runningBy = new Map<string, number>();
  #starts = 0;
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
      const left = (this.#runningBy.get(tenant) ?? 1) - 1;
      if (left > 0) this.#runningBy.set(tenant, left);
      else {
        this.#runningBy.delete(tenant);
        if (!this.#waiting.has(tenant)) this.#lastStart.delete(tenant);
      }
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
    for (const t of this.#lastStart.keys()) if (!this.#runningBy.has(t)) this.#lastStart.delete(t);
    for (const w of waiting) w.reject(new PdfError('CONVERTER_CLOSED'));
  }

  async #acquire(tenant: string): Promise<void> {
    if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
    if (this.#running < this.#concurrency) {
      this.#started(tenant);
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
    let tenant: string | undefined;
    let oldest = Infinity;
    for (const t of this.#waiting.keys()) {
      const last = this.#lastStart.get(t) ?? 0;
      if (last < oldest) [tenant, oldest] = [t, last];
    }
    if (tenant === undefined) return;
    const line = this.#waiting.get(tenant)!;
    const w = line.shift()!;
    if (line.length === 0) this.#waiting.delete(tenant);
    this.#waitingCount--;
    this.#started(tenant);
    w.start();
  }

  #started(tenant: string): void {
    this.#running++;
    this.#runningBy.set(tenant, (this.#runningBy.get(tenant) ?? 0) + 1);
    this.#lastStart.set(tenant, ++this.#starts);
  }
}
