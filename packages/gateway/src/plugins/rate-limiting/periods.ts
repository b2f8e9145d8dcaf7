// Kong's rate-limiting windows (kong/plugins/rate-limiting/expiration.lua and
// kong/tools/timestamp.lua get_timestamps): each period's window starts on the UTC calendar
// (second, minute, hour, day, first of the month, first of January) and lasts a fixed number
// of seconds for counter expiry (a month is 30 days, a year 365, as in Kong).

/** The periods in Kong's order, smallest first. */
export const PERIODS = ['second', 'minute', 'hour', 'day', 'month', 'year'] as const;
export type Period = (typeof PERIODS)[number];

/** Kong's EXPIRATION: a counter's lifetime in seconds, also the window in RateLimit-Reset. */
export const EXPIRATION: Readonly<Record<Period, number>> = {
  second: 1, minute: 60, hour: 3600, day: 86400, month: 2592000, year: 31536000,
};

/** The start of the window containing `nowMs`, in ms (Kong's get_timestamps()[period]). */
export function windowStart(period: Period, nowMs: number): number {
  switch (period) {
    case 'second': return Math.floor(nowMs / 1000) * 1000;
    case 'minute': return Math.floor(nowMs / 60_000) * 60_000;
    case 'hour': return Math.floor(nowMs / 3_600_000) * 3_600_000;
    // A UTC day is a fixed 86,400,000 ms (no leap seconds in ECMAScript time).
    case 'day': return Math.floor(nowMs / 86_400_000) * 86_400_000;
    case 'month': {
      const d = new Date(nowMs);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
    case 'year': return Date.UTC(new Date(nowMs).getUTCFullYear(), 0, 1);
  }
}
