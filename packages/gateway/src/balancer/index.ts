/** An address the balancer hands out, and the Kong target-string parser. */
export { parseTarget, type Address } from './address.ts';
/** The algorithm port (round-robin today; consistent-hashing and least-connections plug in here). */
export type { Algorithm, PeerContext, Random } from './algorithm.ts';
/** One upstream's balancer: addresses, weights, availability, threshold, algorithm. */
export { Balancer, isAlgorithmImplemented, type BalancerOptions, type BalancerTarget, type BalancerUpstream } from './balancer.ts';
/** Kong's weighted, shuffled round-robin wheel. */
export { RoundRobin } from './round-robin.ts';
