import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientIp, isLoopbackAddress } from '../web/client-ip.ts';

test('behind the loopback gateway the last X-Forwarded-For entry is the client; nobody else is believed', () => {
  assert.equal(clientIp('127.0.0.1', '203.0.113.7'), '203.0.113.7');
  assert.equal(clientIp('::1', '1.2.3.4, 198.51.100.2'), '198.51.100.2', 'what the client prepended is ignored');
  assert.equal(clientIp('127.0.0.1', ['10.0.0.1', '2001:db8::5']), '2001:db8::5');
  assert.equal(clientIp('127.0.0.1', 'not-an-ip'), '127.0.0.1');
  assert.equal(clientIp('127.0.0.1', undefined), '127.0.0.1');
  assert.equal(clientIp('192.0.2.10', '203.0.113.7'), '192.0.2.10', 'a non-loopback peer cannot claim another address');
});

test('isLoopbackAddress: the whole 127/8, ::1 and their mapped forms; nothing else', () => {
  for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(a), true, a);
  for (const a of ['10.0.0.1', '::ffff:10.0.0.1', '0.0.0.0', '::', 'localhost', '128.0.0.1', undefined]) assert.equal(isLoopbackAddress(a), false, String(a));
});
