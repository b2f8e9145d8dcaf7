import type { Snapshot } from './types.ts';

const count = (n: number, singular: string): string => `${n} ${singular}${n === 1 ? '' : 's'}`;

/** One line for humans: "2 services, 3 routes, 1 upstream, 2 targets, 1 certificate, 1 sni". */
export function summarizeSnapshot(snapshot: Snapshot): string {
  return [
    count(snapshot.services.length, 'service'),
    count(snapshot.routes.length, 'route'),
    count(snapshot.upstreams.length, 'upstream'),
    count(snapshot.targets.length, 'target'),
    count(snapshot.certificates.length, 'certificate'),
    count(snapshot.snis.length, 'sni'),
  ].join(', ');
}

/** The configuration before any is loaded: no entities, Kong's all-zero hash. */
export const EMPTY_SNAPSHOT: Snapshot = Object.freeze({
  services: Object.freeze([]),
  routes: Object.freeze([]),
  upstreams: Object.freeze([]),
  targets: Object.freeze([]),
  certificates: Object.freeze([]),
  snis: Object.freeze([]),
  hash: '00000000000000000000000000000000',
});
