// The systemd units under deploy/systemd (docs/operations.md §6) are checked by systemd's own
// verifier when it is installed: unknown keys, bad sections and missing programs are errors here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './support/start-system.ts';

const run = promisify(execFile);
const UNITS = join(repoRoot, 'deploy/systemd');
const VERIFY = '/usr/bin/systemd-analyze';

/** systemd-analyze verify's complaints about the units in `dir` (the esign template as instance 3001). */
async function complaints(dir: string): Promise<string> {
  symlinkSync('signet-esign@.service', join(dir, 'signet-esign@3001.service'));
  const result = await run(VERIFY, ['verify', './signet.target', './signet-gateway.service', './signet-esign@3001.service'], { cwd: dir })
    .then((r) => r, (err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: `${err.stderr ?? ''}\n(exit non-zero)` }));
  return `${result.stdout}${result.stderr}`.trim();
}

function copyUnits(): string {
  const dir = mkdtempSync(join(tmpdir(), 'signet-units-'));
  for (const f of ['signet.target', 'signet-gateway.service', 'signet-esign@.service']) copyFileSync(join(UNITS, f), join(dir, f));
  return dir;
}

test('deploy/systemd units pass systemd-analyze verify without a warning', { skip: existsSync(VERIFY) ? false : 'systemd-analyze is not installed' }, async (t) => {
  const dir = copyUnits();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(await complaints(dir), '');

  // The check can fail: a key systemd does not know is reported.
  const broken = copyUnits();
  t.after(() => rmSync(broken, { recursive: true, force: true }));
  const esign = join(broken, 'signet-esign@.service');
  writeFileSync(esign, readFileSync(esign, 'utf8').replace('[Service]\n', '[Service]\nRestartAfterMidnight=yes\n'));
  assert.match(await complaints(broken), /Unknown key 'RestartAfterMidnight' in section \[Service\]/);
});

test('the units restart crashed parts forever and give the esign drain time before SIGKILL', () => {
  const esign = readFileSync(join(UNITS, 'signet-esign@.service'), 'utf8');
  const gateway = readFileSync(join(UNITS, 'signet-gateway.service'), 'utf8');
  for (const unit of [esign, gateway]) {
    assert.match(unit, /^Restart=always$/m);
    assert.match(unit, /^StartLimitIntervalSec=0$/m);
    // esign's drain is at most 8 s (packages/esign/src/cli.ts): TimeoutStopSec must exceed it.
    assert.ok(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]) > 8);
  }
  assert.match(esign, /^Environment=PORT=%i HOST=127\.0\.0\.1/m, 'the instance name is its port, on loopback behind the gateway');
  assert.match(gateway, /--admin-listen 127\.0\.0\.1:8001/, 'the admin API stays on loopback');
  assert.match(gateway, /^ExecStart=\/usr\/bin\/node --no-allocation-site-pretenuring --import tsx /m, 'the gateway\'s V8 settings from its start');
});
