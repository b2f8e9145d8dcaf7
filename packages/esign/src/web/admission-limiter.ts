import { isIP } from 'node:net';

export type Admission = { ok: true; release: () => void } | { ok: false; reason: 'rate' | 'busy'; retryAfterS: number };

/**
 * Whose budget a request spends: an IPv4 address, or an IPv6 address's /64. One subscriber
 * line or host is routinely handed a whole /64, so counting single IPv6 addresses would give
 * an attacker 2^64 fresh budgets.
 */
export function rateKey(address: string): string {
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4;
  if (isIP(address) !== 6) return address;
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/**
 * What keeps an anonymous, costly endpoint (/verify's uploads, the password checks of login and
 * sign-up) from being a CPU or memory sink. It admits a request before its work, so a refused
 * one costs nothing: per client (rateKey), `perWindow` requests per window (fixed windows, the
 * map cleared as they pass) and `perClient` in flight at once; across everyone, `inFlight`
 * requests at once. The rest are told to come back, never queued.
 */
export class AdmissionLimiter {
  readonly #perWindow: number;
  readonly #windowMs: number;
  readonly #inFlight: number;
  readonly #perClient: number;
  readonly #clock: () => number;
  #windowStart = 0;
  readonly #counts = new Map<string, number>();
  readonly #running = new Map<string, number>();
  #total = 0;

  constructor(options: { perWindow: number; windowMs: number; inFlight: number; perClient?: number; clock?: () => number }) {
    this.#perWindow = options.perWindow;
    this.#windowMs = options.windowMs;
    this.#inFlight = options.inFlight;
    this.#perClient = options.perClient ?? 2;
    this.#clock = options.clock ?? Date.now;
  }

  /** A place and its release function, or why not; the caller must release what it took. */
  admit(client: string): Admission {
    const key = rateKey(client);
    const now = this.#clock();
    if (now - this.#windowStart >= this.#windowMs) {
      this.#windowStart = now;
      this.#counts.clear();
    }
    const retryAfterS = Math.max(1, Math.ceil((this.#windowStart + this.#windowMs - now) / 1000));
    const used = this.#counts.get(key) ?? 0;
    if (used >= this.#perWindow) return { ok: false, reason: 'rate', retryAfterS };
    const running = this.#running.get(key) ?? 0;
    if (running >= this.#perClient || this.#total >= this.#inFlight) return { ok: false, reason: 'busy', retryAfterS: 2 };
    this.#counts.set(key, used + 1);
    this.#running.set(key, running + 1);
    this.#total += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#total -= 1;
        const left = (this.#running.get(key) ?? 1) - 1;
        if (left > 0) this.#running.set(key, left);
        else this.#running.delete(key);
      },
    };
  }
}
