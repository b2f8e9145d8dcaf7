import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSystemConfig, SystemConfigError } from './config.ts';

test('defaults: the architecture\'s ports, var/ under the repo, PUBLIC_URL through the gateway', () => {
  const c = loadSystemConfig({}, '/repo');
  assert.deepEqual(c, {
    dataDir: '/repo/var',
    kongTemplatePath: '/repo/deploy/kong.yml',
    publicUrl: 'https://localhost:8443',
    smtpUrl: undefined,
    databaseUrl: undefined,
    redisUrl: undefined,
    gateway: { httpPort: 8000, httpsPort: 8443, adminPort: 8001 },
    esignPorts: [3001, 3002],
    logFormat: 'pretty',
    logHealthProbes: false,
    restartBackoff: { initialMs: 1000, maxMs: 30_000 },
    adminToken: undefined,
  });
});

test('the gateway admin token the operator exported is known to the launcher, inline or from its file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-token-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'token'), 'c0ffee00c0ffee00c0ffee00c0ffee00\n');
  assert.equal(loadSystemConfig({ KONG_ADMIN_TOKEN: 'abcdefabcdefabcdef' }, '/r').adminToken, 'abcdefabcdefabcdef');
  assert.equal(loadSystemConfig({ KONG_ADMIN_TOKEN_FILE: join(dir, 'token') }, '/r').adminToken, 'c0ffee00c0ffee00c0ffee00c0ffee00');
  assert.throws(() => loadSystemConfig({ KONG_ADMIN_TOKEN_FILE: join(dir, 'missing') }, '/r'), (e: Error) => e instanceof SystemConfigError && /KONG_ADMIN_TOKEN_FILE: cannot read/.test(e.message));
  assert.throws(() => loadSystemConfig({ KONG_ADMIN_TOKEN: 'x'.repeat(20), KONG_ADMIN_TOKEN_FILE: join(dir, 'token') }, '/r'), SystemConfigError);
});

test('environment overrides are validated and normalised', () => {
  const c = loadSystemConfig({ DATA_DIR: 'tmp/x', PUBLIC_URL: 'https://sign.example.com/', ESIGN_PORTS: '4001, 4002,4003', SMTP_URL: 'smtp://127.0.0.1:2525' }, '/repo');
  assert.equal(c.dataDir, '/repo/tmp/x');
  assert.equal(c.publicUrl, 'https://sign.example.com');
  assert.deepEqual(c.esignPorts, [4001, 4002, 4003]);
  assert.equal(c.smtpUrl, 'smtp://127.0.0.1:2525');
});

test('a bad setting is named in the error', () => {
  assert.throws(() => loadSystemConfig({ GATEWAY_HTTP_PORT: '99999' }, '/r'), (e: Error) => e instanceof SystemConfigError && /GATEWAY_HTTP_PORT/.test(e.message));
  assert.throws(() => loadSystemConfig({ DATABASE_URL: 'mysql://x' }, '/r'), /DATABASE_URL must use postgres: or postgresql:/);
  assert.throws(() => loadSystemConfig({ PUBLIC_URL: 'not a url' }, '/r'), /PUBLIC_URL is not a URL/);
  assert.throws(() => loadSystemConfig({ ESIGN_PORTS: 'a,b' }, '/r'), /ESIGN_PORTS\[0\]/);
  assert.throws(() => loadSystemConfig({ ESIGN_PORTS: '3001,8000' }, '/r'), /port 8000 is given twice/);
  assert.throws(() => loadSystemConfig({ LOG_FORMAT: 'xml' }, '/r'), /LOG_FORMAT must be one of pretty, json/);
  assert.throws(() => loadSystemConfig({ LOG_HEALTH_PROBES: 'yes' }, '/r'), /LOG_HEALTH_PROBES/);
  assert.equal(loadSystemConfig({ LOG_HEALTH_PROBES: 'true', LOG_FORMAT: 'json' }, '/r').logHealthProbes, true);
});

test('GATEWAY_KONG_YML names the kong.yml to render; a missing file stops start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-config-'));
  try {
    writeFileSync(join(dir, 'mine.yml'), '_format_version: "3.0"\n');
    assert.equal(loadSystemConfig({ GATEWAY_KONG_YML: join(dir, 'mine.yml') }, '/repo').kongTemplatePath, join(dir, 'mine.yml'));
    assert.throws(() => loadSystemConfig({ GATEWAY_KONG_YML: join(dir, 'nope.yml') }, '/repo'), (err: Error) => err instanceof SystemConfigError && /GATEWAY_KONG_YML: no file at .*nope\.yml/.test(err.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('RESTART_BACKOFF_INITIAL_MS and RESTART_BACKOFF_MAX_MS set the supervisor\'s backoff; bad values are named', () => {
  assert.deepEqual(loadSystemConfig({ RESTART_BACKOFF_INITIAL_MS: '250', RESTART_BACKOFF_MAX_MS: '2000' }, '/repo').restartBackoff, { initialMs: 250, maxMs: 2000 });
  assert.throws(() => loadSystemConfig({ RESTART_BACKOFF_INITIAL_MS: '0' }, '/repo'), /RESTART_BACKOFF_INITIAL_MS must be a whole number of milliseconds/);
  assert.throws(() => loadSystemConfig({ RESTART_BACKOFF_INITIAL_MS: '5000', RESTART_BACKOFF_MAX_MS: '1000' }, '/repo'), /must not exceed RESTART_BACKOFF_MAX_MS/);
});
