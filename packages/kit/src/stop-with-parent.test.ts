import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { stopWithParent } from './stop-with-parent.ts';

test('stopWithParent: the end of the input calls back once', () => {
  const input = new PassThrough();
  let calls = 0;
  stopWithParent(() => calls++, input);
  input.write('ignored');
  input.end();
  input.resume();
  return new Promise<void>((resolve) => setImmediate(() => {
    assert.equal(calls, 1);
    assert.ok(input.destroyed);
    resolve();
  }));
});

test('stopWithParent: disposed, it releases the input and never calls back', async () => {
  const input = new PassThrough();
  let calls = 0;
  const dispose = stopWithParent(() => calls++, input);
  dispose();
  assert.ok(input.destroyed);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls, 0);
});

test('stopWithParent: a child whose parent closes its stdin pipe hears it, and exits once released', async () => {
  // The child watches its real stdin; closing our end is what the kernel does when we die.
  const script = "import { stopWithParent } from './packages/kit/src/stop-with-parent.ts'; stopWithParent(() => { console.log('parent gone'); });";
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../../..', import.meta.url).pathname, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.end();
  // The watcher released stdin, so nothing keeps the child alive: it exits by itself.
  assert.equal(await exited, 0);
  assert.equal(out, 'parent gone\n');
});
