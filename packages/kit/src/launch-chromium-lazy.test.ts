import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

test('importing @signet/kit does not load playwright-core (gateway workers start lean)', () => {
  const script = "await import('@signet/kit'); const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache).some((p) => p.includes('playwright-core')); console.log(loaded ? 'loaded' : 'lean');";
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'lean');
});
