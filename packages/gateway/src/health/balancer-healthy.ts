/**
 * Kong balancers.lua updateStatus: the upstream is healthy iff its total weight is positive and
 * the available share, in percent, is strictly greater than `threshold`. So
 * threshold 0 with everything down, threshold 100 with everything up, and threshold 50 with half
 * the weight down are all unhealthy.
 */
export function balancerHealthy(totalWeight: number, unavailableWeight: number, threshold: number): boolean {
  if (totalWeight <= 0) return false;
  return ((totalWeight - unavailableWeight) / totalWeight) * 100 > threshold;
}
