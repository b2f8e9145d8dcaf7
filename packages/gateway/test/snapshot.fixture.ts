// Snapshot entities built in code with Kong's defaults (kong/db/schema/entities/*.lua), for data-plane tests that
// must not depend on the kong.yml parser.
import type { Certificate, Healthchecks, Route, Service, Sni, Snapshot, Target, Upstream } from '../src/declarative/types.ts';

let counter = 0;
const nextId = (): string => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const times = { created_at: 1_700_000_000, updated_at: 1_700_000_000 };

/** Kong's default `healthchecks` (entities/upstreams.lua): everything off. */
export const DEFAULT_HEALTHCHECKS: Healthchecks = {
  active: {
    type: 'http', timeout: 1, concurrency: 10, http_path: '/', https_sni: null, https_verify_certificate: true, headers: null,
    healthy: { interval: 0, http_statuses: [200, 302], successes: 0 },
    unhealthy: { interval: 0, http_statuses: [429, 404, 500, 501, 502, 503, 504, 505], tcp_failures: 0, timeouts: 0, http_failures: 0 },
  },
  passive: {
    type: 'http',
    healthy: { http_statuses: [200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308], successes: 0 },
    unhealthy: { http_statuses: [429, 500, 503], tcp_failures: 0, timeouts: 0, http_failures: 0 },
  },
  threshold: 0,
};

export function service(fields: Partial<Service> & { host: string }): Service {
  return {
    id: nextId(), name: null, protocol: 'http', port: 80, path: null, retries: 5,
    connect_timeout: 60_000, write_timeout: 60_000, read_timeout: 60_000, tags: null,
    client_certificate: null, tls_verify: null, tls_verify_depth: null, ca_certificates: null, enabled: true,
    ...times, ...fields,
  };
}

export function route(fields: Partial<Route>): Route {
  return {
    id: nextId(), name: null, protocols: ['http', 'https'], methods: null, hosts: null, paths: null, headers: null,
    snis: null, sources: null, destinations: null, strip_path: true, preserve_host: false, regex_priority: 0,
    path_handling: 'v0', https_redirect_status_code: 426, request_buffering: true, response_buffering: true,
    service: null, tags: null, ...times, ...fields,
  };
}

export function upstream(fields: Partial<Upstream> & { name: string }): Upstream {
  return {
    id: nextId(), algorithm: 'round-robin', hash_on: 'none', hash_fallback: 'none', hash_on_header: null,
    hash_fallback_header: null, hash_on_cookie: null, hash_on_cookie_path: '/', hash_on_query_arg: null,
    hash_fallback_query_arg: null, hash_on_uri_capture: null, hash_fallback_uri_capture: null, slots: 10_000,
    healthchecks: DEFAULT_HEALTHCHECKS, tags: null, host_header: null, client_certificate: null, use_srv_name: false,
    ...times, ...fields,
  };
}

export function target(up: Upstream, targetString: string, weight = 100): Target {
  return { id: nextId(), upstream: { id: up.id }, target: targetString, weight, tags: null, ...times };
}

export function certificate(cert: string, key: string): Certificate {
  return { id: nextId(), cert, key, cert_alt: null, key_alt: null, tags: null, ...times };
}

export function sni(name: string, cert: Certificate): Sni {
  return { id: nextId(), name, certificate: { id: cert.id }, tags: null, ...times };
}

export function snapshot(parts: Partial<Omit<Snapshot, 'hash'>>): Snapshot {
  return {
    services: [], routes: [], upstreams: [], targets: [], certificates: [], snis: [],
    consumers: [], plugins: [], keyauth_credentials: [], basicauth_credentials: [], acls: [], jwt_secrets: [], hmacauth_credentials: [],
    consumer_groups: [], consumer_group_consumers: [], ...parts,
    hash: '0'.repeat(32),
  };
}
