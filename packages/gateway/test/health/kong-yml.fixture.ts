// kong.yml for the gateway health tests: one service routed on "/", one upstream with the given
// healthchecks record (JSON is YAML) over the given switchable upstreams, weight 10 each.
import type { SwitchableUpstream } from './switchable-upstream.ts';

export type HealthYmlOptions = {
  readonly healthchecks: object;
  readonly retries?: number;
  readonly readTimeoutMs?: number;
  readonly writeTimeoutMs?: number;
  readonly weights?: readonly number[];
  /** The service protocol (https for TLS upstreams). */
  readonly protocol?: 'http' | 'https';
};

export const UPSTREAM = 'svc.upstream';

export function healthKongYml(servers: readonly SwitchableUpstream[], options: HealthYmlOptions): string {
  const targets = servers
    .map((s, i) => `      - target: ${s.target}\n        weight: ${options.weights?.[i] ?? 10}`)
    .join('\n');
  return `_format_version: "3.0"
services:
  - name: svc
    host: ${UPSTREAM}
    protocol: ${options.protocol ?? 'http'}
    retries: ${options.retries ?? 5}
    read_timeout: ${options.readTimeoutMs ?? 60000}
    write_timeout: ${options.writeTimeoutMs ?? 60000}
    routes:
      - name: all
        paths: ["/"]
        strip_path: false
upstreams:
  - name: ${UPSTREAM}
    healthchecks: ${JSON.stringify(options.healthchecks)}
    targets:
${targets}
`;
}
