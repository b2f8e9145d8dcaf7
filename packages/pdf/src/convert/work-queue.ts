import { PdfError } from '../pdf-error.ts';

/** A unit of work; it must stop (kill its process, close its page) when `signal` aborts. */
export type Job<T> = (signal: AbortSignal) => Promise<T>;

type Waiting = { start: () => void; reject: (err: Error) => void };

/**
 * Bounded concurrency with a deadline per job. At most `concurrency` jobs run; the rest wait
 * in FIFO order. A job that outlives `timeoutMs` is aborted and its caller gets
 * CONVERSION_TIMEOUT at once, and its slot is freed: the engine behind the job restarts
 * whatever hung, so a zip bomb costs one timeout, never a stuck queue.
 */
export class WorkQueue {
  readonly #concurrency: number;
  readonly #waiting: Waiting[] = [];
  #running = 0;
  #closed = false;

  constructor(concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`concurrency must be a positive integer, got ${concurrency}`);
    this.#concurrency = concurrency;
  }

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `job` when a slot is free; rejects with CONVERSION_TIMEOUT after `timeoutMs` of running. */
  async run<T>(job: Job<T>, timeoutMs: number, what = 'document'): Promise<T> {
    await this.#acquire();
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
    for (const w of this.#waiting.splice(0)) w.reject(new PdfError('CONVERTER_CLOSED'));
  }

  async #acquire(): Promise<void> {
    if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
    if (this.#running < this.#concurrency) {
      this.#running++;
      return;
    }
    await new Promise<void>((start, reject) => this.#waiting.push({ start, reject }));
  }

  #next(): void {
    if (this.#running >= this.#concurrency) return;
    const w = this.#waiting.shift();
    if (!w) return;
    this.#running++;
    w.start();
  }
}
