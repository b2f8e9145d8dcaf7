// The health admin endpoints over a LocalHealth (no sockets: active checks off or never due):
// Kong's JSON shapes (kong/api/routes/upstreams.lua, dao/targets.lua) and status codes, and the
// health-endpoint cases of Kong's 01-healthchecks_spec.lua and 04-admin_api/08-targets_routes_spec.lua.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../errors.ts';
import { LocalHealth } from './local-health.ts';
import { routeHealthRequest, type HealthRouteDeps } from './health-routes.ts';
import { healthchecks, snapshot, target, upstream } from '../../test/health/health.fixture.ts';
import type { Healthchecks, Snapshot } from '../declarative/types.ts';

const PASSIVE_ON = healthchecks({ passive: { unhealthy: { http_failures: 1 } } });
const NODE = '11111111-2222-4333-8444-555555555555';

function deps(snap: Snapshot): HealthRouteDeps & { health: LocalHealth } {
  const health = new LocalHealth();
  health.load(snap);
  return { snapshot: () => snap, health, nodeId: NODE };
}

function call(d: HealthRouteDeps, method: string, path: string) {
  const url = new URL(path, 'http://admin');
  try {
    return routeHealthRequest(d, method, url.pathname, url.searchParams);
  } catch (err) {
    if (err instanceof GatewayError) return { status: err.status, body: err.toBody() };
    throw err;
  }
}

function oneUpstream(hc: Healthchecks, targets: ReadonlyArray<readonly [string, number]>) {
  const up = upstream('svc', hc, 'fd56258d-1040-5e29-a78a-8f4d9082ec6f');
  const ts = targets.map(([spec, weight], i) => ({ ...target(up, spec, weight, `0000000${i}-0000-4000-8000-000000000000`), created_at: 1700000000 + i }));
  return { up, snap: snapshot([up], ts), ts };
}

test('GET /upstreams/{u}/health: Kong shape, newest first, node_id', () => {
  const { up, snap, ts } = oneUpstream(PASSIVE_ON, [['10.20.30.40', 100], ['10.0.0.2:81', 50]]);
  const d = deps(snap);
  d.health.reportPassive('svc', '10.0.0.2:81', 500);
  const res = call(d, 'GET', `/upstreams/svc/health`);
  assert.equal(res?.status, 200);
  assert.deepEqual(res?.body, {
    data: [
      {
        id: ts[1]!.id, created_at: ts[1]!.created_at, updated_at: ts[1]!.updated_at, upstream: { id: up.id },
        target: '10.0.0.2:81', weight: 50, tags: null, health: 'UNHEALTHY',
        data: {
          host: '10.0.0.2', port: 81, dns: 'A', nodeWeight: 50,
          weight: { total: 50, available: 0, unavailable: 50 },
          addresses: [{ ip: '10.0.0.2', port: 81, weight: 50, health: 'UNHEALTHY' }],
        },
      },
      {
        id: ts[0]!.id, created_at: ts[0]!.created_at, updated_at: ts[0]!.updated_at, upstream: { id: up.id },
        target: '10.20.30.40', weight: 100, tags: null, health: 'HEALTHY',
        data: {
          host: '10.20.30.40', port: 8000, dns: 'A', nodeWeight: 100,
          weight: { total: 100, available: 100, unavailable: 0 },
          addresses: [{ ip: '10.20.30.40', port: 8000, weight: 100, health: 'HEALTHY' }],
        },
      },
    ],
    next: null,
    node_id: NODE,
  });
  // By id as well as by name; balancer_health other than "1" is the target list, as in Kong.
  assert.deepEqual(call(d, 'GET', `/upstreams/${up.id}/health`)?.body, res?.body);
  assert.deepEqual(call(d, 'GET', `/upstreams/svc/health?balancer_health=true`)?.body, res?.body);
});

test('Kong 01-healthchecks_spec: checks off → HEALTHCHECKS_OFF, balancer_health still HEALTHY', () => {
  const { up, snap } = oneUpstream(healthchecks(), [['10.0.0.1:80', 100]]);
  const d = deps(snap);
  const list = call(d, 'GET', '/upstreams/svc/health')?.body as { data: Array<{ health: string; data: { addresses: Array<{ health: string }> } }> };
  assert.equal(list.data[0]!.health, 'HEALTHCHECKS_OFF');
  assert.equal(list.data[0]!.data.addresses[0]!.health, 'HEALTHCHECKS_OFF');
  assert.deepEqual(call(d, 'GET', '/upstreams/svc/health?balancer_health=1')?.body, {
    data: {
      health: 'HEALTHCHECKS_OFF',
      balancer_health: 'HEALTHY',
      id: up.id,
      details: {
        healthy: true,
        weight: { total: 100, available: 100, unavailable: 0 },
        hosts: [
          {
            host: '10.0.0.1', port: 80, dns: 'A', nodeWeight: 100,
            weight: { total: 100, available: 100, unavailable: 0 },
            addresses: [{ ip: '10.0.0.1', port: 80, weight: 100, healthy: true }],
          },
        ],
      },
    },
    next: null,
    node_id: NODE,
  });
});

test('Kong 01-healthchecks_spec: threshold table over 4 × 25 (per-target PUT …/unhealthy)', () => {
  const specs: Array<readonly [string, number]> = [['10.0.0.1:80', 25], ['10.0.0.2:80', 25], ['10.0.0.3:80', 25], ['10.0.0.4:80', 25]];
  for (const threshold of [0, 25, 75, 99, 100]) {
    const { snap } = oneUpstream(healthchecks({ threshold, passive: { unhealthy: { tcp_failures: 1 } } }), specs);
    const d = deps(snap);
    for (let down = 0; down <= 4; down++) {
      if (down > 0) assert.equal(call(d, 'PUT', `/upstreams/svc/targets/10.0.0.${down}:80/unhealthy`)?.status, 204);
      const available = 100 - 25 * down;
      const body = call(d, 'GET', '/upstreams/svc/health?balancer_health=1')?.body as {
        data: { health: string; balancer_health: string; details: { weight: object } };
      };
      const expected = available > threshold ? 'HEALTHY' : 'UNHEALTHY';
      assert.equal(body.data.balancer_health, expected, `threshold ${threshold}, available ${available}`);
      assert.equal(body.data.health, expected);
      assert.deepEqual(body.data.details.weight, { total: 100, available, unavailable: 100 - available });
    }
  }
});

test('Kong 08-targets_routes_spec: a weight-0 target shows HEALTHCHECKS_OFF even with checks on', () => {
  const { snap } = oneUpstream(PASSIVE_ON, [['10.0.0.1:80', 100], ['10.0.0.2:80', 0]]);
  const list = call(deps(snap), 'GET', '/upstreams/svc/health')?.body as { data: Array<{ target: string; health: string }> };
  assert.deepEqual(list.data.map((t) => [t.target, t.health]), [['10.0.0.2:80', 'HEALTHCHECKS_OFF'], ['10.0.0.1:80', 'HEALTHY']]);
});

test('healthy/unhealthy: PUT (Kong 3.x) and POST (spec) give 204 and reset the counters', () => {
  const hc = healthchecks({ passive: { unhealthy: { http_failures: 3 } } });
  const { snap, ts } = oneUpstream(hc, [['10.0.0.1:80', 100]]);
  const d = deps(snap);
  d.health.reportPassive('svc', '10.0.0.1:80', 500);
  d.health.reportPassive('svc', '10.0.0.1:80', 500);
  assert.deepEqual(call(d, 'POST', '/upstreams/svc/targets/10.0.0.1:80/healthy'), { status: 204 });
  assert.deepEqual(d.health.registry.checker('svc')!.state('10.0.0.1:80'), { health: 'healthy', counters: { success: 0, http: 0, tcp: 0, timeout: 0 } });
  assert.deepEqual(call(d, 'PUT', `/upstreams/svc/targets/${ts[0]!.id}/unhealthy`), { status: 204 });
  assert.equal(d.health.isAddressHealthy('svc', '10.0.0.1:80'), false);
  // §6.39 / §6.29: the per-address form.
  assert.deepEqual(call(d, 'PUT', '/upstreams/svc/targets/10.0.0.1:80/10.0.0.1:80/healthy'), { status: 204 });
  assert.equal(d.health.isAddressHealthy('svc', '10.0.0.1:80'), true);
});

test('§5.3 status matrix: 404 unknown upstream/target or another upstream’s target, 400 checks off, 405', () => {
  const a = upstream('a', PASSIVE_ON);
  const b = upstream('b', PASSIVE_ON);
  const off = upstream('off', healthchecks());
  const snap = snapshot([a, b, off], [target(a, '10.0.0.1:80'), target(b, '10.0.0.2:80'), target(off, '10.0.0.3:80')]);
  const d = deps(snap);
  const notFound = { status: 404, body: { message: 'Not found' } };
  assert.deepEqual(call(d, 'PUT', '/upstreams/nope/targets/10.0.0.1:80/healthy'), notFound);
  assert.deepEqual(call(d, 'PUT', '/upstreams/a/targets/10.0.0.9:80/healthy'), notFound);
  assert.deepEqual(call(d, 'PUT', '/upstreams/a/targets/10.0.0.2:80/healthy'), notFound);
  assert.deepEqual(call(d, 'GET', '/upstreams/nope/health'), notFound);
  assert.deepEqual(call(d, 'PUT', '/upstreams/off/targets/10.0.0.3:80/unhealthy'), {
    status: 400,
    body: { message: 'no healthchecker found for off' },
  });
  assert.deepEqual(call(d, 'DELETE', '/upstreams/a/targets/10.0.0.1:80/healthy'), { status: 405, body: { message: 'Method not allowed' } });
  assert.deepEqual(call(d, 'POST', '/upstreams/a/health'), { status: 405, body: { message: 'Method not allowed' } });
  assert.equal(call(d, 'GET', '/upstreams/a/targets'), undefined, 'not a health route');
});

test('balancers.lua updateStatus: threshold 50, one of two equal targets down → UNHEALTHY', () => {
  const { snap } = oneUpstream(healthchecks({ threshold: 50, passive: { unhealthy: { http_failures: 1 } } }), [['10.0.0.1:80', 10], ['10.0.0.2:80', 10]]);
  const d = deps(snap);
  d.health.reportPassive('svc', '10.0.0.2:80', 500);
  const body = call(d, 'GET', '/upstreams/svc/health?balancer_health=1')?.body as { data: { balancer_health: string; details: { healthy: boolean } } };
  assert.equal(body.data.balancer_health, 'UNHEALTHY');
  assert.equal(body.data.details.healthy, false);
});
