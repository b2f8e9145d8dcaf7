// The upstream header block with the plugins' edits: appended to the scanned lines when no
// edited name passes through, rebuilt from the raw headers otherwise. Both paths must give the
// bytes the line-by-line rebuild gave (the reference below), over a corpus of header sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeaderEdits, type HeaderEdit } from '../plugins/header-edits.ts';
import { scanRequestHeaders } from './scan-request-headers.ts';
import { upstreamHeaderLines } from './upstream-header-lines.ts';

// Every passed-through line, minus those an edit names, then the set headers in edit order.
function reference(passthrough: string, edits: ReadonlyMap<string, HeaderEdit>): string {
  let out = '';
  for (const line of passthrough.split('\r\n')) {
    if (line === '') continue;
    if (!edits.has(line.slice(0, line.indexOf(':')).toLowerCase())) out += line + '\r\n';
  }
  for (const edit of edits.values()) {
    if (edit === null) continue;
    if (typeof edit[1] === 'string') out += edit[0] + ': ' + edit[1] + '\r\n';
    else for (const v of edit[1]) out += edit[0] + ': ' + v + '\r\n';
  }
  return out;
}

function editsOf(entries: readonly (readonly [string, HeaderEdit])[]): HeaderEdits {
  const [first, ...rest] = entries;
  const out = new HeaderEdits(first![0], first![1]);
  for (const [lower, edit] of rest) out.set(lower, edit);
  return out;
}

// Names a client sends and plugins edit: passed through, dropped by the gateway, named in
// Connection, in several casings.
const NAMES = [
  'Accept', 'accept', 'ACCEPT', 'apikey', 'X-Consumer-ID', 'x-consumer-id', 'X-Consumer-Username', 'X-Anonymous-Consumer',
  'X-Credential-Identifier', 'Cookie', 'Authorization', 'Host', 'Content-Length', 'X-Forwarded-For', 'Via', 'Expect',
  'X-Secret', 'Keep-Alive', 'Kong-Request-ID', 'X-Consumer-Groups', 'Content-Type',
];

// A small deterministic generator, so a failure names a case that can be replayed.
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

test('upstreamHeaderLines: the appended and rebuilt blocks equal the line-by-line rebuild over 2000 header sets', () => {
  const rnd = prng(18);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  let appended = 0;
  let rebuilt = 0;
  for (let n = 0; n < 2000; n++) {
    const raw: string[] = [];
    const count = Math.floor(rnd() * 8);
    for (let i = 0; i < count; i++) raw.push(pick(NAMES), `v${n}-${i}`);
    if (rnd() < 0.2) raw.push('Connection', `keep-alive, ${pick(NAMES)}`);
    const entries: [string, HeaderEdit][] = [];
    const editCount = Math.floor(rnd() * 6);
    for (let i = 0; i < editCount; i++) {
      const name = pick(NAMES);
      const r = rnd();
      entries.push([name.toLowerCase(), r < 0.3 ? null : r < 0.5 ? [name, [`a${i}`, `b${i}`]] : [name, `e${i}`]]);
    }
    // A Map is the model: HeaderEdits keeps its semantics (a repeated name is replaced in place).
    const edits = new Map(entries);
    const scanned = scanRequestHeaders(raw);
    const got = upstreamHeaderLines(raw, scanned, entries.length === 0 ? undefined : editsOf(entries));
    const want = reference(scanned.passthrough, edits);
    assert.equal(got, want, `case ${n}: ${JSON.stringify(raw)} edits ${JSON.stringify([...edits])}`);
    if ([...edits.keys()].some((k) => scanned.passthrough.toLowerCase().includes(`\n${k}:`) || scanned.passthrough.toLowerCase().startsWith(`${k}:`))) rebuilt++;
    else appended++;
  }
  // The corpus exercises both paths.
  assert.ok(appended > 200 && rebuilt > 200, `appended ${appended}, rebuilt ${rebuilt}`);
});

test('upstreamHeaderLines: consumer headers are appended; a hidden credential and a client-sent X-Consumer-ID are left out', () => {
  const raw = ['Host', 'api.test', 'apikey', 'k', 'X-Consumer-ID', 'forged', 'Accept', '*/*'];
  const scanned = scanRequestHeaders(raw);
  const consumer = editsOf([['x-consumer-username', ['X-Consumer-Username', 'alice']]]);
  assert.equal(upstreamHeaderLines(raw, scanned, consumer), 'apikey: k\r\nX-Consumer-ID: forged\r\nAccept: */*\r\nX-Consumer-Username: alice\r\n');
  const hidden = editsOf([['x-consumer-id', ['X-Consumer-ID', 'c-1']], ['apikey', null]]);
  assert.equal(upstreamHeaderLines(raw, scanned, hidden), 'Accept: */*\r\nX-Consumer-ID: c-1\r\n');
  assert.equal(upstreamHeaderLines(raw, scanned, undefined), scanned.passthrough);
});
