import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from '@signet/kit';
import { startProcess } from '@signet/kit/testing';

const repoRoot = join(import.meta.dirname, '../../..');

test('`npm start` entry point starts, prints its URLs and stops cleanly on SIGINT', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-start-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  // Ports away from the defaults so a developer's running system does not collide.
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, GATEWAY_HTTP_PORT: '18000', GATEWAY_HTTPS_PORT: '18443', GATEWAY_ADMIN_PORT: '18001', ESIGN_PORTS: '13001,13002' },
  });
  t.after(() => proc.stop());
  await pollUntil(() => proc.output().includes('Ctrl-C stops everything'), { timeoutMs: 60_000, what: 'start-up banner' });
  assert.match(proc.output(), /public URL +https:\/\/localhost:18443/);
  assert.ok(existsSync(join(dataDir, 'tls', 'ca.pem')));
  proc.child.kill('SIGINT');
  assert.equal(await proc.exited, 0);
  assert.match(proc.output(), /system +\| stopped$/m);
});
