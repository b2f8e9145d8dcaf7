import type { Snapshot } from './types.ts';

const count = (n: number, singular: string): string => `${n} ${singular}${n === 1 ? '' : 's'}`;

/** One line for humans: "2 services, 3 routes, 1 upstream, 2 targets, 1 certificate, 1 sni" (then consumers, plugins and credentials, if any). */
export function summarizeSnapshot(snapshot: Snapshot): string {
  const parts = [
    count(snapshot.services.length, 'service'),
    count(snapshot.routes.length, 'route'),
    count(snapshot.upstreams.length, 'upstream'),
    count(snapshot.targets.length, 'target'),
    count(snapshot.certificates.length, 'certificate'),
    count(snapshot.snis.length, 'sni'),
  ];
  // Consumers, plugins and credentials are named only when there are some.
  const credentials = snapshot.keyauth_credentials.length + snapshot.basicauth_credentials.length + snapshot.acls.length
    + snapshot.jwt_secrets.length + snapshot.hmacauth_credentials.length;
  if (snapshot.consumers.length > 0) parts.push(count(snapshot.consumers.length, 'consumer'));
  if (snapshot.consumer_groups.length > 0) parts.push(count(snapshot.consumer_groups.length, 'consumer group'));
  if (snapshot.plugins.length > 0) parts.push(count(snapshot.plugins.length, 'plugin'));
  if (credentials > 0) parts.push(count(credentials, 'credential'));
  return parts.join(', ');
}

/** The configuration before any is loaded: no entities, Kong's all-zero hash. */
export const EMPTY_SNAPSHOT: Snapshot = Object.freeze({
  services: Object.freeze([]),
  routes: Object.freeze([]),
  upstreams: Object.freeze([]),
  targets: Object.freeze([]),
  certificates: Object.freeze([]),
  snis: Object.freeze([]),
  consumers: Object.freeze([]),
  plugins: Object.freeze([]),
  keyauth_credentials: Object.freeze([]),
  basicauth_credentials: Object.freeze([]),
  acls: Object.freeze([]),
  jwt_secrets: Object.freeze([]),
  hmacauth_credentials: Object.freeze([]),
  consumer_groups: Object.freeze([]),
  consumer_group_consumers: Object.freeze([]),
  hash: '00000000000000000000000000000000',
});
