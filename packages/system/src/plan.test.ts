import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadSystemConfig } from './config.ts';
import { buildSystemPlan } from './plan.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const tls = { dir: '/d/tls', caPath: '/d/tls/ca.pem', certPath: '/d/tls/localhost.pem', keyPath: '/d/tls/localhost-key.pem', created: false };

test('SMTP_URL and DATABASE_URL reach every esign instance, REDIS_URL the gateway; nothing else leaks across', () => {
  const config = loadSystemConfig({
    DATA_DIR: '/d', ESIGN_PORTS: '4001,4002,4003', SMTP_URL: 'smtp://127.0.0.1:2525',
    DATABASE_URL: 'postgres://u@db.example:5432/signet', REDIS_URL: 'redis://127.0.0.1:6380', GATEWAY_ADMIN_PORT: '9001',
  }, repoRoot);
  const plan = buildSystemPlan(config, tls, '/d/kong.yml', repoRoot);
  assert.deepEqual(plan.missing, []);
  assert.deepEqual(plan.parts.map((p) => p.name), ['esign-1', 'esign-2', 'esign-3', 'gateway']);
  for (const [i, part] of plan.parts.slice(0, 3).entries()) {
    assert.deepEqual(part.env, {
      PORT: String(4001 + i), HOST: '127.0.0.1', DATA_DIR: '/d', PUBLIC_URL: 'https://localhost:8443',
      SMTP_URL: 'smtp://127.0.0.1:2525', DATABASE_URL: 'postgres://u@db.example:5432/signet',
    });
    assert.deepEqual(part.args.slice(-2), [join(repoRoot, 'packages/esign/src/cli.ts'), 'serve']);
  }
  const gateway = plan.parts[3];
  assert.deepEqual(gateway?.env, { KONG_SSL_CERT: tls.certPath, KONG_SSL_CERT_KEY: tls.keyPath, REDIS_URL: 'redis://127.0.0.1:6380' });
  assert.deepEqual(gateway?.args.slice(-6), ['--config', '/d/kong.yml', '--proxy-listen', '127.0.0.1:8000, 127.0.0.1:8443 http2 ssl', '--admin-listen', '127.0.0.1:9001']);
  assert.equal(gateway?.args[0], '--no-allocation-site-pretenuring', 'V8 settings come before the loader');
});

test('unset URLs are not passed: esign falls back to SQLite in DATA_DIR and the dev mailbox, the gateway to one node', () => {
  const plan = buildSystemPlan(loadSystemConfig({ DATA_DIR: '/d' }, repoRoot), tls, '/d/kong.yml', repoRoot);
  for (const part of plan.parts) {
    for (const key of ['SMTP_URL', 'DATABASE_URL', 'REDIS_URL']) assert.equal(part.env?.[key], undefined, `${part.name} ${key}`);
  }
});
