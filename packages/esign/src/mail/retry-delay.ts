/** Backoff settings: the first retry waits about `baseMs`, doubling up to `maxMs`. */
export type RetryPolicy = { readonly baseMs: number; readonly maxMs: number; readonly maxAttempts: number };

/** Default: 2 s, 4 s, 8 s ... capped at 15 min; 10 attempts span roughly half an hour. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 2_000, maxMs: 15 * 60_000, maxAttempts: 10 };

/**
 * Exponential backoff with "equal jitter" (half fixed, half random): `random` in [0, 1) keeps
 * many instances that failed together from retrying in lockstep, while every retry still waits
 * at least half its step. `attempt` is the attempt that just failed (1-based).
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: number): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * random);
}
