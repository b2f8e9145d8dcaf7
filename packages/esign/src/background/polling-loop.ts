/** One pass of a background worker; resolves true when another pass should follow at once. */
export type Pass = () => Promise<boolean>;

export type PollingLoopOptions = {
  /** Pause between passes when a pass found nothing more to do. */
  intervalMs: number;
  /** A pass that threw (e.g. the database was unreachable): reported, retried at the next poll. */
  onError?: (err: unknown) => void;
};

/**
 * The schedule shared by the esign background workers (mail outbox, completion): passes never
 * overlap, `wake()` asks for a pass now (or right after the running one), `stop()` waits for the
 * pass in progress. Time is only ever setTimeout, so tests drive it through wake() and stop().
 */
export class PollingLoop {
  readonly #pass: Pass;
  readonly #options: PollingLoopOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #wakeRequested = false;

  constructor(pass: Pass, options: PollingLoopOptions) {
    this.#pass = pass;
    this.#options = options;
  }

  /** Starts polling with a pass right away; idempotent. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Runs a pass soon instead of at the next poll. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#wakeRequested = true;
      return;
    }
    this.#schedule(0);
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#loop().finally(() => (this.#running = undefined));
    }, delayMs);
  }

  async #loop(): Promise<void> {
    let next = this.#options.intervalMs;
    try {
      this.#wakeRequested = false;
      if ((await this.#pass()) || this.#wakeRequested) next = 0;
    } catch (err) {
      this.#options.onError?.(err);
    }
    if (!this.#stopped) this.#schedule(next);
  }
}
