// Process-level faults: an unhandled rejection is logged with its stack and the process keeps
// serving; an uncaught exception is logged and the process exits (node: its state is undefined),
// to be replaced by the primary (workers) or the supervisor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { watchProcessFaults } from './process-faults.ts';

function harness() {
  const proc = new EventEmitter();
  const logged: { level: string; err: unknown; msg: string }[] = [];
  const exits: number[] = [];
  const log = {
    error: (obj: { err: unknown }, msg: string) => logged.push({ level: 'error', err: obj.err, msg }),
    fatal: (obj: { err: unknown }, msg: string) => logged.push({ level: 'fatal', err: obj.err, msg }),
  };
  watchProcessFaults(proc, log, (code) => exits.push(code));
  return { proc, logged, exits };
}

test('an unhandled rejection is logged as an error, with its reason, and the process keeps running', () => {
  const { proc, logged, exits } = harness();
  const reason = new RangeError('Invalid string length');
  proc.emit('unhandledRejection', reason, Promise.resolve());
  assert.deepEqual(logged, [{ level: 'error', err: reason, msg: 'unhandled promise rejection (a bug); still serving' }]);
  assert.deepEqual(exits, []);
});

test('an uncaught exception is logged as fatal and the process exits with 1', () => {
  const { proc, logged, exits } = harness();
  const error = new TypeError('boom');
  proc.emit('uncaughtException', error, 'uncaughtException');
  assert.deepEqual(logged, [{ level: 'fatal', err: error, msg: 'uncaught exception (a bug); exiting' }]);
  assert.deepEqual(exits, [1]);
});
