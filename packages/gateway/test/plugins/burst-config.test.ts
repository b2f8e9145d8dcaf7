// A kong.yml shaped like Kong's spec/fixtures/burst.yml — Kong Ingress Controller output: about a
// hundred services with KIC's names and timeouts, each behind an upstream of the same name with
// health-check settings, routes with hosts, methods and paths, ip-restriction on every route and
// a global prometheus — generated here (not copied), loaded by a real two-worker gateway, and
// enforced: allowed routes proxy, restricted ones answer Kong's 403, prometheus counts both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { pollUntil } from '@signet/kit';
import { find, parsePrometheusText } from '../metrics/prometheus-text.fixture.ts';
import { startPluginGateway } from './plugins.fixture.ts';

const SERVICES = 100;
// Every seventh route only lets 10.0.0.0/8 in: 127.0.0.1 is refused there.
const restricted = (i: number): boolean => i % 7 === 3;
const ns = (i: number): string => `team${i % 9}-any`;

function burstYml(upstream: string): string {
  const target = upstream.replace('http://', '');
  const out = ['_format_version: "1.1"', 'services:'];
  for (let i = 0; i < SERVICES; i++) {
    const svc = `app-${i}`;
    out.push(
      `- connect_timeout: 60000`, `  host: ${svc}.${ns(i)}.svc`, `  name: ${ns(i)}.${svc}.80`, '  path: /', '  port: 80', '  protocol: http',
      '  read_timeout: 60000', '  retries: 5', '  write_timeout: 60000', '  routes:', '  - hosts:', `    - ${ns(i)}.example.test`,
      `    name: ${ns(i)}.${svc}-ingress.0${i % 3}`,
      ...(i % 2 === 0 ? ['    methods:', '    - POST', '    - GET', '    - PATCH', '    - PUT', '    - DELETE'] : []),
      '    paths:', `    - /${svc}/api`, '    preserve_host: true', '    protocols:', '    - http', '    - https', '    regex_priority: 0',
      `    strip_path: ${i % 2 === 0 ? 'true' : 'false'}`, '    https_redirect_status_code: 426', '    plugins:', '    - name: ip-restriction',
      '      config:', '        deny: null', '        allow:', `        - ${restricted(i) ? '10.0.0.0/8' : '0.0.0.0/0'}`, '      enabled: true',
      '      protocols:', '      - grpc', '      - grpcs', '      - http', '      - https',
    );
  }
  out.push('upstreams:');
  for (let i = 0; i < SERVICES; i++) {
    out.push(
      `- name: app-${i}.${ns(i)}.svc`, '  algorithm: round-robin', '  slots: 10000', '  healthchecks:', '    active:', '      concurrency: 10',
      '      healthy:', '        http_statuses: [200, 302]', '        interval: 0', '        successes: 0', '      http_path: /',
      '      https_verify_certificate: true', '      type: http', '      timeout: 1', '      unhealthy:', '        http_failures: 0',
      '        http_statuses: [429, 404, 500, 501, 502, 503, 504, 505]', '        interval: 0', '        tcp_failures: 0', '        timeouts: 0',
      '    passive:', '      healthy:', '        http_statuses: [200, 201, 202]', '        successes: 0', '      unhealthy:', '        http_failures: 0',
      '        http_statuses: [429, 500, 503]', '        tcp_failures: 0', '        timeouts: 0', '  hash_on: none', '  hash_fallback: none',
      '  hash_on_cookie_path: /', '  targets:', `  - target: ${target}`, '    weight: 100',
    );
  }
  out.push('plugins:', '- name: prometheus', '  enabled: true', '  config: { status_code_metrics: true }', '  protocols:', '  - grpc', '  - grpcs', '  - http', '  - https');
  return out.join('\n') + '\n';
}

test(`a Kong Ingress Controller-shaped kong.yml (${SERVICES} services, ip-restriction on every route, global prometheus) loads and is enforced`, async (t) => {
  const g = await startPluginGateway(t, burstYml);
  const config = (await request(`${g.admin}/config`).then((r) => r.body.json())) as { config?: string } | Record<string, unknown>;
  assert.ok(config !== undefined);
  const plugins = (await request(`${g.admin}/plugins?size=1000`).then((r) => r.body.json())) as { data: { name: string }[] };
  assert.equal(plugins.data.filter((p) => p.name === 'ip-restriction').length, SERVICES);
  assert.equal(plugins.data.filter((p) => p.name === 'prometheus').length, 1);

  const checked = [0, 1, 2, 3, 10, 17, 50, 99];
  for (const i of checked) {
    const res = await g.call(`/app-${i}/api/thing`, { headers: { Host: `${ns(i)}.example.test` } });
    if (restricted(i)) {
      assert.equal(res.status, 403, `app-${i} is restricted`);
      assert.equal(res.json.message, 'IP address not allowed: 127.0.0.1');
    } else {
      assert.equal(res.status, 200, `app-${i} proxies`);
      assert.equal(res.json.url, i % 2 === 0 ? '/thing' : `/app-${i}/api/thing`, 'strip_path as configured');
      assert.equal(res.json.headers?.host, `${ns(i)}.example.test`, 'preserve_host');
    }
  }
  const p = await pollUntil(async () => {
    const text = await request(`${g.admin}/metrics`).then((r) => r.body.text());
    const m = parsePrometheusText(text);
    const counted = find(m, 'kong_http_requests_total', {}).reduce((n, sample) => n + sample.value, 0);
    return counted === checked.length ? m : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200, what: 'the global prometheus to count the requests' });
  assert.equal(find(p, 'kong_http_requests_total', { service: `${ns(3)}.app-3.80`, code: '403', source: 'kong' })[0]?.value, 1);
  assert.equal(find(p, 'kong_http_requests_total', { service: `${ns(0)}.app-0.80`, code: '200', source: 'service' })[0]?.value, 1);
});
