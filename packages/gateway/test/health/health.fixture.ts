// Builders for health tests: Kong's default healthchecks record (Kong's 03-flatten_spec.lua) with overrides, and minimal snapshots holding upstreams and targets.
import type { Healthchecks, Snapshot, Target, Upstream } from '../../src/declarative/types.ts';
import { EMPTY_SNAPSHOT } from '../../src/declarative/index.ts';

type DeepPartial<T> = { -readonly [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Kong's defaults: every interval and threshold 0, so health checks are off. */
export function kongDefaultHealthchecks(): Healthchecks {
  return {
    active: {
      type: 'http',
      timeout: 1,
      concurrency: 10,
      http_path: '/',
      https_sni: null,
      https_verify_certificate: true,
      headers: null,
      healthy: { interval: 0, http_statuses: [200, 302], successes: 0 },
      unhealthy: { interval: 0, http_statuses: [429, 404, 500, 501, 502, 503, 504, 505], tcp_failures: 0, timeouts: 0, http_failures: 0 },
    },
    passive: {
      type: 'http',
      healthy: {
        http_statuses: [200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308],
        successes: 0,
      },
      unhealthy: { http_statuses: [429, 500, 503], tcp_failures: 0, timeouts: 0, http_failures: 0 },
    },
    threshold: 0,
  };
}

function merge<T>(base: T, patch: unknown): T {
  if (patch === undefined) return base;
  if (Array.isArray(patch) || typeof patch !== 'object' || patch === null) return patch as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch)) out[k] = merge(out[k], v);
  return out as T;
}

/** Kong's defaults with fields overridden (lists replace, records merge, as Kong does). */
export function healthchecks(patch: DeepPartial<Healthchecks> = {}): Healthchecks {
  return merge(kongDefaultHealthchecks(), patch);
}

let seq = 0;
const uuid = (): string => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;

/** An upstream with every field Kong fills. */
export function upstream(name: string, hc: Healthchecks = kongDefaultHealthchecks(), id = uuid()): Upstream {
  return {
    id, name, algorithm: 'round-robin', hash_on: 'none', hash_fallback: 'none', hash_on_header: null,
    hash_fallback_header: null, hash_on_cookie: null, hash_on_cookie_path: '/', hash_on_query_arg: null,
    hash_fallback_query_arg: null, hash_on_uri_capture: null, hash_fallback_uri_capture: null, slots: 10000,
    healthchecks: hc, tags: null, host_header: null, client_certificate: null, use_srv_name: false,
    created_at: 1700000000, updated_at: 1700000000,
  };
}

/** A target of `up`. */
export function target(up: Upstream, spec: string, weight = 100, id = uuid()): Target {
  return { id, upstream: { id: up.id }, target: spec, weight, tags: null, created_at: 1700000000.123, updated_at: 1700000000.123 };
}

/** A snapshot holding only upstreams and targets. */
export function snapshot(upstreams: readonly Upstream[], targets: readonly Target[]): Snapshot {
  return { ...EMPTY_SNAPSHOT, upstreams, targets, hash: '0'.repeat(32) };
}
