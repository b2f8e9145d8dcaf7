import type { Snapshot, Upstream } from '../declarative/types.ts';

// Services whose traffic is a byte stream: an HTTP or gRPC request to their targets means nothing.
const STREAM_SERVICES = new Set(['tcp', 'tls', 'tls_passthrough', 'udp']);

/**
 * Whether an upstream's active probes run. The spec (§2 healthchecks.active): active checks
 * "do not apply to upstreams assigned to services whose protocol attribute is tcp or tls", so
 * an upstream only such services use gets no http/https/grpc/grpcs probes; a `tcp` probe (a
 * plain connect) still runs, and passive checks still count its proxied connections.
 */
export function activeChecksApply(snapshot: Snapshot, upstream: Upstream): boolean {
  if (upstream.healthchecks.active.type === 'tcp') return true;
  let used = false;
  for (const s of snapshot.services) {
    if (s.host !== upstream.name) continue;
    used = true;
    if (!STREAM_SERVICES.has(s.protocol)) return true;
  }
  return !used;
}
