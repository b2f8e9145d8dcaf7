import type { MetricsState } from '../metrics/index.ts';

// Workers push their proxy metrics to the primary, which serves GET /metrics summed over them.
export const METRICS_TAG = 'signet:metrics';

/** How often a worker pushes its counters. */
export const METRICS_PUSH_MS = 1000;

/** Worker → primary: the worker's counters so far. */
export type MetricsMessage = { readonly tag: typeof METRICS_TAG; readonly state: MetricsState };

/** True for a message of this protocol. */
export function isMetricsMessage(message: unknown): message is MetricsMessage {
  return typeof message === 'object' && message !== null && (message as { tag?: unknown }).tag === METRICS_TAG;
}
