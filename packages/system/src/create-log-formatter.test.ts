import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogFormatter } from './create-log-formatter.ts';

// 2026-11-21T21:14:05.123Z
const T = Date.UTC(2026, 10, 21, 21, 14, 5, 123);
const pino = (o: Record<string, unknown>) => JSON.stringify({ level: 30, time: T, pid: 7, hostname: 'vm', ...o });

test('a pino line becomes time, level, message and key=value pairs; other lines pass through', () => {
  const f = createLogFormatter('gateway');
  assert.equal(f(pino({ role: 'primary', url: 'http://127.0.0.1:8001', msg: 'admin listening' })), 'gateway  | 21:14:05.123 INFO  admin listening role=primary url=http://127.0.0.1:8001');
  assert.equal(f(pino({ level: 40, msg: 'redis health bus', err: 'connect ECONNREFUSED', detail: { a: 1, b: 'two words' } })),
    'gateway  | 21:14:05.123 WARN  redis health bus detail.a=1 detail.b="two words" err="connect ECONNREFUSED"');
  assert.equal(f('plain text from a child'), 'gateway  | plain text from a child');
  assert.equal(f('{"not":"pino"}'), 'gateway  | {"not":"pino"}');
  assert.equal(f('{broken json'), 'gateway  | {broken json');
});

test('fastify\'s request pair is one line at completion; successful health probes are dropped', () => {
  const f = createLogFormatter('esign-1');
  assert.equal(f(pino({ reqId: 'req-1', req: { method: 'POST', url: '/oauth/token', remotePort: 1 }, msg: 'incoming request' })), undefined);
  assert.equal(f(pino({ reqId: 'req-1', res: { statusCode: 200 }, responseTime: 12.345, msg: 'request completed' })), 'esign-1  | 21:14:05.123 INFO  POST /oauth/token 200 12.3ms reqId=req-1');
  assert.equal(f(pino({ reqId: 'req-2', req: { method: 'GET', url: '/health' }, msg: 'incoming request' })), undefined);
  assert.equal(f(pino({ reqId: 'req-2', res: { statusCode: 200 }, responseTime: 0.5, msg: 'request completed' })), undefined);
  // A failing probe is news.
  f(pino({ reqId: 'req-3', req: { method: 'GET', url: '/health' }, msg: 'incoming request' }));
  assert.equal(f(pino({ reqId: 'req-3', res: { statusCode: 503 }, responseTime: 2, msg: 'request completed' })), 'esign-1  | 21:14:05.123 INFO  GET /health 503 2.0ms reqId=req-3');
  const verbose = createLogFormatter('esign-2', { showHealthProbes: true });
  verbose(pino({ reqId: 'req-1', req: { method: 'GET', url: '/health' }, msg: 'incoming request' }));
  assert.equal(verbose(pino({ reqId: 'req-1', res: { statusCode: 200 }, responseTime: 1, msg: 'request completed' })), 'esign-2  | 21:14:05.123 INFO  GET /health 200 1.0ms reqId=req-1');
});

test('an error\'s stack is printed under its line', () => {
  const f = createLogFormatter('esign-1');
  const out = f(pino({ level: 50, reqId: 'req-9', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' }, msg: 'boom' }));
  assert.equal(out, [
    'esign-1  | 21:14:05.123 ERROR boom reqId=req-9',
    'esign-1  |     Error: boom',
    'esign-1  |         at x (y.ts:1:1)',
  ].join('\n'));
});
