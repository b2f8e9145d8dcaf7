import { pollUntil } from '@signet/kit';

/** One URL that answers 2xx once a part can serve. */
export type ReadinessProbe = { part: string; url: string; headers?: Readonly<Record<string, string>> };

export type WaitOptions = {
  /** Give up on a part after this long. */
  timeoutMs: number;
  intervalMs?: number;
  /** Settles when the system stopped while we waited (a part died): waiting ends at once. */
  stopped?: Promise<unknown>;
  /** Injected for tests; global fetch otherwise. */
  fetch?: typeof fetch;
};

/** The result of waiting: every part ready, or the first one that was not, and why. */
export type Readiness = { ready: true } | { ready: false; part: string; reason: string };

const PROBE_TIMEOUT_MS = 2000;

/**
 * Polls each probe with a deadline until it answers 2xx. A log line saying "listening" is not
 * enough: esign answers /health only once its store is reachable, and the gateway's proxy
 * listeners open after its admin API.
 */
export async function waitUntilReady(probes: readonly ReadinessProbe[], options: WaitOptions): Promise<Readiness> {
  const get = options.fetch ?? fetch;
  let stopped = false;
  void options.stopped?.then(() => (stopped = true));
  for (const probe of probes) {
    try {
      const outcome = await pollUntil(async () => {
        if (stopped) return 'stopped' as const;
        const res = await get(probe.url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), ...(probe.headers ? { headers: probe.headers } : {}) });
        await res.body?.cancel();
        return res.ok ? ('ok' as const) : false;
      }, { timeoutMs: options.timeoutMs, intervalMs: options.intervalMs ?? 100, what: `${probe.part} at ${probe.url}` });
      if (outcome === 'stopped') return { ready: false, part: probe.part, reason: 'the system stopped while it was starting' };
    } catch (err) {
      const cause = (err as Error).cause;
      const detail = cause instanceof Error ? `: ${cause.cause instanceof Error ? cause.cause.message : cause.message}` : '';
      return { ready: false, part: probe.part, reason: `${probe.url} did not answer 2xx within ${options.timeoutMs / 1000} s${detail}` };
    }
  }
  return { ready: true };
}
