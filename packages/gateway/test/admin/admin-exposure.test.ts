// The admin API from a browser: a page the operator opens must not be able to replace the
// configuration (simple CORS requests need no preflight) nor read it through DNS rebinding
// (GET /config returns the certificate keys). Attacks replayed against a real admin socket.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startProcess, testLoaderArgs } from '@signet/kit/testing';
import { buildGatewayConfig, ConfigError } from '../../src/config.ts';
import { RELOADED_YML, startAdmin, type AdminHarness } from './admin.fixture.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TOKEN = 'a3f1c9e07b2d4c58a9e1f0b7c6d5e4f3';

async function admin(t: TestContext, extra: Parameters<typeof startAdmin>[0] = {}): Promise<AdminHarness> {
  const h = await startAdmin(extra);
  t.after(() => h.close());
  return h;
}

/** A raw request with exactly these headers (Host included), as a browser or curl would send it. */
function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: init.method ?? 'GET', headers: { ...init.headers, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

test('a page\'s simple requests cannot replace the configuration: text/plain, form and multipart bodies are 415', async (t) => {
  const h = await admin(t);
  const host = new URL(h.base).host;
  const boundary = 'xyz';
  const multipart = `--${boundary}\r\ncontent-disposition: form-data; name="config"; filename="kong.yml"\r\n\r\n${RELOADED_YML}\r\n--${boundary}--\r\n`;
  for (const [type, body] of [
    ['text/plain', RELOADED_YML],
    ['application/x-www-form-urlencoded', new URLSearchParams({ config: RELOADED_YML }).toString()],
    [`multipart/form-data; boundary=${boundary}`, multipart],
  ] as const) {
    const r = await raw(h.base, '/config', { method: 'POST', headers: { host, 'content-type': type }, body });
    assert.equal(r.status, 415, `${type}: ${r.body}`);
    assert.match((JSON.parse(r.body) as { message: string }).message, /Unsupported Media Type: .*send JSON or YAML/);
  }
  assert.equal(h.applied.length, 0, 'nothing was applied');
  // What needs a preflight still works: YAML and JSON.
  const yaml = await raw(h.base, '/config', { method: 'POST', headers: { host, 'content-type': 'application/yaml' }, body: RELOADED_YML });
  assert.equal(yaml.status, 201, yaml.body);
});

test('a request from another origin is refused, reads included; the listener\'s own origin is not', async (t) => {
  const h = await admin(t);
  const host = new URL(h.base).host;
  for (const [method, path] of [['GET', '/config'], ['POST', '/upstreams/esign-upstream/targets/127.0.0.1:3001/unhealthy'], ['GET', '/']] as const) {
    const r = await raw(h.base, path, { method, headers: { host, origin: 'http://evil.example' } });
    assert.equal(r.status, 403, `${method} ${path}: ${r.body}`);
    assert.match((JSON.parse(r.body) as { message: string }).message, /origin http:\/\/evil\.example/);
  }
  assert.equal((await raw(h.base, '/', { headers: { host, origin: 'null' } })).status, 403, 'a sandboxed page (Origin: null)');
  assert.equal((await raw(h.base, '/', { headers: { host, origin: `http://${host}` } })).status, 200);
});

test('DNS rebinding: a Host that is not the listener\'s address gets 403, so the keys in GET /config stay home', async (t) => {
  const h = await admin(t);
  const port = new URL(h.base).port;
  const rebound = await raw(h.base, '/config', { headers: { host: `attacker.example:${port}` } });
  assert.equal(rebound.status, 403);
  assert.doesNotMatch(rebound.body, /PRIVATE KEY/);
  assert.match(rebound.body, /attacker\.example:\d+ is not an address of this admin listener/);
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    const r = await raw(h.base, '/config', { headers: { host } });
    assert.equal(r.status, 200, host);
    assert.match(r.body, /PRIVATE KEY/);
  }
  assert.equal((await raw(h.base, '/', { headers: { host: 'localhost:1' } })).status, 403, 'the port is part of the address');
});

test('with an admin token every request needs Kong-Admin-Token, compared exactly; with it, curl -F bodies are accepted', async (t) => {
  const h = await admin(t, { adminToken: TOKEN });
  const host = new URL(h.base).host;
  assert.equal((await raw(h.base, '/config', { headers: { host } })).status, 401);
  const wrong = await raw(h.base, '/config', { headers: { host, 'kong-admin-token': `${TOKEN}x` } });
  assert.deepEqual([wrong.status, JSON.parse(wrong.body)], [401, { message: 'Invalid credentials. Token or User credentials required' }]);
  assert.equal((await raw(h.base, '/config', { headers: { host, 'kong-admin-token': TOKEN } })).status, 200);
  // The token makes the request non-simple (a browser would preflight it), so form bodies are fine.
  const form = await raw(h.base, '/config', { method: 'POST', headers: { host, 'kong-admin-token': TOKEN, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ config: RELOADED_YML }).toString() });
  assert.equal(form.status, 201, form.body);
  // A foreign origin is refused even with the token.
  assert.equal((await raw(h.base, '/', { headers: { host, 'kong-admin-token': TOKEN, origin: 'http://evil.example' } })).status, 403);
});

test('the admin API is not bound to a non-loopback address without a token; a short token is refused', async (t) => {
  assert.throws(() => buildGatewayConfig({ admin_listen: '0.0.0.0:8001' }), (e: unknown) => e instanceof ConfigError && e.setting === 'admin_listen' && /0\.0\.0\.0:8001 is not a loopback address.*KONG_ADMIN_TOKEN/.test(e.message));
  assert.throws(() => buildGatewayConfig({ admin_listen: '10.1.2.3:8001' }), ConfigError);
  assert.throws(() => buildGatewayConfig({ admin_listen: '0.0.0.0:8001', admin_token: 'short' }), (e: unknown) => e instanceof ConfigError && e.setting === 'admin_token');
  assert.equal(buildGatewayConfig({ admin_listen: '0.0.0.0:8001', admin_token: TOKEN }).adminToken, TOKEN);
  assert.equal(buildGatewayConfig({ admin_listen: '127.0.0.1:8001, [::1]:8001, localhost:8002' }).adminToken, undefined);
  // The real command stops before it listens.
  const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', '--proxy-listen', '127.0.0.1:0', '--admin-listen', '0.0.0.0:0'], { env: { ...process.env, KONG_ADMIN_TOKEN: '' }, cwd: ROOT });
  t.after(() => proc.stop());
  assert.equal(await proc.exited, 1);
  assert.match(proc.output(), /admin_listen: 0\.0\.0\.0:0 is not a loopback address/);
});
