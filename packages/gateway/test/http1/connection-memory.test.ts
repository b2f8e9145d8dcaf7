// A closed client connection leaves nothing of itself reachable: its socket can be collected
// once it closes. Before, the pooled llhttp parser kept the connection (through its callbacks)
// and the spare write request kept the last socket written to (through its handle), so a
// burst's connections stayed alive and, under load, were promoted to V8's old generation
// (docs/benchmarks.md, "Lean client leg"). Real sockets on 127.0.0.1, V8's gc() on demand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { setImmediate as tick } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { LeanHttp1 } from '../../src/http1/index.ts';
import { fastAccept } from '../../src/listen/fast-accept.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function request(port: number, path: string): Promise<string> {
  const client = connect(port, '127.0.0.1');
  let text = '';
  client.on('data', (d: Buffer) => (text += d.toString('latin1')));
  client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await once(client, 'close');
  return text;
}

for (const accept of ['net', 'fastAccept'] as const) {
  test(`served and closed connections can be collected (${accept} accepts)`, async (t) => {
    const side = new LeanHttp1((req, res) => {
      res.writeHead(200, ['Content-Length', String(req.url.length)]);
      res.end(req.url, 'latin1');
    });
    const server = createServer({ noDelay: true });
    side.attach(server, false);
    const accepted: WeakRef<Socket>[] = [];
    server.on('connection', (socket: Socket) => void accepted.push(new WeakRef(socket)));
    const port = await listenOnLoopback(server);
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    if (accept === 'fastAccept') assert.equal(fastAccept(server), true);

    for (const path of ['/one', '/two', '/three']) assert.match(await request(port, path), new RegExp(`^HTTP/1\\.1 200 OK\\r\\n[\\s\\S]*\\r\\n\\r\\n${path}$`));
    assert.equal(accepted.length, 3);
    await pollUntil(() => side.size === 0, { timeoutMs: 5_000, what: 'the lean side to forget its connections' });
    await pollUntil(async () => {
      await tick();
      gc();
      return accepted.every((ref) => ref.deref() === undefined);
    }, { timeoutMs: 5_000, what: 'the closed sockets collected' });
  });
}
