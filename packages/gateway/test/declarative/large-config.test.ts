import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issueCertificate } from '@signet/kit';
import { parseDeclarativeConfig, exportConfig, type Snapshot } from '../../src/declarative/index.ts';

// A kong.yml of 1,100 entities, the size docs/gateway-config.md quotes parse times for.
function largeConfig(): string {
  const lines = ['_format_version: "3.0"', 'services:'];
  for (let i = 0; i < 200; i++) {
    lines.push(`  - name: svc-${i}`, `    host: up-${i % 100}`, '    routes:', `      - name: r-${i}`);
    lines.push(`        paths: ["/p${i}", "~/x${i}/(?<id>\\\\d+)$"]`, `        hosts: ["h${i}.example.com", "*.w${i}.example.com"]`);
  }
  lines.push('upstreams:');
  for (let i = 0; i < 100; i++) {
    lines.push(`  - name: up-${i}`, '    healthchecks: { active: { healthy: { interval: 5, successes: 2 } } }', '    targets:');
    for (let j = 0; j < 4; j++) lines.push(`      - { target: "10.0.${i}.${j}:8080", weight: ${10 + j} }`);
  }
  lines.push('certificates:');
  const pem = (text: string): string => '|\n' + text.trim().split('\n').map((l) => `      ${l}`).join('\n');
  const cert = issueCertificate({ commonName: 'bulk.test' });
  for (let i = 0; i < 100; i++) {
    lines.push(`  - id: 00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `    cert: ${pem(cert.certPem)}`, `    key: ${pem(cert.keyPem)}`);
    lines.push(`    snis: [{ name: "c${i}.test" }]`);
  }
  return lines.join('\n') + '\n';
}

const total = (s: Snapshot): number =>
  s.services.length + s.routes.length + s.upstreams.length + s.targets.length + s.certificates.length + s.snis.length;

test('a 1,100-entity kong.yml parses completely and deterministically; export parses back the same', (t) => {
  const text = largeConfig();
  const started = performance.now();
  const a = parseDeclarativeConfig(text, { now: 1 });
  const ms = performance.now() - started;
  t.diagnostic(`parsed ${total(a)} entities (${text.length} bytes) in ${ms.toFixed(0)} ms`);
  assert.deepEqual(
    [a.services.length, a.routes.length, a.upstreams.length, a.targets.length, a.certificates.length, a.snis.length],
    [200, 200, 100, 400, 100, 100],
  );
  const ids = [a.services, a.routes, a.upstreams, a.targets, a.certificates, a.snis].flat().map((e) => e.id);
  assert.equal(new Set(ids).size, 1100);
  assert.deepEqual(parseDeclarativeConfig(text, { now: 1 }), a);
  const again = parseDeclarativeConfig(exportConfig(a));
  assert.deepEqual({ ...again, hash: a.hash }, a);
});
