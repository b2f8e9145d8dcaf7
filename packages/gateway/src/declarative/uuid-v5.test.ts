import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveEntityId, uuidV5 } from './uuid-v5.ts';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';

// declarative_config.lua generate_ids: ids verified against Kong's specs (15-off_spec.lua, 05-error-flattening_spec.lua).
const VECTORS: readonly [entity: string, key: string, id: string][] = [
  ['services', 'my-service', '0855b320-0dd2-547d-891d-601e9b38647f'],
  ['routes', 'my-route', '481a9539-f49c-51b6-b2e2-fe99ee68866c'],
  ['consumers', 'my-user', '4b1b701d-de2b-5588-9aa2-3b97061d9f52'],
  ['keyauth_credentials', 'my-key', '487ab43c-b2c9-51ec-8da5-367586ea2b61'],
  ['targets', 'targets:*:f9792964-6797-482c-bfdf-08220a4f6839:10.244.0.12:80', '48322e4a-b3b0-591b-8ed6-fd95a6d75019'],
  ['targets', 'targets:*:e9792964-6797-482c-bfdf-08220a4f6832:10.244.0.11:80', '715f9482-4236-5fe5-9ae5-e75c1a498940'],
  ['upstreams', 'foo', 'fd56258d-1040-5e29-a78a-8f4d9082ec6f'],
  ['plugins', 'plugins:*:cors:::', '48ee727e-8b90-5faa-bda1-a3c6bc3c9daa'],
];

for (const [entity, key, id] of VECTORS) {
  test(`deriveEntityId(${entity}, ${key}) = ${id}`, () => {
    assert.equal(deriveEntityId(entity, key), id);
  });
}

test('uuidV5 matches RFC 4122 Appendix B style vector (DNS namespace, "www.example.com")', () => {
  // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com")
  assert.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
});

test('a parsed file derives the same ids: names, nested targets from the parent id, top-level targets from the upstream as written', () => {
  const snapshot = parseDeclarativeConfig(`
_format_version: "3.0"
services:
  - name: my-service
    host: example.com
    routes:
      - name: my-route
        paths: [/]
upstreams:
  - name: foo
  - name: k8s
    id: f9792964-6797-482c-bfdf-08220a4f6839
    targets:
      - target: 10.244.0.12:80
targets:
  - upstream: foo
    target: 10.20.30.40
  - upstream: foo
    target: 10.20.30.40:8000
`);
  assert.equal(snapshot.services[0]?.id, '0855b320-0dd2-547d-891d-601e9b38647f');
  assert.equal(snapshot.routes[0]?.id, '481a9539-f49c-51b6-b2e2-fe99ee68866c');
  assert.equal(snapshot.upstreams[0]?.id, 'fd56258d-1040-5e29-a78a-8f4d9082ec6f');
  assert.equal(snapshot.targets[0]?.id, '48322e4a-b3b0-591b-8ed6-fd95a6d75019');
  // The key is the target string as written, so these two are distinct targets.
  assert.equal(snapshot.targets[1]?.id, deriveEntityId('targets', 'targets:*:foo:10.20.30.40'));
  assert.equal(snapshot.targets[2]?.id, deriveEntityId('targets', 'targets:*:foo:10.20.30.40:8000'));
  assert.notEqual(snapshot.targets[1]?.id, snapshot.targets[2]?.id);
});
