// A response body that fills the client socket's buffer pauses the upstream connection; if the
// response ends in that same read, the connection must be resumed before it goes back to the
// keep-alive pool, or the next request handed that connection never gets an answer (found by
// the system e2e: the signing page's 63 KB font and page images through the gateway).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { startGateway, startUpstream } from './proxy.fixture.ts';

// Larger than a socket's 16 KB high-water mark, small enough to arrive in one 64 KB read.
const BODY = Buffer.alloc(40 * 1024, 'x');

function get(port: number, path: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false, timeout: 5000 }, (res) => {
      let length = 0;
      res.on('data', (d: Buffer) => (length += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} got no answer within 5 s`)));
    req.on('error', reject);
    req.end();
  });
}

test('a pooled upstream connection is usable after a response that hit client back-pressure', async (t) => {
  const s = await startUpstream(t, (req, res) => {
    if (req.url === '/big') res.end(BODY);
    else res.end('small');
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  // Sequential requests reuse the one pooled connection to the upstream.
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(await get(g.port, '/big'), { status: 200, length: BODY.length });
    assert.deepEqual(await get(g.port, '/small'), { status: 200, length: 5 });
  }
});

test('parallel large responses all complete and leave the pool healthy', async (t) => {
  const s = await startUpstream(t, (req, res) => res.end(req.url === '/big' ? BODY : 'small'));
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  for (let round = 0; round < 4; round++) {
    const results = await Promise.all(Array.from({ length: 8 }, () => get(g.port, '/big')));
    for (const r of results) assert.deepEqual(r, { status: 200, length: BODY.length });
  }
  assert.deepEqual(await get(g.port, '/small'), { status: 200, length: 5 });
});
