import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientIp } from './client-ip.ts';

test('behind the loopback gateway the last X-Forwarded-For entry is the client; nobody else is believed', () => {
  assert.equal(clientIp('127.0.0.1', '203.0.113.7'), '203.0.113.7');
  assert.equal(clientIp('::1', '1.2.3.4, 198.51.100.2'), '198.51.100.2', 'what the client prepended is ignored');
  assert.equal(clientIp('127.0.0.1', ['10.0.0.1', '2001:db8::5']), '2001:db8::5');
  assert.equal(clientIp('127.0.0.1', 'not-an-ip'), '127.0.0.1');
  assert.equal(clientIp('127.0.0.1', undefined), '127.0.0.1');
  assert.equal(clientIp('192.0.2.10', '203.0.113.7'), '192.0.2.10', 'a non-loopback peer cannot claim another address');
});
