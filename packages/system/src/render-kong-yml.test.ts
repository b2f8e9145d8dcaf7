import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument, Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { issueCertificate } from '@signet/kit';
import { renderKongYml } from './render-kong-yml.ts';

const template = readFileSync(join(import.meta.dirname, '../../../deploy/kong.yml'), 'utf8');
const cert = issueCertificate({ commonName: 'localhost', days: 1 });

test('targets follow the esign instances and the certificate is a block scalar with its sni', () => {
  const out = renderKongYml(template, { esignPorts: [4001, 4002, 4003], certPem: cert.certPem, keyPem: cert.keyPem });
  const doc = parseDocument(out);
  assert.deepEqual(doc.errors, []);
  const js = doc.toJS() as { upstreams: { name: string; targets: { target: string }[] }[]; certificates: { cert: string; key: string; snis: { name: string }[] }[] };
  assert.deepEqual(js.upstreams[0]?.targets.map((t) => t.target), ['127.0.0.1:4001', '127.0.0.1:4002', '127.0.0.1:4003']);
  assert.equal(js.certificates[0]?.cert, cert.certPem);
  assert.equal(js.certificates[0]?.key, cert.keyPem);
  assert.deepEqual(js.certificates[0]?.snis, [{ name: 'localhost' }]);
  const certNode = ((doc.get('certificates') as YAMLSeq).items[0] as YAMLMap).get('cert', true) as Scalar;
  assert.equal(certNode.type, Scalar.BLOCK_LITERAL);
  assert.match(out, /cert: \|/);
});

test('the template\'s routes, health checks and comments survive rendering', () => {
  const out = renderKongYml(template, { esignPorts: [3001], certPem: cert.certPem, keyPem: cert.keyPem });
  const js = parseDocument(out).toJS() as { services: { routes: { name: string }[] }[]; upstreams: { healthchecks: { active: { http_path: string } } }[] };
  assert.deepEqual(js.services[0]?.routes.map((r) => r.name), ['oauth', 'oauth-token', 'restapi', 'console', 'signing', 'health', 'esign-pages']);
  assert.equal(js.upstreams[0]?.healthchecks.active.http_path, '/health');
  assert.match(out, /# Equal to the upstream's name/);
});

test('every esign route is behind request-size-limiting at esign\'s own body limit (36 MiB)', () => {
  const out = renderKongYml(template, { esignPorts: [3001], certPem: cert.certPem, keyPem: cert.keyPem });
  const js = parseDocument(out).toJS() as { services: { name: string; plugins?: { name: string; config: Record<string, unknown> }[] }[] };
  const esign = js.services.find((s) => s.name === 'esign');
  // On the service, so no route (and no route added later) escapes it; docs/gateway-plugins.md "Signet's own limits".
  assert.deepEqual(esign?.plugins?.find((p) => p.name === 'request-size-limiting')?.config, { allowed_payload_size: 36, size_unit: 'megabytes' });
});

test('every request gets a correlation id esign logs (the header esign reads) and Kong\'s metrics', () => {
  const out = renderKongYml(template, { esignPorts: [3001], certPem: cert.certPem, keyPem: cert.keyPem });
  const js = parseDocument(out).toJS() as { plugins?: { name: string; config: Record<string, unknown> }[] };
  // Global: a request no route matches is counted and tagged too.
  const correlation = js.plugins?.find((p) => p.name === 'correlation-id')?.config;
  // The header esign binds to its log lines (packages/esign/src/web/request-log-bindings.ts).
  assert.equal(String(correlation?.header_name).toLowerCase(), 'x-correlation-id');
  assert.equal(correlation?.echo_downstream, true);
  assert.deepEqual(js.plugins?.find((p) => p.name === 'prometheus')?.config,
    { status_code_metrics: true, latency_metrics: true, bandwidth_metrics: true, upstream_health_metrics: true });
});

test('a template without the esign upstream is refused', () => {
  assert.throws(() => renderKongYml('_format_version: "3.0"\nupstreams: []\n', { esignPorts: [1], certPem: 'x', keyPem: 'y' }), /no upstream named esign.upstream/);
});
