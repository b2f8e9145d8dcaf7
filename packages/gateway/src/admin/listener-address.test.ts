import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isListenerHost, isListenerOrigin, isLoopbackAddress } from './listener-address.ts';

const loopback = { localAddress: '127.0.0.1', localPort: 8001 };
const mapped = { localAddress: '::ffff:127.0.0.1', localPort: 8001 };
const lan = { localAddress: '10.0.0.5', localPort: 8001 };
const v6 = { localAddress: '2001:db8::5', localPort: 8001 };

test('isLoopbackAddress: 127/8, ::1 and their mapped forms only', () => {
  for (const a of ['127.0.0.1', '127.9.8.7', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(a), true, a);
  for (const a of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'localhost', '128.0.0.1', '']) assert.equal(isLoopbackAddress(a), false, a);
});

test('isListenerHost: the listener IP, loopback names on loopback, the right port', () => {
  const yes: [string, typeof loopback][] = [
    ['127.0.0.1:8001', loopback], ['localhost:8001', loopback], ['LocalHost:8001', loopback], ['[::1]:8001', loopback],
    ['127.0.0.1:8001', mapped], ['[0:0::1]:8001', loopback], ['10.0.0.5:8001', lan], ['[2001:db8:0::5]:8001', v6],
  ];
  for (const [host, end] of yes) assert.equal(isListenerHost(host, end), true, host);
  const no: [string | undefined, typeof loopback][] = [
    [undefined, loopback], ['', loopback], ['evil.test:8001', loopback], ['127.0.0.1', loopback], ['127.0.0.1:8002', loopback],
    ['localhost.:8001', loopback], ['127.0.0.1:8001@evil.test', loopback], ['127.0.0.1:8001/x', loopback], ['127.0.0.1:8001 ', loopback],
    ['localhost:8001', lan], ['127.0.0.1:8001', lan], ['10.0.0.6:8001', lan], ['admin.internal:8001', lan],
  ];
  for (const [host, end] of no) assert.equal(isListenerHost(host, end), false, String(host));
  // Port 80 may be left out, as browsers do.
  assert.equal(isListenerHost('127.0.0.1', { localAddress: '127.0.0.1', localPort: 80 }), true);
});

test('isListenerOrigin: http:// and one of the listener\'s Host values, nothing more', () => {
  for (const o of ['http://127.0.0.1:8001', 'http://localhost:8001', 'http://[::1]:8001']) assert.equal(isListenerOrigin(o, loopback), true, o);
  for (const o of ['null', 'https://127.0.0.1:8001', 'http://127.0.0.1:8001/', 'http://evil.test:8001', 'http://127.0.0.1', 'http://u@127.0.0.1:8001', 'file://', '']) {
    assert.equal(isListenerOrigin(o, loopback), false, o);
  }
});
