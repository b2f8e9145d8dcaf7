import type { ActiveHealthcheck } from '../declarative/types.ts';
import type { CheckedAddress, HealthChecker, HealthOutcome } from './health-checker.ts';
import { isUp } from './target-state.ts';

/** The timer functions the prober uses; injected so unit tests drive time by hand. */
export type Timers = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** Everything one probe needs: where, how (the upstream's `active` record), and the Host header. */
export type ProbeRequest = {
  readonly address: CheckedAddress;
  readonly active: ActiveHealthcheck;
  /** `upstream.host_header`, else the target's host name (Kong sends no port). */
  readonly hostHeader: string;
  /** PEM client certificate and key for https probes (`upstream.client_certificate`). */
  readonly clientCertificate?: { readonly cert: string; readonly key: string };
  /** Extra trusted CA certificates (PEM) for https probes, besides Node's bundled roots (Kong: lua_ssl_trusted_certificate). */
  readonly trustedCa?: readonly string[];
  /** Aborted when the prober stops (reload, shutdown): the probe settles quickly, unreported. */
  readonly signal: AbortSignal;
};

/** Runs one probe and says what happened; must never reject. */
export type Probe = (request: ProbeRequest) => Promise<HealthOutcome>;

export type ActiveProberOptions = {
  readonly probe: Probe;
  readonly timers?: Timers;
  readonly clientCertificate?: { readonly cert: string; readonly key: string };
  readonly trustedCa?: readonly string[];
  /** Where outcomes go; defaults to the checker itself (a cluster primary may relay them). */
  readonly report?: (address: CheckedAddress, outcome: HealthOutcome) => void;
};

type Mode = 'healthy' | 'unhealthy';

const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Active health checks of one upstream (healthcheck.lua `checker_callback` and
 * `active_check_targets`; docs/gateway-health.md, "Active probes"):
 * - two loops, one over targets that are up (`healthy.interval`) and one over targets that are
 *   down (`unhealthy.interval`); an interval of 0 pauses that loop, both 0 → no probing;
 * - the first round comes one interval after start (Kong's `last_run` starts at creation);
 * - a round still running when the next is due delays it (Kong's callback lock) and a target
 *   already being probed is skipped, so no target is ever probed twice at once;
 * - targets are dealt round-robin into `concurrency` packages, each probed sequentially.
 */
export class ActiveProber {
  readonly #checker: HealthChecker;
  readonly #probe: Probe;
  readonly #timers: Timers;
  readonly #report: (address: CheckedAddress, outcome: HealthOutcome) => void;
  readonly #clientCertificate: { readonly cert: string; readonly key: string } | undefined;
  readonly #trustedCa: readonly string[] | undefined;
  readonly #abort = new AbortController();
  readonly #timer: Record<Mode, unknown> = { healthy: undefined, unhealthy: undefined };
  readonly #running: Record<Mode, boolean> = { healthy: false, unhealthy: false };
  readonly #due: Record<Mode, boolean> = { healthy: false, unhealthy: false };
  readonly #inFlight = new Set<string>();
  readonly #rounds = new Set<Promise<void>>();

  constructor(checker: HealthChecker, options: ActiveProberOptions) {
    this.#checker = checker;
    this.#probe = options.probe;
    this.#timers = options.timers ?? REAL_TIMERS;
    this.#clientCertificate = options.clientCertificate;
    this.#trustedCa = options.trustedCa;
    this.#report = options.report ?? ((address, outcome) => checker.report(address.key, outcome, 'active'));
  }

  /** Arms both loops (those with a non-zero interval). */
  start(): void {
    this.#arm('healthy');
    this.#arm('unhealthy');
  }

  /** Stops the loops and aborts in-flight probes; resolves when every round has settled. */
  async stop(): Promise<void> {
    this.#abort.abort();
    for (const mode of ['healthy', 'unhealthy'] as const) {
      if (this.#timer[mode] !== undefined) this.#timers.clearTimeout(this.#timer[mode]);
      this.#timer[mode] = undefined;
    }
    await Promise.all(this.#rounds);
  }

  /** Addresses being probed right now (for tests and the never-twice-at-once invariant). */
  get inFlight(): ReadonlySet<string> {
    return this.#inFlight;
  }

  #intervalMs(mode: Mode): number {
    return this.#checker.upstream.healthchecks.active[mode].interval * 1000;
  }

  #arm(mode: Mode): void {
    const ms = this.#intervalMs(mode);
    if (ms <= 0 || this.#abort.signal.aborted) return;
    this.#timer[mode] = this.#timers.setTimeout(() => this.#fire(mode), ms);
  }

  #fire(mode: Mode): void {
    this.#timer[mode] = undefined;
    if (this.#abort.signal.aborted) return;
    if (this.#running[mode]) {
      this.#due[mode] = true;
      return;
    }
    this.#arm(mode);
    const round = this.#round(mode);
    this.#rounds.add(round);
    void round.finally(() => this.#rounds.delete(round));
  }

  async #round(mode: Mode): Promise<void> {
    this.#running[mode] = true;
    try {
      const wantUp = mode === 'healthy';
      const targets: CheckedAddress[] = [];
      for (const { address, state } of this.#checker.entries()) {
        if (isUp(state.health) === wantUp && !this.#inFlight.has(address.key)) targets.push(address);
      }
      const concurrency = Math.max(1, this.#checker.upstream.healthchecks.active.concurrency);
      const packages: CheckedAddress[][] = [];
      targets.forEach((t, i) => (packages[i % concurrency] ??= []).push(t));
      await Promise.all(packages.map((p) => this.#runPackage(p)));
    } finally {
      this.#running[mode] = false;
    }
    if (this.#due[mode]) {
      this.#due[mode] = false;
      if (this.#timer[mode] !== undefined) this.#timers.clearTimeout(this.#timer[mode]);
      this.#fire(mode);
    }
  }

  async #runPackage(addresses: readonly CheckedAddress[]): Promise<void> {
    const upstream = this.#checker.upstream;
    for (const address of addresses) {
      if (this.#abort.signal.aborted) return;
      if (this.#inFlight.has(address.key)) continue;
      this.#inFlight.add(address.key);
      try {
        const outcome = await this.#probe({
          address,
          active: upstream.healthchecks.active,
          hostHeader: upstream.host_header ?? address.hostname,
          ...(this.#clientCertificate ? { clientCertificate: this.#clientCertificate } : {}),
          ...(this.#trustedCa ? { trustedCa: this.#trustedCa } : {}),
          signal: this.#abort.signal,
        });
        if (!this.#abort.signal.aborted) this.#report(address, outcome);
      } finally {
        this.#inFlight.delete(address.key);
      }
    }
  }
}
