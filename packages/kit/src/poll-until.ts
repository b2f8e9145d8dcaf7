/** Options for {@link pollUntil}. */
export type PollOptions = {
  /** Give up after this long. */
  timeoutMs?: number;
  /** Pause between attempts. */
  intervalMs?: number;
  /** Named in the timeout error, to say what was awaited. */
  what?: string;
};

/**
 * Calls `probe` until it returns a value other than undefined/false, or the deadline passes.
 * This is how tests and start-up wait for state: a deadline, never a fixed sleep.
 */
export async function pollUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 10_000, intervalMs = 20, what = 'condition' }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
