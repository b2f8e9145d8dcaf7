// The remembered header lines must be exactly what checking and joining each field gives, for
// every sequence of heads: a field equal to the remembered one reuses its line, anything else
// (another value, an invalid one, a line break after a valid value) goes the full way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNKED, CLOSES, fieldLine, InvalidHeaderError, SEEN_CONNECTION, SEEN_DATE, SEEN_LENGTH, SEEN_TE } from './field-lines.ts';

// The unremembered answer: node's checks, the line, the framing flags.
function reference(name: string, value: string): { line: string; flags: number } | 'invalid' {
  if (!/^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/.test(name) || /[^\t\x20-\x7e\x80-\xff]/.test(value)) return 'invalid';
  const lower = name.toLowerCase();
  let flags = 0;
  if (lower === 'date') flags = SEEN_DATE;
  if (lower === 'connection') flags = SEEN_CONNECTION | (/(?:^|\W)close(?:$|\W)/i.test(value) ? CLOSES : 0);
  if (lower === 'content-length') flags = SEEN_LENGTH;
  if (lower === 'transfer-encoding') flags = SEEN_TE | (/(?:^|\W)chunked(?:$|\W)/i.test(value) ? CHUNKED : 0);
  return { line: `${name}: ${value}\r\n`, flags };
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const NAMES = ['Server', 'Date', 'Connection', 'connection', 'Content-Length', 'Transfer-Encoding', 'Vary', 'X-A', 'Bad Name', '', 'X\r\nY'];
const VALUES = ['nginx', 'close', 'keep-alive, Close', 'chunked', 'gzip, chunked', '11', '', 'a\r\nX-Evil: 1', 'ok\n', 'tab\there', '\u00e9', 'nul\0', 'x\u0100'];

test('fieldLine equals the unremembered check and line over 20,000 random fields at 70 positions', () => {
  const rnd = prng(27);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  for (let n = 0; n < 20_000; n++) {
    const position = Math.floor(rnd() * 70);
    // Fresh strings as often as the same ones: a memo must compare contents, not identity.
    const name = rnd() < 0.5 ? pick(NAMES) : pick(NAMES).split('').join('');
    const value = pick(VALUES);
    const want = reference(name, value);
    if (want === 'invalid') {
      assert.throws(() => fieldLine(position, name, value), InvalidHeaderError, `case ${n}: ${JSON.stringify([position, name, value])}`);
      continue;
    }
    const got = fieldLine(position, name, value);
    assert.equal(got.line, want.line, `case ${n}`);
    assert.equal(got.flags, want.flags, `case ${n}`);
  }
});

test('a line break after a remembered valid value at the same position is refused, every time', () => {
  assert.equal(fieldLine(3, 'X-Id', 'abc').line, 'X-Id: abc\r\n');
  assert.equal(fieldLine(3, 'X-Id', 'abc').line, 'X-Id: abc\r\n');
  for (let i = 0; i < 3; i++) assert.throws(() => fieldLine(3, 'X-Id', 'abc\r\nSet-Cookie: a=b'), InvalidHeaderError);
  assert.throws(() => fieldLine(3, 'X-Id\r\nSet-Cookie', 'abc'), InvalidHeaderError);
  // The remembered field is still answered right after the refusals.
  assert.equal(fieldLine(3, 'X-Id', 'abc').line, 'X-Id: abc\r\n');
  // An empty name or value was never remembered as a line.
  assert.throws(() => fieldLine(40, '', ''), InvalidHeaderError);
  assert.equal(fieldLine(41, 'X-Empty', '').line, 'X-Empty: \r\n');
});
