import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayAdmin } from './gateway-admin.ts';
import { rollingRestart, type Instance } from './rolling-restart.ts';

const instances: Instance[] = [
  { name: 'esign-1', target: '127.0.0.1:3001', healthUrl: 'http://127.0.0.1:3001/health' },
  { name: 'esign-2', target: '127.0.0.1:3002', healthUrl: 'http://127.0.0.1:3002/health' },
];

/** A gateway and two instances in memory, recording what happened in order. */
function world() {
  const events: string[] = [];
  const health = new Map(instances.map((i) => [i.target, 'HEALTHY']));
  const up = new Map(instances.map((i) => [i.healthUrl, true]));
  const admin: GatewayAdmin = {
    mark: (target, state) => {
      events.push(`mark ${target} ${state}`);
      health.set(target, state.toUpperCase());
      return Promise.resolve();
    },
    health: (target) => Promise.resolve(health.get(target)),
    postConfig: () => Promise.resolve({ ok: true }),
  };
  let pid = 100;
  const restart = (name: string) => {
    events.push(`SIGTERM ${name}`);
    const instance = instances.find((i) => i.name === name)!;
    up.set(instance.healthUrl, false);
    return Promise.resolve().then(() => {
      events.push(`spawned ${name}`);
      // The new process answers a little later.
      setTimeout(() => up.set(instance.healthUrl, true), 20);
      return ++pid;
    });
  };
  return { events, health, admin, restart, answers: (url: string) => Promise.resolve(up.get(url) === true) };
}

test('one at a time: SIGTERM, out of rotation, the new one answers, back in, HEALTHY, then the next', async () => {
  const w = world();
  const lines: string[] = [];
  const result = await rollingRestart({ instances, restart: w.restart, admin: w.admin, answers: w.answers, say: (l) => lines.push(l), timeoutMs: 5000, pollMs: 5 });
  assert.deepEqual(result, { ok: true });
  assert.deepEqual(w.events, [
    'SIGTERM esign-1', 'mark 127.0.0.1:3001 unhealthy', 'spawned esign-1', 'mark 127.0.0.1:3001 healthy',
    'SIGTERM esign-2', 'mark 127.0.0.1:3002 unhealthy', 'spawned esign-2', 'mark 127.0.0.1:3002 healthy',
  ]);
  assert.deepEqual(lines, [
    'rolling restart 1/2: esign-1 out of rotation, draining', 'rolling restart 1/2: esign-1 back (pid 101), HEALTHY',
    'rolling restart 2/2: esign-2 out of rotation, draining', 'rolling restart 2/2: esign-2 back (pid 102), HEALTHY',
  ]);
});

test('an instance is not taken out while no other one is HEALTHY', async () => {
  const w = world();
  w.health.set('127.0.0.1:3002', 'UNHEALTHY');
  const lines: string[] = [];
  const result = await rollingRestart({ instances, restart: w.restart, admin: w.admin, answers: w.answers, say: (l) => lines.push(l), timeoutMs: 50, pollMs: 5 });
  assert.deepEqual(result, { ok: false, reason: 'no instance but esign-1 is HEALTHY; it was left running' });
  assert.deepEqual(w.events, []);
  assert.match(lines[0] ?? '', /gave up waiting for another instance to be HEALTHY/);
});

test('a new instance that never answers stops the rolling restart there', async () => {
  const w = world();
  const result = await rollingRestart({ instances, restart: w.restart, admin: w.admin, answers: () => Promise.resolve(false), say: () => {}, timeoutMs: 50, pollMs: 5 });
  assert.deepEqual(result, { ok: false, reason: 'esign-1 did not answer /health' });
  assert.ok(!w.events.includes('SIGTERM esign-2'), 'the second instance was left alone');
});
