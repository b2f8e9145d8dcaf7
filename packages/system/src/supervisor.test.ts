import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Supervisor } from './supervisor.ts';
import { pollUntil } from '@signet/kit';

const node = process.execPath;
// A part that prints a line, then waits until it is told to stop. The handler is installed before
// 'up' is printed: a test stops the part as soon as it reads 'up', and a SIGTERM that arrived
// first would kill it by default, with no 'bye' (a race a slow CI machine lost).
const longRunning = (greeting = "'up'"): string => `process.on('SIGTERM', () => { console.log('bye'); process.exit(0); }); console.log(${greeting}); setInterval(() => {}, 1000);`;
const LONG_RUNNING = longRunning();

test('prefixes each part\'s output and stops every part on request', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000 });
  sup.start({ name: 'alpha', command: node, args: ['-e', LONG_RUNNING] });
  sup.start({ name: 'beta', command: node, args: ['-e', LONG_RUNNING] });
  await pollUntil(() => lines.filter((l) => l.endsWith('| up')).length === 2, { what: 'both parts up' });
  assert.ok(lines.some((l) => l.startsWith('alpha    | up')));
  assert.ok(lines.some((l) => l.startsWith('beta     | up')));
  await sup.stop();
  const { failure } = await sup.done();
  assert.equal(failure, undefined);
  assert.ok(lines.some((l) => l.startsWith('alpha    | bye')));
  assert.ok(lines.some((l) => l.startsWith('beta     | bye')));
});

test('an essential part that dies on its own stops the others and is reported', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000 });
  sup.start({ name: 'steady', command: node, args: ['-e', LONG_RUNNING], restart: true });
  await pollUntil(() => lines.some((l) => l.endsWith('| up')), { what: 'steady up' });
  sup.start({ name: 'crashy', command: node, args: ['-e', 'process.exit(3)'] });
  const { failure } = await sup.done();
  assert.equal(failure, 'crashy exited unexpectedly (code 3)');
  assert.ok(lines.some((l) => l.startsWith('steady   | bye')));
});

test('a restartable part that dies is started again with growing delays while the others keep running; a crash loop shows its last lines', async () => {
  const lines: string[] = [];
  const policy = { initialMs: 100, factor: 2, maxMs: 400, stableAfterMs: 60_000, loopAfter: 3 };
  const crashes: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000, restartPolicy: policy, onCrash: (name) => crashes.push(name) });
  sup.enableRestarts();
  sup.start({ name: 'steady', command: node, args: ['-e', LONG_RUNNING] });
  sup.start({ name: 'crashy', command: node, args: ['-e', "console.log('cannot open the database'); process.exit(3)"], restart: true });
  await pollUntil(() => crashes.length >= 5, { what: 'five crashes' });
  await sup.stop();
  const delays = lines.flatMap((l) => /crashy exited unexpectedly \(code 3\) after [\d.]+ s up; restarting in ([\d.]+) s \(crash (\d+) in a row, (\d+) in all\)/.exec(l)?.slice(1, 4).map(Number) ?? []);
  // [delay s, in a row, total] per crash: 0.1, 0.2, 0.4, then the cap.
  assert.deepEqual(delays.slice(0, 15), [0.1, 1, 1, 0.2, 2, 2, 0.4, 3, 3, 0.4, 4, 4, 0.4, 5, 5]);
  const loop = lines.findIndex((l) => l.includes('crashy is crash-looping (3 crashes in a row'));
  assert.ok(loop > 0, lines.join('\n'));
  assert.equal(lines[loop + 1], 'system   |   crashy > cannot open the database');
  assert.ok(lines.some((l) => /^system {3}\| crashy started again \(pid \d+\); status: steady up \d+s · crashy up 0s \(\d+ restarts?\)$/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /status: steady up \d+s · crashy down, restart in 0s \(\d+ restarts?, \d+ crashes in a row\)/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => l.startsWith('steady   | bye')), 'the steady part ran until the stop');
  assert.equal((await sup.done()).failure, undefined, 'a restartable part does not end the system');
  const restartsAfterStop = lines.length;
  await new Promise((resolve) => setTimeout(resolve, policy.maxMs * 2));
  assert.equal(lines.length, restartsAfterStop, 'nothing is restarted after stop()');
});

test('before enableRestarts() (the system has not come up yet), a restartable part that dies is a failed start', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000 });
  sup.start({ name: 'steady', command: node, args: ['-e', LONG_RUNNING] });
  sup.start({ name: 'crashy', command: node, args: ['-e', 'process.exit(1)'], restart: true });
  assert.equal((await sup.done()).failure, 'crashy exited unexpectedly (code 1)');
  assert.ok(!lines.some((l) => l.includes('restarting in')));
});

test('restart() stops a part on purpose (not a crash) and starts a new one', async () => {
  const lines: string[] = [];
  const crashes: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000, onCrash: (name) => crashes.push(name) });
  sup.start({ name: 'svc', command: node, args: ['-e', longRunning("'pid ' + process.pid")], restart: true });
  const first = Number(/pid (\d+)/.exec(await pollUntil(() => lines.find((l) => l.includes('| pid ')), { what: 'svc up' }))![1]);
  const second = await sup.restart('svc');
  assert.ok(second !== undefined && second !== first);
  await pollUntil(() => lines.some((l) => l.includes(`| pid ${second}`)), { what: 'the new svc up' });
  // The old one's last line may be read after its exit is seen: waited for, not assumed.
  await pollUntil(() => lines.some((l) => l === 'svc      | bye'), { what: 'the old one asked to stop (its "bye")' });
  assert.deepEqual(crashes, []);
  assert.ok(!lines.some((l) => l.includes('unexpectedly')));
  await sup.stop();
});

test('a part that ignores SIGTERM is killed after the grace time', async () => {
  const lines: string[] = [];
  const stubborn = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 100 });
  stubborn.start({ name: 'stubborn', command: node, args: ['-e', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000);"] });
  await pollUntil(() => lines.some((l) => l.endsWith('| up')), { what: 'stubborn up' });
  const started = Date.now();
  await stubborn.stop();
  assert.ok(Date.now() - started < 5000);
  assert.equal((await stubborn.done()).failure, undefined);
});

test('stop waits for the last-started part (the gateway) to exit before it signals the ones behind it', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 5000 });
  // The backend notes when it is told to stop; the entry point takes a while to drain, as the gateway does.
  sup.start({ name: 'backend', command: node, args: ['-e', "process.on('SIGTERM', () => { console.log('term'); process.exit(0); }); console.log('up'); setInterval(() => {}, 1000);"] });
  sup.start({ name: 'entry', command: node, args: ['-e', "process.on('SIGTERM', () => setTimeout(() => { console.log('drained'); process.exit(0); }, 300)); console.log('up'); setInterval(() => {}, 1000);"] });
  await pollUntil(() => lines.filter((l) => l.endsWith('| up')).length === 2, { what: 'both parts up' });
  await sup.stop();
  const drained = lines.indexOf('entry    | drained');
  const term = lines.indexOf('backend  | term');
  assert.ok(drained >= 0 && term >= 0, lines.join('\n'));
  assert.ok(drained < term, `the backend was signalled before the entry point had drained:\n${lines.join('\n')}`);
});

/** The process group of `pid`, from /proc (field 5 of stat). */
function pgrpOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('each part leads its own process group and is told to stop with its supervisor', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000 });
  sup.start({ name: 'part', command: node, args: ['-e', `console.log('env=' + process.env.SIGNET_STOP_WITH_PARENT + ' pid=' + process.pid); ${LONG_RUNNING}`] });
  const line = await pollUntil(() => lines.find((l) => l.includes('env=')), { what: 'the part to report' });
  const [, env, pid] = /env=(\S+) pid=(\d+)/.exec(line)!;
  assert.equal(env, '1');
  assert.equal(pgrpOf(Number(pid)), Number(pid), 'the part is its group leader');
  assert.notEqual(pgrpOf(Number(pid)), pgrpOf(process.pid), 'not in the supervisor\'s group: a terminal Ctrl-C does not reach it');
  await sup.stop();
});

test('kill() removes every part\'s whole group, grandchildren included, at once', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 60_000 });
  // The part ignores SIGTERM and starts a grandchild of its own (as esign starts LibreOffice).
  const script = "const { spawn } = require('node:child_process'); const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); " +
    "process.on('SIGTERM', () => {}); console.log('pids ' + process.pid + ' ' + g.pid); setInterval(() => {}, 1000);";
  sup.start({ name: 'parent', command: node, args: ['-e', script] });
  const line = await pollUntil(() => lines.find((l) => l.includes('pids ')), { what: 'the part and its child to start' });
  const pids = /pids (\d+) (\d+)/.exec(line)!.slice(1).map(Number);
  assert.ok(pids.every(alive));
  sup.kill();
  await pollUntil(() => pids.every((p) => !alive(p)), { timeoutMs: 5000, what: 'part and grandchild gone' });
  await sup.done();
});

test('what a part started dies with it: a SIGKILLed part\'s grandchildren are removed before it is restarted', async () => {
  const lines: string[] = [];
  const sup = new Supervisor({ log: (l) => lines.push(l), stopGraceMs: 2000, restartPolicy: { initialMs: 50, factor: 2, maxMs: 50, stableAfterMs: 60_000, loopAfter: 10 } });
  sup.enableRestarts();
  const script = "const { spawn } = require('node:child_process'); const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); " +
    "console.log('pids ' + process.pid + ' ' + g.pid); setInterval(() => {}, 1000);";
  sup.start({ name: 'conv', command: node, args: ['-e', script], restart: true });
  const line = await pollUntil(() => lines.find((l) => l.includes('pids ')), { what: 'the part and its child to start' });
  const [part, grandchild] = /pids (\d+) (\d+)/.exec(line)!.slice(1).map(Number) as [number, number];
  process.kill(part, 'SIGKILL');
  await pollUntil(() => lines.filter((l) => l.includes('pids ')).length === 2, { what: 'the part restarted' });
  await pollUntil(() => !alive(grandchild), { timeoutMs: 5000, what: 'the orphaned grandchild removed' });
  await sup.stop();
});
