import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createDevSealP12 } from '@signet/pdf';
import { loadOrCreateDevSeal } from '../../src/completion/dev-seal-identity.ts';
import { loadSealIdentity } from '../../src/completion/load-seal-identity.ts';
import { EsignConfigError } from '../../src/config.ts';

test('SEAL_P12_FILE: a good P12 loads; a wrong passphrase or a missing file stops start, naming the setting', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-seal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const identity = createDevSealP12({ passphrase: 'right' });
  const file = join(dir, 'seal.p12');
  writeFileSync(file, identity.p12);
  assert.deepEqual((await loadSealIdentity(file, 'right')).p12, identity.p12);
  await assert.rejects(loadSealIdentity(file, 'wrong'), (err: unknown) => err instanceof EsignConfigError && /SEAL_P12_PASSPHRASE/.test(err.message));
  await assert.rejects(loadSealIdentity(join(dir, 'missing.p12'), 'right'), (err: unknown) => err instanceof EsignConfigError && /SEAL_P12_FILE cannot be read/.test(err.message));
});

test('the development seal is generated once per data directory and reused', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-devseal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = loadOrCreateDevSeal(dir);
  const second = loadOrCreateDevSeal(dir);
  assert.deepEqual(second, first);
});
