/** An address the balancer hands out (targets are parsed by declarative's parseTarget). */
export type { Address } from './address.ts';
/** The algorithm port and what a pick depends on. */
export type { Algorithm, Clock, PeerContext, Random } from './algorithm.ts';
/** One upstream's balancer: addresses, weights, availability, threshold, algorithm. */
export { Balancer, isAlgorithmImplemented, type BalancerOptions, type BalancerTarget, type BalancerUpstream } from './balancer.ts';
/** Kong's weighted, shuffled round-robin wheel. */
export { RoundRobin } from './round-robin.ts';
/** Kong's Ketama-style consistent hashing over xxhash32. */
export { ConsistentHashing, continuumSize } from './consistent-hashing.ts';
/** Kong's least-connections and peak-EWMA latency algorithms. */
export { LeastConnections } from './least-connections.ts';
export { Latency } from './latency.ts';
/** What a consistent-hashing upstream hashes for a request. */
export { cookieValue, hashValueFor, queryArgValue, type HashRequest, type HashSettings, type HashValue } from './hash-value.ts';
export { xxhash32 } from './xxhash32.ts';
