// The admin API driven from a web page the operator opens, against the real `signet-gateway
// start` process: simple CORS requests (form, multipart, text/plain bodies need no preflight),
// foreign Origins, DNS rebinding (a foreign Host name resolving to 127.0.0.1, which would
// read the certificate keys from GET /config), and admin authentication by Kong Enterprise's
// `Kong-Admin-Token` header, required for a non-loopback bind. (admin-exposure.test.ts replays the
// same against the admin server alone.)
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { issueCertificate } from '@signet/kit';
import { startProcess, testLoaderArgs } from '@signet/kit/testing';
import { request } from 'undici';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { rawExchange, type RawAnswer } from '../raw-exchange.fixture.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const pem = (text: string): string => `|\n${text.trim().split('\n').map((l) => `      ${l}`).join('\n')}\n`;
const cert = issueCertificate({ commonName: 'secret.test', dnsNames: ['secret.test'] });

const KONG_YML = `_format_version: "3.0"
services:
  - name: esign
    url: http://127.0.0.1:9
    routes:
      - name: all
        paths: [/]
upstreams:
  - name: pool
    targets:
      - target: 127.0.0.1:9
certificates:
  - cert: ${pem(cert.certPem)}    key: ${pem(cert.keyPem)}    snis:
      - name: secret.test
`;

// What an attacker's page would load: everything routed to the attacker.
const EVIL_YML = `_format_version: "3.0"
services:
  - name: evil
    url: http://evil.test
    routes:
      - name: all
        paths: [/]
`;

/** One raw HTTP/1.1 exchange on the admin socket (Host and every header exactly as given). */
function raw(admin: string, head: string, body = ''): Promise<RawAnswer> {
  return rawExchange(admin, `${head}Connection: close\r\n${body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`}\r\n${body}`);
}

const hostOf = (admin: string): string => new URL(admin).host;
const portOf = (admin: string): string => new URL(admin).port;

async function configHash(admin: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await request(`${admin}/status`, { headers });
  assert.equal(res.statusCode, 200);
  return ((await res.body.json()) as { configuration_hash: string }).configuration_hash;
}

test('the admin API refuses what a web page can send, and answers its own clients', async (t) => {
  const g = await startGatewayProcess(t, KONG_YML);
  const before = await configHash(g.admin);
  const host = hostOf(g.admin);

  await t.test('POST /config with a body a page can send without a preflight: 415, config untouched', async () => {
    const multipart = new FormData();
    multipart.append('config', new Blob([EVIL_YML]), 'kong.yml');
    const attempts: [string, { headers?: Record<string, string>; body: string | FormData }][] = [
      ['form-urlencoded', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ config: EVIL_YML }).toString() }],
      ['multipart', { body: multipart }],
      ['text/plain', { headers: { 'content-type': 'text/plain' }, body: EVIL_YML }],
      ['text/plain with parameters', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: JSON.stringify({ config: EVIL_YML }) }],
    ];
    for (const [name, init] of attempts) {
      const res = await fetch(`${g.admin}/config`, { method: 'POST', ...init });
      assert.equal(res.status, 415, name);
      const body = (await res.json()) as { message: string };
      assert.match(body.message, /send JSON or YAML \(application\/json, /, name);
    }
    // A body with no Content-Type at all (Kong: 415 too).
    const bare = await raw(g.admin, `POST /config HTTP/1.1\r\nHost: ${host}\r\n`, EVIL_YML);
    assert.equal(bare.status, 415, bare.body);
    // Two Content-Type headers (Kong: 400 "Multiple Content-Type headers not allowed").
    const twice = await raw(g.admin, `POST /config HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/yaml\r\nContent-Type: text/plain\r\n`, EVIL_YML);
    assert.equal(twice.status, 400, twice.body);
    assert.deepEqual(JSON.parse(twice.body), { message: 'Multiple Content-Type headers not allowed' });
    // Entity writes and the health endpoints too.
    const entity = await fetch(`${g.admin}/services`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x&host=evil.test' });
    assert.equal(entity.status, 415);
    const drain = await fetch(`${g.admin}/upstreams/pool/targets/127.0.0.1:9/unhealthy`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' });
    assert.equal(drain.status, 415);
    assert.equal(await configHash(g.admin), before);
  });

  await t.test('JSON and YAML bodies still load; a body-less operator POST still works', async () => {
    for (const type of ['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml; charset=utf-8']) {
      const body = type === 'application/json' ? JSON.stringify({ config: KONG_YML }) : KONG_YML;
      const res = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': type }, body });
      await res.body.text();
      assert.equal(res.statusCode, 201, type);
    }
    // It reaches the health endpoint (Kong's answer for an upstream without checks).
    const drain = await request(`${g.admin}/upstreams/pool/targets/127.0.0.1:9/unhealthy`, { method: 'POST' });
    assert.deepEqual([drain.statusCode, await drain.body.json()], [400, { message: 'no healthchecker found for pool' }]);
  });

  await t.test('a foreign Origin is refused (403) on reads and writes; the listener\'s own origin is not', async () => {
    const current = await configHash(g.admin);
    for (const origin of ['http://evil.test', 'null', `http://evil.test:${portOf(g.admin)}`, `https://${host}`, `http://127.0.0.1:1`, `http://${host}/x`]) {
      const post = await request(`${g.admin}/config`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ config: EVIL_YML }) });
      assert.equal(post.statusCode, 403, origin);
      assert.match(((await post.body.json()) as { message: string }).message, /^Forbidden: requests from origin .* are not accepted$/);
      const get = await request(`${g.admin}/config`, { headers: { origin } });
      assert.equal(get.statusCode, 403, origin);
      assert.doesNotMatch(await get.body.text(), /PRIVATE KEY/);
    }
    assert.equal(await configHash(g.admin), current);
    for (const origin of [`http://${host}`, `http://localhost:${portOf(g.admin)}`, `http://[::1]:${portOf(g.admin)}`]) {
      const res = await request(`${g.admin}/status`, { headers: { origin } });
      await res.body.text();
      assert.equal(res.statusCode, 200, origin);
    }
  });

  await t.test('DNS rebinding: a Host that is not an address of the listener is refused (403)', async () => {
    const port = portOf(g.admin);
    for (const badHost of [`evil.test:${port}`, 'evil.test', `127.0.0.1:${Number(port) === 1 ? 2 : 1}`, `localhost.evil.test:${port}`, `127.0.0.1:${port}@evil.test`]) {
      const answer = await raw(g.admin, `GET /config HTTP/1.1\r\nHost: ${badHost}\r\n`);
      assert.equal(answer.status, 403, `${badHost}: ${answer.body}`);
      assert.doesNotMatch(answer.body, /PRIVATE KEY/);
      assert.match((JSON.parse(answer.body) as { message: string }).message, /is not an address of this admin listener/);
    }
    const noHost = await raw(g.admin, 'GET /config HTTP/1.0\r\n');
    assert.equal(noHost.status, 403, noHost.body);
    for (const goodHost of [host, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const answer = await raw(g.admin, `GET /config HTTP/1.1\r\nHost: ${goodHost}\r\n`);
      assert.equal(answer.status, 200, goodHost);
      assert.match(answer.body, /PRIVATE KEY/);
    }
  });
});

test('KONG_ADMIN_TOKEN_FILE: every admin request needs Kong-Admin-Token (401 without or wrong)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'signet-admin-token-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const token = 'c0ffee-admin-token-0123456789abcdef';
  const file = join(dir, 'admin-token');
  await writeFile(file, `${token}\n`);
  const g = await startGatewayProcess(t, KONG_YML, { env: { KONG_ADMIN_TOKEN_FILE: file } });
  for (const [path, method] of [['/status', 'GET'], ['/config', 'GET'], ['/upstreams/pool/health', 'GET'], ['/metrics', 'GET'], ['/config', 'POST']] as const) {
    for (const headers of [{}, { 'kong-admin-token': 'wrong' }, { 'kong-admin-token': `${token}x` }, { 'kong-admin-token': token.slice(0, -1) }]) {
      const res = await request(`${g.admin}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, ...(method === 'POST' ? { body: JSON.stringify({ config: EVIL_YML }) } : {}) });
      const text = await res.body.text();
      assert.equal(res.statusCode, 401, `${method} ${path} ${JSON.stringify(headers)}`);
      assert.ok(typeof (JSON.parse(text) as { message?: unknown }).message === 'string');
      assert.doesNotMatch(text, /PRIVATE KEY/);
    }
  }
  const status = await request(`${g.admin}/status`, { headers: { 'kong-admin-token': token } });
  await status.body.text();
  assert.equal(status.statusCode, 200);
  const reload = await request(`${g.admin}/config`, { method: 'POST', headers: { 'kong-admin-token': token, 'content-type': 'text/yaml' }, body: KONG_YML });
  await reload.body.text();
  assert.equal(reload.statusCode, 201);
  assert.doesNotMatch(g.proc.output(), new RegExp(token));
});

test('start refuses a non-loopback admin bind without a token, with a clear error', async (t) => {
  // 192.0.2.1 (TEST-NET-1) is on no interface here: nothing is ever bound, even by a build that
  // does not refuse. Wildcard binds (0.0.0.0, ::) are covered by the config tests.
  const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', '--proxy-listen', '127.0.0.1:0', '--admin-listen', '192.0.2.1:0', '--workers', '1'], {
    env: { ...process.env, KONG_ADMIN_TOKEN: '', KONG_ADMIN_TOKEN_FILE: '' },
    cwd: ROOT,
  });
  t.after(() => proc.stop());
  assert.notEqual(await proc.exited, 0);
  assert.match(proc.output(), /admin_listen: 192\.0\.2\.1:0 is not a loopback address.*KONG_ADMIN_TOKEN or KONG_ADMIN_TOKEN_FILE/);
});
