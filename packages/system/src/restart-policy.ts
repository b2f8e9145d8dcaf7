/**
 * When a part that died on its own is started again: exponential backoff, capped, forgiven once
 * the part has stayed up long enough. A crash-looping part keeps being retried at the cap (the
 * cause may be outside it: a database that comes back, a full disk freed); the operator sees it.
 */
export type RestartPolicy = {
  /** Delay before the first restart after a run that counted as stable. */
  initialMs: number;
  /** Each further crash in a row multiplies the delay by this. */
  factor: number;
  /** The delay never grows beyond this. */
  maxMs: number;
  /** A run at least this long resets the backoff: the part was healthy, this crash is news. */
  stableAfterMs: number;
  /** This many crashes in a row make the part "crash-looping" in the logs (with its last lines). */
  loopAfter: number;
};

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialMs: 1000, factor: 2, maxMs: 30_000, stableAfterMs: 60_000, loopAfter: 3 };

/** What the supervisor remembers of a part's crashes. */
export type CrashRecord = {
  /** Crashes since the last stable run. */
  inARow: number;
  /** Crashes since the part was first started. */
  total: number;
};

export const NO_CRASHES: CrashRecord = { inARow: 0, total: 0 };

/** The record after a crash that ended a run of `uptimeMs`, and how long to wait before the restart. */
export function afterCrash(record: CrashRecord, uptimeMs: number, policy: RestartPolicy): { record: CrashRecord; delayMs: number; looping: boolean } {
  const inARow = uptimeMs >= policy.stableAfterMs ? 1 : record.inARow + 1;
  const delayMs = Math.min(policy.maxMs, policy.initialMs * policy.factor ** (inARow - 1));
  return { record: { inARow, total: record.total + 1 }, delayMs, looping: inARow >= policy.loopAfter };
}
