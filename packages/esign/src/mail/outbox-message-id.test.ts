import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outboxMessageId } from './outbox-message-id.ts';

test('outboxMessageId: <row id @ PUBLIC_URL host>, the same for the same row', () => {
  const id = '0b9c7e36-8d0e-4c55-9d4e-7f1f3c2a9b10';
  assert.equal(outboxMessageId(id, 'esign.example.com'), '<0b9c7e36-8d0e-4c55-9d4e-7f1f3c2a9b10@esign.example.com>');
  assert.equal(outboxMessageId(id, 'esign.example.com'), outboxMessageId(id, 'esign.example.com'));
  assert.notEqual(outboxMessageId(id, 'esign.example.com'), outboxMessageId('another-row', 'esign.example.com'));
  // Hosts as new URL(PUBLIC_URL).hostname gives them.
  assert.equal(outboxMessageId(id, new URL('http://127.0.0.1:9').hostname), `<${id}@127.0.0.1>`);
  assert.equal(outboxMessageId(id, new URL('https://[::1]:8443').hostname), `<${id}@[::1]>`);
  // WHATWG URL keeps an underscore in a host name; RFC 5322 atext allows it.
  assert.equal(outboxMessageId(id, new URL('http://mail_host.local').hostname), `<${id}@mail_host.local>`);
});

test('outboxMessageId: nothing that would break the header (RFC 5322 §3.6.4 msg-id)', () => {
  for (const [row, host] of [['a b', 'h'], ['a>', 'h'], ['a', 'h\r\nBcc: x@y'], ['a', ''], ['', 'h'], ['a', 'h..x']]) {
    assert.throws(() => outboxMessageId(row ?? '', host ?? ''), TypeError, `${row} @ ${host}`);
  }
});
