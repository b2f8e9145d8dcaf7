import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { ensureDevTls } from './dev-tls.ts';

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
  const nearExpiry = new Date(Date.now() + 395 * 86_400_000);
  const again = ensureDevTls(dataDir, nearExpiry);
  assert.equal(again.created, true);
  assert.equal(readFileSync(again.caPath, 'utf8'), caBefore);
  assert.notEqual(readFileSync(again.certPath, 'utf8'), certBefore);
});
