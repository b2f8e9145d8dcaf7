import type { Address } from './address.ts';
import type { Algorithm, PeerContext, Random } from './algorithm.ts';

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Kong's round-robin (kong/runloop/balancer/round_robin.lua): a wheel holding weight/gcd entries
 * per address, shuffled, walked by a pointer. Exact over every full turn of the wheel: weights
 * 10/20 over 300 picks give 100/200. `slots` is not used, as in Kong.
 */
export class RoundRobin implements Algorithm {
  readonly #addresses: readonly Address[];
  readonly #random: Random;
  #wheel: Address[] = [];
  #pointer = 0;

  constructor(addresses: readonly Address[], random: Random) {
    this.#addresses = addresses;
    this.#random = random;
    this.afterHostUpdate();
  }

  /** Rebuilds and reshuffles the wheel from all addresses, available or not; the pointer stays. */
  afterHostUpdate(): void {
    let divisor = 0;
    for (const a of this.#addresses) if (a.weight > 0) divisor = gcd(divisor, a.weight);
    const wheel: Address[] = [];
    for (const a of this.#addresses) {
      for (let i = 0; i < (divisor === 0 ? 0 : a.weight / divisor); i++) wheel.push(a);
    }
    // Fisher-Yates, as Kong does with math.random.
    for (let i = wheel.length - 1; i > 0; i--) {
      const j = Math.floor(this.#random() * (i + 1));
      const t = wheel[i]!;
      wheel[i] = wheel[j]!;
      wheel[j] = t;
    }
    this.#wheel = wheel;
    if (this.#pointer >= wheel.length) this.#pointer = 0;
  }

  /** The next available entry after the pointer; a full turn without one means no peer. */
  getPeer(_ctx: PeerContext): Address | undefined {
    const wheel = this.#wheel;
    const size = wheel.length;
    if (size === 0) return undefined;
    const start = this.#pointer;
    let p = start;
    do {
      p = p + 1 === size ? 0 : p + 1;
      const a = wheel[p]!;
      if (a.available) {
        this.#pointer = p;
        return a;
      }
    } while (p !== start);
    return undefined;
  }
}
