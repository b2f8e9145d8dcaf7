// opentelemetry against a real two-worker gateway and a real OTLP/HTTP collector: cases from
// Kong's spec/03-plugins/37-opentelemetry (a span per request exported as protobuf to
// traces_endpoint with the configured headers and resource attributes; W3C traceparent
// continued from the client and sent upstream; http_response_header_for_traceid; batching) and
// its schema refusals of what this gateway does not do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { pollUntil } from '@signet/kit';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';
import { decodeTraceRequest, type DecodedSpan } from './otlp-decode.fixture.ts';
import { startPluginGateway } from './plugins.fixture.ts';

test('opentelemetry: spans exported over OTLP/HTTP, W3C trace context continued and propagated', async (t) => {
  const exports: { headers: IncomingHttpHeaders; url: string; spans: DecodedSpan[] }[] = [];
  const collector = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      exports.push({ headers: req.headers, url: req.url ?? '', spans: decodeTraceRequest(Buffer.concat(parts)) });
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => {
    collector.closeAllConnections();
    collector.close(() => resolve());
  }));
  const port = (collector.address() as { port: number }).port;
  const g = await startPluginGateway(t, (upstream) => `_format_version: "3.0"
services:
  - name: traced-service
    url: ${upstream}
    routes:
      - name: traced
        hosts: [otel.test]
        plugins:
          - name: opentelemetry
            config:
              traces_endpoint: http://127.0.0.1:${port}/v1/traces
              headers: { X-Api-Key: k1 }
              resource_attributes: { service.name: signet-edge }
              http_response_header_for_traceid: X-Trace-Id
              queue: { max_batch_size: 3, max_coalescing_delay: 0.1 }
`);

  const PARENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
  const PARENT_SPAN = 'b7ad6b7169203331';
  const withParent = await g.call('/with-parent', { headers: { Host: 'otel.test', traceparent: `00-${PARENT_TRACE}-${PARENT_SPAN}-01` } });
  assert.equal(withParent.status, 200);
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(withParent.json.headers?.traceparent));
  assert.ok(sent, `the upstream gets a traceparent (${withParent.json.headers?.traceparent})`);
  assert.equal(sent[1], PARENT_TRACE, 'the client\'s trace goes on');
  assert.notEqual(sent[2], PARENT_SPAN, 'with the gateway\'s span as parent');
  assert.equal(withParent.headers['x-trace-id'], PARENT_TRACE, 'http_response_header_for_traceid');

  const fresh = await g.call('/fresh', { headers: { Host: 'otel.test', traceparent: 'not-a-traceparent' } });
  const freshTrace = /^00-([0-9a-f]{32})-/.exec(String(fresh.json.headers?.traceparent))?.[1];
  assert.ok(freshTrace !== undefined && freshTrace !== PARENT_TRACE, 'an invalid traceparent starts a new trace');
  for (let i = 0; i < 4; i++) assert.equal((await g.call(`/more/${i}`, { headers: { Host: 'otel.test' } })).status, 200);

  const spans = await pollUntil(() => {
    const all = exports.flatMap((e) => e.spans);
    return all.length >= 6 ? all : undefined;
  }, { timeoutMs: 15_000, intervalMs: 50, what: 'six spans at the collector' });
  for (const e of exports) {
    assert.equal(e.url, '/v1/traces');
    assert.equal(e.headers['content-type'], 'application/x-protobuf');
    assert.equal(e.headers['x-api-key'], 'k1');
    assert.ok(e.spans.length <= 3, 'batches of at most queue.max_batch_size');
  }
  const child = spans.find((s) => s.traceId === PARENT_TRACE)!;
  assert.equal(child.parentSpanId, PARENT_SPAN);
  assert.equal(child.spanId, sent[2], 'the exported span is the one the upstream was told about');
  assert.equal(child.name, 'kong');
  assert.equal(child.kind, 2, 'SPAN_KIND_SERVER');
  assert.ok(child.endNs >= child.startNs && child.startNs > 1_600_000_000_000_000_000n);
  assert.equal(child.attributes['http.method'], 'GET');
  assert.equal(child.attributes['http.status_code'], 200);
  assert.equal(child.attributes['kong.route'], 'traced');
  assert.equal(child.resource['service.name'], 'signet-edge', 'resource_attributes override Kong\'s defaults');
  assert.equal(spans.find((s) => s.traceId === freshTrace)?.parentSpanId, '', 'a new trace has a root span');
});

test('opentelemetry: schema defaults, and refusals by name', () => {
  const parse = (config: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: opentelemetry, config: ${config} }]\n`);
  const fields = (config: string): unknown => {
    try {
      parse(config);
    } catch (err) {
      if (err instanceof GatewayError) return (err.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw err;
    }
    return undefined;
  };
  const conf = parse('{ traces_endpoint: "http://c.test:4318/v1/traces" }').plugins[0]!.config;
  assert.deepEqual(fields('{ endpoint: "http://c.test:4318/v1/traces" }'), { endpoint: 'unknown field', '@entity': ["at least one of these fields must be non-empty: 'traces_endpoint', 'logs_endpoint'"] });
  assert.equal((conf.queue as { max_batch_size: number }).max_batch_size, 200);
  assert.deepEqual([conf.connect_timeout, conf.send_timeout, conf.read_timeout, conf.header_type], [1000, 5000, 5000, 'preserve']);
  assert.deepEqual(fields('{}'), { '@entity': ["at least one of these fields must be non-empty: 'traces_endpoint', 'logs_endpoint'"] });
  assert.deepEqual(fields('{ traces_endpoint: "http://c.test/", propagation: { default_format: b3 } }'),
    { propagation: { default_format: "default format 'b3' is not supported by this gateway (only W3C trace context: w3c)" } });
  assert.deepEqual(fields('{ traces_endpoint: "http://c.test/", header_type: jaeger }'), { header_type: "header_type 'jaeger' is not supported by this gateway (only W3C trace context)" });
  assert.match(JSON.stringify(fields('{ logs_endpoint: "http://c.test/v1/logs" }')), /logs_endpoint is not supported by this gateway yet/);
  assert.deepEqual(fields('{ traces_endpoint: "http://c.test/", sampling_rate: 2 }'), { sampling_rate: 'value should be between 0 and 1' });
});
