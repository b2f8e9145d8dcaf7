import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeUri, normalizePath, normalizeRequestPath } from './normalize-path.ts';

test('normalizeRequestPath: Kong normalize(uri, true), keeping encoded non-UTF-8 bytes as sent', () => {
  const cases: [string, string][] = [
    ['/public/../health', '/health'],
    ['/public/%2e%2E/health', '/health'],
    ['/a/.%2e/b', '/b'],
    ['/a//..//b', '/b'],
    ['/..', '/'],
    ['/a/..%2Fb', '/a/..%2Fb'],
    ['/caf%C3%A9', '/café'],
    ['/%ff%FE/x', '/%FF%FE/x'],
    ['/%C3%A9%FF', '/%C3%A9%FF'],
    ['/%C3', '/%C3'],
    ['/%7e%41%20', '/~A '],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeRequestPath(input), expected, input);
  // The schema's check keeps Kong's byte-wise decoding (a non-UTF-8 byte is not "normalised").
  assert.notEqual(normalizePath('/%FF'), '/%FF');
});

test('escapeUri: Kong escape(), every byte outside the safe set percent-encoded', () => {
  const cases: [string, string][] = [
    ['/a/b-c_d.e~f', '/a/b-c_d.e~f'],
    ['/a b', '/a%20b'],
    ['/café', '/caf%C3%A9'],
    ['/x|y"z<>\\^`{}', '/x%7Cy%22z%3C%3E%5C%5E%60%7B%7D'],
    ["/!#$&'()*+,;=:@[]?%2F", "/!#$&'()*+,;=:@[]?%2F"],
    ['/nul\u0000', '/nul%00'],
  ];
  for (const [input, expected] of cases) assert.equal(escapeUri(input), expected, input);
  // Escaping a normalised path gives back what the client encoded.
  for (const sent of ['/a%20b%7C', '/caf%C3%A9', '/%FF%FE']) assert.equal(escapeUri(normalizeRequestPath(sent)), sent);
});
