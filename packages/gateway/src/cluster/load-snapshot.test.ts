// A reload of one process (--workers 1, and each worker): the health state and the runtime take a
// new configuration together, or neither does. Before, health loaded first, so a configuration
// the runtime then refused still replaced the health checkers (active probes of the running
// upstreams stopped, GET /upstreams/{u}/health showed HEALTHCHECKS_OFF) while the proxy kept the
// old routes.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { issueCertificate } from '@signet/kit';
import { loadSnapshot } from './load-snapshot.ts';
import { LocalHealth } from '../health/local-health.ts';
import { FakeTimers } from '../health/fake-timers.ts';
import type { ProbeRequest } from '../health/active-prober.ts';
import { Runtime } from '../runtime.ts';
import { certificate, DEFAULT_HEALTHCHECKS, snapshot, sni, target, upstream } from '../../test/snapshot.fixture.ts';
import type { Healthchecks, Snapshot } from '../declarative/types.ts';

const node = issueCertificate({ commonName: 'node.test' });
const ACTIVE: Healthchecks = {
  ...DEFAULT_HEALTHCHECKS,
  active: { ...DEFAULT_HEALTHCHECKS.active, healthy: { ...DEFAULT_HEALTHCHECKS.active.healthy, interval: 1 }, unhealthy: { ...DEFAULT_HEALTHCHECKS.active.unhealthy, interval: 1, http_failures: 1 } },
};

function processUnderTest(first: Snapshot) {
  const timers = new FakeTimers();
  const probed: string[] = [];
  const probe = (req: ProbeRequest) => {
    probed.push(req.address.key);
    return Promise.resolve(200);
  };
  const health = new LocalHealth({ probe, timers, now: timers.now });
  // As start-data-plane.ts: health first, then the runtime asks it about every address.
  health.load(first);
  const runtime = new Runtime(first, { defaultCertificate: node, isAddressHealthy: (u, a) => health.isAddressHealthy(u, a.key) });
  return { timers, probed, health, runtime };
}

/** A process checking upstream `up` (targets 127.0.0.1:9 and :10) whose checks took :9 down. */
function withNineDown(t: TestContext) {
  const up = upstream({ name: 'up', healthchecks: ACTIVE });
  const p = processUnderTest(snapshot({ upstreams: [up], targets: [target(up, '127.0.0.1:9'), target(up, '127.0.0.1:10')] }));
  t.after(() => p.health.close());
  p.health.setStatus('up', ['127.0.0.1:9'], false);
  return { up, p };
}

test('a configuration the runtime refuses changes nothing: health checkers and probes stay, the old routes serve', async (t) => {
  const up = upstream({ name: 'up', healthchecks: ACTIVE });
  const running = snapshot({ upstreams: [up], targets: [target(up, '127.0.0.1:9')] });
  const p = processUnderTest(running);
  t.after(() => p.health.close());
  // Passed validation in a way the runtime cannot build (here: PEMs no TLS context takes), and
  // without health checks, so a health state half-applied would show.
  const plain = upstream({ name: 'up' });
  const bad = certificate('-----BEGIN CERTIFICATE-----\nbm90\n-----END CERTIFICATE-----\n', 'not a key');
  const rejected = snapshot({ upstreams: [plain], targets: [target(plain, '127.0.0.1:9')], certificates: [bad], snis: [sni('bad.test', bad)] });
  assert.throws(() => loadSnapshot(rejected, p.health, p.runtime));
  assert.equal(p.runtime.state.snapshot, running);
  assert.equal(p.health.snapshot, running);
  assert.equal(p.health.checksOn('up'), true);
  // The running upstream is still probed.
  await p.timers.advance(1000);
  assert.deepEqual(p.probed, ['127.0.0.1:9']);
});

test('an accepted configuration moves both; a rebuilt balancer sees the health the new configuration keeps', (t) => {
  const { up, p } = withNineDown(t);
  // 127.0.0.1:9 leaves (its state is retired, Kong keeps it 300 s), then comes back with another
  // weight: its balancer is rebuilt and must find it down, from the new configuration's health.
  const without = snapshot({ upstreams: [up], targets: [target(up, '127.0.0.1:10')] });
  loadSnapshot(without, p.health, p.runtime);
  const back = snapshot({ upstreams: [up], targets: [target(up, '127.0.0.1:9', 50), target(up, '127.0.0.1:10')] });
  loadSnapshot(back, p.health, p.runtime);
  assert.equal(p.runtime.state.snapshot, back);
  assert.equal(p.health.snapshot, back);
  assert.equal(p.runtime.state.balancers.get('up')?.findAddress('127.0.0.1:9')?.available, false);
  assert.equal(p.runtime.state.balancers.get('up')?.findAddress('127.0.0.1:10')?.available, true);
});

test('a reload that turns an upstream\'s health checks off puts its down addresses back in rotation', (t) => {
  const { up, p } = withNineDown(t);
  // A reload with another weight rebuilds the balancer: it takes 127.0.0.1:9 as down.
  const targets = [target(up, '127.0.0.1:9', 50), target(up, '127.0.0.1:10')];
  loadSnapshot(snapshot({ upstreams: [up], targets }), p.health, p.runtime);
  assert.equal(p.runtime.state.balancers.get('up')?.findAddress('127.0.0.1:9')?.available, false);
  // Same targets, checks off: Kong reports HEALTHCHECKS_OFF and balances over every target.
  const unchecked = snapshot({ upstreams: [{ ...up, healthchecks: DEFAULT_HEALTHCHECKS }], targets });
  loadSnapshot(unchecked, p.health, p.runtime);
  assert.equal(p.health.checksOn('up'), false);
  assert.equal(p.runtime.state.balancers.get('up')?.findAddress('127.0.0.1:9')?.available, true);
});
