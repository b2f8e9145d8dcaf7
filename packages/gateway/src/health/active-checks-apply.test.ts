import assert from 'node:assert/strict';
import { test } from 'node:test';
import { service, snapshot, upstream } from '../../test/snapshot.fixture.ts';
import { healthchecks } from '../../test/health/health.fixture.ts';
import type { Protocol } from '../declarative/types.ts';
import { activeChecksApply } from './active-checks-apply.ts';

const withType = (type: 'http' | 'tcp' | 'grpc') => upstream({ name: 'u.test', healthchecks: healthchecks({ active: { type } }) });
const usedBy = (u: ReturnType<typeof upstream>, protocols: Protocol[]) => snapshot({ upstreams: [u], services: protocols.map((protocol) => service({ host: u.name, protocol })) });

test('http, https and grpc probes do not run for an upstream only tcp/tls services use', () => {
  assert.equal(activeChecksApply(usedBy(withType('http'), ['tcp']), withType('http')), false);
  assert.equal(activeChecksApply(usedBy(withType('grpc'), ['tls', 'tcp']), withType('grpc')), false);
});

test('tcp probes still run for them', () => {
  const u = withType('tcp');
  assert.equal(activeChecksApply(usedBy(u, ['tcp', 'tls']), u), true);
});

test('an upstream an http or grpc service also uses, or no service uses, is probed', () => {
  const u = withType('http');
  assert.equal(activeChecksApply(usedBy(u, ['tcp', 'http']), u), true);
  assert.equal(activeChecksApply(usedBy(u, ['grpc']), u), true);
  assert.equal(activeChecksApply(usedBy(u, []), u), true);
});
