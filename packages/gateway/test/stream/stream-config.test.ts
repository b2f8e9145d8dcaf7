// kong.yml with stream and gRPC entities: what loads (defaults included) and Kong's errors for
// fields a protocol family does not allow.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readStartSettings } from '../../src/cli/read-start-settings.ts';
import { buildGatewayConfig, ConfigError } from '../../src/config.ts';
import { parseDeclarativeConfig } from '../../src/declarative/index.ts';
import { GatewayError } from '../../src/errors.ts';

const parse = (yaml: string) => parseDeclarativeConfig(`_format_version: "3.0"\n${yaml}`, { fileName: 'kong.yml' });

function fieldsOf(yaml: string): unknown {
  try {
    parse(yaml);
  } catch (e) {
    if (e instanceof GatewayError) return (e.toBody() as { fields: unknown }).fields;
    throw e;
  }
  return assert.fail('expected the configuration to be rejected');
}

test('stream and gRPC routes load with their fields; a grpc route defaults strip_path to false', () => {
  const s = parse(`
services:
  - name: db
    protocol: tcp
    host: db.upstream
    port: 5432
    routes:
      - name: db-lan
        protocols: [tcp, tls]
        sources: [{ ip: 10.0.0.0/8 }]
        destinations: [{ ip: 127.0.0.1, port: 9000 }]
      - name: through
        protocols: [tls_passthrough]
        snis: [b.test]
  - name: greeter
    protocol: grpcs
    host: greeter.internal
    port: 50051
    routes:
      - name: say
        protocols: [grpc, grpcs]
        paths: [/helloworld.Greeter/]
`);
  const byName = new Map(s.routes.map((r) => [r.name, r]));
  assert.deepEqual(byName.get('db-lan')?.sources, [{ ip: '10.0.0.0/8' }]);
  assert.deepEqual(byName.get('db-lan')?.destinations, [{ ip: '127.0.0.1', port: 9000 }]);
  assert.deepEqual(byName.get('through')?.snis, ['b.test']);
  assert.equal(byName.get('say')?.strip_path, false, "Kong's grpc subschema: strip_path default false");
  assert.equal(s.services.find((x) => x.name === 'greeter')?.protocol, 'grpcs');
});

test("Kong's errors: http fields on stream routes, stream fields on grpc routes, paths on tcp services", () => {
  assert.deepEqual(fieldsOf(`
services:
  - name: s
    protocol: tcp
    host: h
    path: /x
    routes:
      - protocols: [tcp]
        paths: [/x]
        destinations: [{ port: 9000 }]
      - protocols: [tls_passthrough]
        sources: [{ ip: 10.0.0.1 }]
      - protocols: [grpc]
        paths: [/a.B/]
        strip_path: true
        sources: [{ ip: 10.0.0.1 }]
      - protocols: [tcp, http]
        destinations: [{ port: 9000 }]
`), {
    services: [{
      '@entity': ["failed conditional validation given value of field 'protocol'"],
      path: 'value must be null',
      routes: [
        { paths: "cannot set 'paths' when 'protocols' is 'tcp', 'tls', 'tls_passthrough' or 'udp'" },
        { '@entity': ["must set snis when 'protocols' is 'tls_passthrough'"] },
        {
          strip_path: "cannot set 'strip_path' when 'protocols' is 'grpc' or 'grpcs'",
          sources: "cannot set 'sources' when 'protocols' is 'grpc' or 'grpcs'",
        },
        { protocols: "these sets are mutually exclusive: ('tcp', 'tls', 'udp'), ('http', 'https')" },
      ],
    }],
  });
});

test('stream_listen: --stream-listen or KONG_STREAM_LISTEN, Kong syntax, off by default, bad values named', async () => {
  const none = (path: string): Promise<string> => Promise.reject(new Error(`unexpected read of ${path}`));
  assert.deepEqual(buildGatewayConfig({}).streamListen, []);
  const fromFlag = await readStartSettings(['--stream-listen', '127.0.0.1:9000, 127.0.0.1:9443 ssl'], { KONG_STREAM_LISTEN: '0.0.0.0:1' }, none);
  assert.deepEqual(buildGatewayConfig(fromFlag).streamListen, [
    { host: '127.0.0.1', port: 9000, ssl: false },
    { host: '127.0.0.1', port: 9443, ssl: true },
  ]);
  const fromEnv = await readStartSettings([], { KONG_STREAM_LISTEN: '[::1]:7000 ssl' }, none);
  assert.deepEqual(buildGatewayConfig(fromEnv).streamListen, [{ host: '::1', port: 7000, ssl: true }]);
  assert.throws(() => buildGatewayConfig({ stream_listen: '127.0.0.1' }), (e: unknown) => e instanceof ConfigError && e.setting === 'stream_listen');
});
