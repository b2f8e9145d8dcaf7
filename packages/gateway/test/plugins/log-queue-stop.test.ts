// Queued log entries survive a graceful stop: http-log entries waiting in a worker's queue (a
// long coalescing delay holds them) are sent before the gateway exits on SIGTERM or SIGQUIT
// (Kong's queues shorten their delay once the worker is exiting, kong/tools/queue.lua).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { request } from 'undici';
import { startPluginGateway } from './plugins.fixture.ts';

for (const signal of ['SIGTERM', 'SIGQUIT'] as const) {
  test(`http-log: entries still queued are delivered when the gateway stops on ${signal}`, async (t) => {
    const received: { uri: string }[] = [];
    const logServer = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(parts).toString()) as { request: { uri: string } }[];
        for (const e of body) received.push({ uri: e.request.uri });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => logServer.listen(0, '127.0.0.1', resolve));
    const logPort = (logServer.address() as { port: number }).port;
    t.after(() => new Promise<void>((resolve) => {
      logServer.closeAllConnections();
      logServer.close(() => resolve());
    }));
    // A batch of 100 waits up to an hour to fill: without a flush at stop nothing would go out.
    const g = await startPluginGateway(t, (upstream) => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes: [{ name: r, paths: [/] }]
plugins:
  - name: http-log
    config: { http_endpoint: "http://127.0.0.1:${logPort}/log", queue: { max_batch_size: 100, max_coalescing_delay: 3600 } }
`);
    // Fresh connections: both workers hold entries.
    const uris = Array.from({ length: 6 }, (_, i) => `/stop-${signal}-${i}`);
    for (const uri of uris) {
      const res = await request(g.proxy + uri, { headers: { connection: 'close' } });
      await res.body.text();
      assert.equal(res.statusCode, 200);
    }
    assert.equal(received.length, 0, 'the entries are still queued');
    g.proc.child.kill(signal);
    const code = await g.proc.exited;
    assert.equal(code, 0, `a clean exit (${g.proc.output().slice(-500)})`);
    assert.deepEqual(received.map((e) => e.uri).sort(), [...uris].sort(), 'every queued entry was sent before the exit');
  });
}
