// Urlencoded forms are parsed on the event loop, field by field, before a handler sees who sent
// them. A review stalled an instance for 17 s (and 1 GB) with an anonymous 35 MB form of tiny
// fields posted to a bogus signing link. Forms are now bounded at 1 MiB, and the one form that
// carries files (a signer's Finish) is read only for a live link, decided on the head alone.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { startEsign, suiteContext, type Harness } from '../support/esign-harness.ts';

const suite = suiteContext();
let h: Harness;
before(async () => {
  h = await startEsign(suite.ctx);
});
after(() => suite.close());

/** Sends a head announcing `length` bytes and only a little of the body; resolves with whatever the server answers. */
function headOnly(path: string, length: number) {
  const url = new URL(h.origin);
  const socket = connect(Number(url.port), url.hostname);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.write([`POST ${path} HTTP/1.1`, `host: ${url.host}`, 'content-type: application/x-www-form-urlencoded', `content-length: ${length}`, '', 'a=1&b=2&'].join('\r\n'));
  return { answer: () => answer, close: () => socket.destroy() };
}

test('a Finish to a link that is not live is refused on its head, whatever size it announces', async (t) => {
  const post = headOnly('/signing/not-a-live-link-0000000000000000000000000/finish', 30 * 1024 * 1024);
  t.after(post.close);
  // The body never comes: only a server that decides on the head alone can answer.
  await pollUntil(() => /\r\n\r\n[\s\S]*<\/html>/i.test(post.answer()), { timeoutMs: 10_000, what: 'an answer to the head' });
  assert.match(post.answer(), /^HTTP\/1\.1 404 /);
});

test('any other form past 1 MiB is refused, announced or chunked, before it is parsed', async (t) => {
  const announced = headOnly('/login', 2 * 1024 * 1024);
  t.after(announced.close);
  await pollUntil(() => announced.answer().includes('\r\n\r\n'), { timeoutMs: 10_000, what: 'an answer to the head' });
  assert.match(announced.answer(), /^HTTP\/1\.1 400 /);
  // Chunked: no length to read, so the bytes are counted as they come.
  const fields = 'x=1&'.repeat(300_000);
  const chunked = await fetch(`${h.origin}/login`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, duplex: 'half',
    body: new ReadableStream({ start(c) { for (let i = 0; i < fields.length; i += 65536) c.enqueue(new TextEncoder().encode(fields.slice(i, i + 65536))); c.close(); } }),
  });
  assert.equal(chunked.status, 400);
  assert.match(await chunked.text(), /request body/i);
  // A form of ordinary size is read as before.
  const page = await fetch(`${h.origin}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.c&password=x' });
  assert.notEqual(page.status, 400);
  await page.text();
});
