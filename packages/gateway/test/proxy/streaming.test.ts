// Bodies are streamed both ways, never buffered whole: the far side must see the first half of
// a 100 MB body before the near side sends the second half, or the test cannot finish.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { startGateway, startUpstream } from './proxy.fixture.ts';

const MB = 1024 * 1024;
const BLOCK = randomBytes(MB);
const TOTAL = 100 * MB;

async function writeBlocks(req: ClientRequest, count: number, hash: ReturnType<typeof createHash>): Promise<void> {
  for (let i = 0; i < count; i++) {
    hash.update(BLOCK);
    if (!req.write(BLOCK)) await once(req, 'drain');
  }
}

for (const framing of ['content-length', 'chunked'] as const) {
  test(`100 MB upload (${framing}) is streamed to the upstream`, async (t) => {
    let received = 0;
    const upstreamHash = createHash('sha256');
    const s = await startUpstream(t, (req, res) => {
      req.on('data', (d: Buffer) => {
        received += d.length;
        upstreamHash.update(d);
      });
      req.on('end', () => res.end(JSON.stringify({ received, te: req.headers['transfer-encoding'] ?? null, cl: req.headers['content-length'] ?? null })));
    });
    const svc = service({ host: '127.0.0.1', port: s.port });
    const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
    const headers: Record<string, string> = framing === 'content-length' ? { 'content-length': String(TOTAL) } : {};
    const req = httpRequest({ host: '127.0.0.1', port: g.port, method: 'POST', path: '/upload', headers, agent: false });
    const response = once(req, 'response');
    const sent = createHash('sha256');
    await writeBlocks(req, 50, sent);
    // Socket buffers hold a few MB at most; 40 MB upstream means the gateway is passing it on.
    await pollUntil(() => received >= 40 * MB, { timeoutMs: 30_000, what: 'the upstream to receive the first half' });
    await writeBlocks(req, 50, sent);
    req.end();
    const [res] = (await response) as [IncomingMessage];
    let text = '';
    for await (const chunk of res) text += String(chunk);
    const body = JSON.parse(text) as { received: number; te: string | null; cl: string | null };
    assert.equal(res.statusCode, 200);
    assert.equal(body.received, TOTAL);
    assert.equal(upstreamHash.digest('hex'), sent.digest('hex'));
    if (framing === 'chunked') assert.equal(body.te, 'chunked');
    else assert.equal(body.cl, String(TOTAL));
  });
}

test('100 MB download is streamed to the client', async (t) => {
  let clientReceived = 0;
  const sent = createHash('sha256');
  const s = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(TOTAL) });
    void (async () => {
      for (let i = 0; i < 100; i++) {
        if (i === 50) await pollUntil(() => clientReceived >= 40 * MB, { timeoutMs: 30_000, what: 'the client to receive the first half' });
        sent.update(BLOCK);
        if (!res.write(BLOCK)) await once(res, 'drain');
      }
      res.end();
    })();
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  const req = httpRequest({ host: '127.0.0.1', port: g.port, path: '/download', agent: false });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  const got = createHash('sha256');
  for await (const chunk of res) {
    clientReceived += (chunk as Buffer).length;
    got.update(chunk as Buffer);
  }
  assert.equal(res.headers['content-length'], String(TOTAL));
  assert.equal(clientReceived, TOTAL);
  assert.equal(got.digest('hex'), sent.digest('hex'));
});

test('chunked response without length is re-framed for the client', async (t) => {
  const s = await startUpstream(t, (_req, res) => {
    res.write('a'.repeat(1000));
    res.write('b'.repeat(1000));
    res.end('c');
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  const req = httpRequest({ host: '127.0.0.1', port: g.port, path: '/', agent: false });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  let text = '';
  for await (const chunk of res) text += String(chunk);
  assert.equal(res.headers['transfer-encoding'], 'chunked');
  assert.equal(text, 'a'.repeat(1000) + 'b'.repeat(1000) + 'c');
});

test('HEAD: no body is read even with a Content-Length; the connection is reused', async (t) => {
  const s = await startUpstream(t, (req, res) => {
    res.writeHead(200, { 'Content-Length': '5' });
    res.end(req.method === 'HEAD' ? undefined : 'hello');
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  for (const method of ['HEAD', 'GET', 'HEAD', 'GET']) {
    const req = httpRequest({ host: '127.0.0.1', port: g.port, path: '/', method, agent: false });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    let text = '';
    for await (const chunk of res) text += String(chunk);
    assert.equal(res.headers['content-length'], '5');
    assert.equal(text, method === 'HEAD' ? '' : 'hello');
  }
  assert.equal(g.gateway.pool.idleCount(`127.0.0.1:${s.port}`), 1, 'one upstream connection served all four');
});
