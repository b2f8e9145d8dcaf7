import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { createCertificateAuthority } from '@signet/kit';
import { DEV_CA, DEV_LEAF, ensureDevTls } from './dev-tls.ts';

test('first start creates a CA and a localhost certificate; later starts reuse them', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-tls-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));

  const first = ensureDevTls(dataDir);
  assert.equal(first.created, true);
  const ca = new X509Certificate(readFileSync(first.caPath));
  const leaf = new X509Certificate(readFileSync(first.certPath));
  assert.equal(leaf.checkIssued(ca), true);
  assert.equal(leaf.checkHost('localhost'), 'localhost');
  assert.equal(statSync(first.keyPath).mode & 0o777, 0o600);

  const second = ensureDevTls(dataDir);
  assert.equal(second.created, false);
  assert.equal(readFileSync(second.certPath, 'utf8'), readFileSync(first.certPath, 'utf8'));
});

test('a certificate close to expiry is renewed by the same CA', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-tls-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = ensureDevTls(dataDir);
  const caBefore = readFileSync(first.caPath, 'utf8');
  const certBefore = readFileSync(first.certPath, 'utf8');
  const nearExpiry = new Date(Date.now() + (DEV_LEAF.days - DEV_LEAF.renewBeforeDays + 1) * 86_400_000);
  const again = ensureDevTls(dataDir, nearExpiry);
  assert.equal(again.created, true);
  assert.equal(readFileSync(again.caPath, 'utf8'), caBefore);
  assert.notEqual(readFileSync(again.certPath, 'utf8'), certBefore);
});

const DAY = 86_400_000;
const NAME_CONSTRAINTS_OID = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x1e]);

test('the development CA is short-lived and name-constrained to localhost and loopback; its directory and keys are private', (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'signet-tls-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const dataDir = join(parent, 'var');
  const now = new Date();
  const tls = ensureDevTls(dataDir, now);
  const ca = new X509Certificate(readFileSync(tls.caPath));
  assert.ok(ca.raw.includes(NAME_CONSTRAINTS_OID), 'the CA carries nameConstraints');
  assert.ok(new Date(ca.validTo).getTime() - now.getTime() <= DEV_CA.days * DAY, `the CA ends within ${DEV_CA.days} days (${ca.validTo})`);
  const leaf = new X509Certificate(readFileSync(tls.certPath));
  assert.equal(leaf.checkIP('127.0.0.1'), '127.0.0.1');
  assert.ok(new Date(leaf.validTo).getTime() - now.getTime() <= DEV_LEAF.days * DAY);
  assert.equal(statSync(dataDir).mode & 0o777, 0o700);
  assert.equal(statSync(tls.dir).mode & 0o777, 0o700);
  assert.equal(statSync(join(tls.dir, 'ca-key.pem')).mode & 0o777, 0o600);
  assert.equal(statSync(tls.keyPath).mode & 0o777, 0o600);
});

test('a CA near its end, or one from before the constraints (ten years, unconstrained), is replaced with its certificate', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-tls-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = ensureDevTls(dataDir);
  const caBefore = readFileSync(first.caPath, 'utf8');
  const late = ensureDevTls(dataDir, new Date(Date.now() + (DEV_CA.days - DEV_CA.renewBeforeDays + 1) * DAY));
  assert.equal(late.created, true);
  assert.notEqual(readFileSync(late.caPath, 'utf8'), caBefore, 'a new CA');
  assert.equal(new X509Certificate(readFileSync(late.certPath)).checkIssued(new X509Certificate(readFileSync(late.caPath))), true);

  // What older versions wrote: an unconstrained CA for 3650 days, in a world-readable directory.
  const old = mkdtempSync(join(tmpdir(), 'signet-tls-'));
  t.after(() => rmSync(old, { recursive: true, force: true }));
  mkdirSync(join(old, 'tls'), { mode: 0o755 });
  chmodSync(old, 0o755);
  chmodSync(join(old, 'tls'), 0o755);
  const legacy = createCertificateAuthority({ commonName: 'Signet development CA', days: 3650 });
  writeFileSync(join(old, 'tls', 'ca.pem'), legacy.certPem, { mode: 0o644 });
  writeFileSync(join(old, 'tls', 'ca-key.pem'), legacy.keyPem, { mode: 0o644 });
  const upgraded = ensureDevTls(old);
  assert.equal(upgraded.created, true);
  assert.notEqual(readFileSync(upgraded.caPath, 'utf8'), legacy.certPem);
  assert.ok(new X509Certificate(readFileSync(upgraded.caPath)).raw.includes(NAME_CONSTRAINTS_OID));
  assert.equal(statSync(old).mode & 0o777, 0o700, 'the data directory is tightened');
  assert.equal(statSync(join(old, 'tls')).mode & 0o777, 0o700);
  assert.equal(statSync(join(old, 'tls', 'ca-key.pem')).mode & 0o777, 0o600, 'the old key file is replaced by a private one');
});
