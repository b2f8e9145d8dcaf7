import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverNameFor } from './server-name.ts';

test('serverNameFor: the Host header without its port; nothing for IP literals', () => {
  const cases: [string, string | undefined][] = [
    ['api.example.com', 'api.example.com'],
    ['api.example.com:8443', 'api.example.com'],
    ['localhost:3001', 'localhost'],
    ['example.com.', 'example.com'],
    ['example.com.:443', 'example.com'],
    ['127.0.0.1', undefined],
    ['127.0.0.1:8443', undefined],
    ['[::1]:8443', undefined],
    ['[2001:db8::1]', undefined],
    ['::1', undefined],
    ['', undefined],
    [':443', undefined],
  ];
  for (const [host, expected] of cases) assert.equal(serverNameFor(host), expected, host);
});
