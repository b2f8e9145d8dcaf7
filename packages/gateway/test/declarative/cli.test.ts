import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueCertificate } from '@signet/kit';
import { startProcess } from '@signet/kit/testing';
import { WEAK_CERT_PEM, WEAK_KEY_PEM } from '../tls/weak-certificate.fixture.ts';

const BIN = fileURLToPath(new URL('../../bin/signet-gateway.mjs', import.meta.url));

async function run(args: string[]): Promise<{ code: number | null; output: string }> {
  const p = startProcess(process.execPath, [BIN, ...args]);
  const code = await p.exited;
  return { code, output: p.output() };
}

const pem = (text: string): string => `|\n${text.trim().split('\n').map((l) => `      ${l}`).join('\n')}\n`;

test('signet-gateway config parse: summary and exit 0, Kong-style errors with line:col and exit 1', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'signet-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const cert = issueCertificate({ commonName: 'example.test' });
  const good = join(dir, 'kong.yml');
  await writeFile(good, `_format_version: "3.0"
services:
  - name: a
    host: up
    routes:
      - { name: r1, paths: [/a] }
      - { name: r2, paths: [/b] }
  - name: b
    url: http://127.0.0.1:9000
routes:
  - { name: r3, service: b, hosts: [b.test] }
upstreams:
  - name: up
    targets: [{ target: "127.0.0.1:3001" }, { target: "127.0.0.1:3002" }]
certificates:
  - cert: ${pem(cert.certPem)}    key: ${pem(cert.keyPem)}    snis: [{ name: example.test }]
`);
  const ok = await run(['config', 'parse', good]);
  assert.deepEqual(ok, { code: 0, output: `${good}: 2 services, 3 routes, 1 upstream, 2 targets, 1 certificate, 1 sni\n` });

  const bad = join(dir, 'bad.yml');
  await writeFile(bad, '_format_version: "3.0"\nservices:\n  - name: a\n    port: 99999\nroutes:\n  - { service: nope, paths: [/] }\n');
  const failed = await run(['config', 'parse', bad]);
  assert.deepEqual(failed, {
    code: 1,
    output:
      `${bad}:3:5: services[0].host: required field missing\n` +
      `${bad}:4:11: services[0].port: value should be between 0 and 65535\n` +
      // Kong's body stops at schema errors; the human lines also name the dangling reference.
      `${bad}:6:16: routes[0].service: invalid reference 'service: nope' (no such entry in 'services')\n`,
  });

  const json = await run(['config', 'parse', bad, '--json']);
  assert.equal(json.code, 1);
  const body = JSON.parse(json.output) as { code: number; name: string; flattened_errors: { entity_type: string }[] };
  assert.deepEqual([body.code, body.name, body.flattened_errors.map((e) => e.entity_type)], [14, 'invalid declarative configuration', ['service']]);

  const missing = await run(['config', 'parse', join(dir, 'absent.yml')]);
  assert.deepEqual(missing, { code: 1, output: `${join(dir, 'absent.yml')}: cannot read: ENOENT\n` });
  const usage = await run([]);
  assert.equal(usage.code, 2);
  assert.match(usage.output, /^usage: signet-gateway <command>/);
});

test('signet-gateway config parse: a certificate OpenSSL refuses for TLS (512-bit RSA) is an error naming it, exit 1', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'signet-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'weak.yml');
  await writeFile(file, `_format_version: "3.0"
certificates:
  - id: 00000000-0000-4000-8000-0000000000c1
    cert: ${pem(WEAK_CERT_PEM)}    key: ${pem(WEAK_KEY_PEM)}    snis: [{ name: weak.test }]
`);
  const failed = await run(['config', 'parse', file]);
  assert.deepEqual(failed, {
    code: 1,
    output: `${file}:3:5: certificates[0] (00000000-0000-4000-8000-0000000000c1): certificate cannot be used for TLS: error:0A00018F:SSL routines::ee key too small\n`,
  });
});
