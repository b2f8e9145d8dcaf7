import type { Address } from './address.ts';
import type { Algorithm, PeerContext } from './algorithm.ts';
import { xxhash32 } from './xxhash32.ts';

// consistent_hashing.lua: entries per address are weight share × #targets × 160 (Ketama's figure).
const POINTS_PER_WEIGHT = 160;
// consistent_hashing.lua new(): a continuum smaller than 1000 points (or absurdly large) gets 1000.
const MIN_POINTS = 1000;
const MAX_POINTS = 2 ** 32;

/** Kong's continuum size for `slots` (kong/runloop/balancer/consistent_hashing.lua): slots=10 in Kong's tests gives 1000. */
export function continuumSize(slots: number): number {
  return slots >= MIN_POINTS && slots <= MAX_POINTS ? slots : MIN_POINTS;
}

// luaxxhash returns a signed 32-bit value and Lua's `%` is floored: this is Kong's index - 1.
function ringIndex(hash: number, points: number): number {
  const signed = hash | 0;
  return ((signed % points) + points) % points;
}

function compareAddresses(a: Address, b: Address): number {
  if (a.host !== b.host) return a.host < b.host ? -1 : 1;
  return a.port - b.port;
}

/**
 * Kong's Ketama-style consistent hashing (kong/runloop/balancer/consistent_hashing.lua): a
 * continuum of `points` slots filled with weighted entries per address, looked up by the
 * xxhash32 of the request's hash value and walked downwards past unavailable addresses. Health
 * changes do not rebuild the continuum, so keys of healthy addresses never move.
 */
export class ConsistentHashing implements Algorithm {
  readonly points: number;
  readonly #continuum: (Address | undefined)[];

  constructor(addresses: readonly Address[], slots: number) {
    this.points = continuumSize(slots);
    this.#continuum = new Array<Address | undefined>(this.points).fill(undefined);
    // Targets sorted by name then port (one address per target here).
    const sorted = [...addresses].sort(compareAddresses);
    let totalWeight = 0;
    for (const a of sorted) totalWeight += a.weight;
    if (totalWeight === 0) return;
    const targets = sorted.length;
    let filled = 0;
    for (const a of sorted) {
      if (a.weight === 0) continue;
      let entries = Math.floor((a.weight / totalWeight) * targets * POINTS_PER_WEIGHT);
      if (entries === 0) entries = 1;
      // The double colon is Kong's: `ip .. ":" .. (":" .. port)`.
      const prefix = `${a.host}::${a.port} `;
      for (let i = 1; i <= entries && filled < this.points; i++) {
        const index = ringIndex(xxhash32(prefix + i), this.points);
        if (this.#continuum[index] === undefined) {
          this.#continuum[index] = a;
          filled++;
        } else {
          entries++; // a collision: Kong tries the next entry number
        }
      }
    }
  }

  /** The continuum depends on weights only, never on health: nothing to rebuild. */
  afterHostUpdate(): void {}

  getPeer(ctx: PeerContext): Address | undefined {
    const continuum = this.#continuum;
    const points = this.points;
    const start = ringIndex(xxhash32(ctx.hashValue ?? ''), points);
    let i = start;
    do {
      const a = continuum[i];
      if (a !== undefined && a.available) return a;
      i = i === 0 ? points - 1 : i - 1;
    } while (i !== start);
    return undefined;
  }
}
