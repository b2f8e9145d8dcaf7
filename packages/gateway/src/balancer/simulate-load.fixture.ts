import type { Balancer } from './balancer.ts';

/**
 * A closed-loop load simulation on virtual time: `clients` each send a request, wait for its
 * answer, and send the next, for `durationMs`. Target i answers after `delaysMs[i]`. The
 * balancer's clock is `clock.now`, so the latency EWMA sees the simulated times. Returns the
 * number of answered requests per target.
 */
export function simulateLoad(
  balancer: Balancer,
  clock: { now: number },
  delaysMs: readonly number[],
  bursts: readonly { clients: number; durationMs: number }[],
): number[] {
  const ok = delaysMs.map(() => 0);
  for (const burst of bursts) {
    const end = clock.now + burst.durationMs;
    // In-flight requests: when each completes and on which address.
    const inflight: { at: number; index: number; startedAt: number }[] = [];
    const send = () => {
      const a = balancer.getPeer();
      if (a === undefined) throw new Error('no peer');
      const index = balancer.addresses.indexOf(a);
      inflight.push({ at: clock.now + delaysMs[index]!, index, startedAt: clock.now });
    };
    for (let c = 0; c < burst.clients; c++) send();
    while (inflight.length > 0) {
      inflight.sort((x, y) => x.at - y.at);
      const done = inflight.shift()!;
      clock.now = done.at;
      const address = balancer.addresses[done.index]!;
      balancer.release(address, clock.now - done.startedAt);
      if (clock.now <= end) {
        ok[done.index]!++;
        send();
      }
    }
  }
  return ok;
}
