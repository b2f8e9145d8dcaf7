// kong.yml for the reliability tests.

/** One service on "/" over one upstream of the given targets; passive checks as given. */
export function faultKongYml(targets: readonly string[], o: { retries?: number; readTimeoutMs?: number; healthchecks?: object } = {}): string {
  return `_format_version: "3.0"
services:
  - name: svc
    host: svc.upstream
    retries: ${o.retries ?? 5}
    connect_timeout: 1000
    read_timeout: ${o.readTimeoutMs ?? 60000}
    routes:
      - name: all
        paths: ["/"]
upstreams:
  - name: svc.upstream
    healthchecks: ${JSON.stringify(o.healthchecks ?? {})}
    targets:
${targets.map((t) => `      - target: ${t}`).join('\n')}
`;
}

