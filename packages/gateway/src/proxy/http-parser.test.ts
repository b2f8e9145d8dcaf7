// Both legs read into buffers shared by every connection (readInto, the upstream pool's onread)
// and keep the body chunks llhttp hands over: that is only safe because node's binding copies
// them (Buffer::Copy in src/node_http_parser.cc on_body). A node that stopped copying would
// corrupt bodies in flight; this says so first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HTTPParser } from './http-parser.ts';

for (const [kind, type, message] of [
  ['request', HTTPParser.REQUEST, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world'],
  ['response', HTTPParser.RESPONSE, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n'],
] as const) {
  test(`llhttp hands a ${kind}'s body chunks over as copies, not views of the parsed buffer`, () => {
    const parser = new HTTPParser();
    parser.initialize(type, {}, 0, 0);
    const data = Buffer.from(message, 'latin1');
    const chunks: Buffer[] = [];
    parser[HTTPParser.kOnHeadersComplete] = () => 0;
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => chunks.push(chunk);
    parser[HTTPParser.kOnMessageComplete] = () => undefined;
    assert.equal(parser.execute(data), data.length);
    data.fill(0);
    assert.equal(Buffer.concat(chunks).toString('latin1'), 'hello world');
    for (const c of chunks) assert.notEqual(c.buffer, data.buffer);
    parser.close();
  });
}
