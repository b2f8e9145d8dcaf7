// The upstream head's own guard on a Host a plugin chose (ExchangeRequest.hostOverride): the
// plugins refuse a bad one already (plugin-context setUpstreamHost); this checks the last line
// of defence, where the head is written, with an override no plugin could make any more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listenOnLoopback } from '@signet/kit/testing';
import { request } from 'undici';
import { ProxyExchange } from '../../src/proxy/proxy-exchange.ts';
import { UpstreamPool, type ProxyRoute } from '../../src/proxy/index.ts';
import { scanRequestHeaders } from '../../src/proxy/scan-request-headers.ts';
import { RecordingUpstream } from '../http1/recording-upstream.ts';
import { route, service } from '../snapshot.fixture.ts';

test('a Host override that would break the head line is answered 500 and never sent upstream', async (t) => {
  const up = await RecordingUpstream.start(t);
  const pool = new UpstreamPool();
  t.after(() => pool.close());
  const svc = service({ host: '127.0.0.1', port: up.port });
  const target: ProxyRoute = {
    route: route({ paths: ['/'], service: { id: svc.id } }), service: svc, upstream: undefined, balancer: undefined,
    endpoint: { host: '127.0.0.1', port: up.port, key: `127.0.0.1:${up.port}` }, endpointHostHeader: `127.0.0.1:${up.port}`, tls: undefined, plugins: undefined,
  };
  const server = createServer((req, res) => {
    const hostOverride = req.headers['x-test-host'] === 'bad' ? 'a\r\nContent-Length: 0\r\n\r\nGET /smuggled HTTP/1.1\r\nX-Pad: ' : 'good.test';
    new ProxyExchange({ pool, hooks: {} }, req, res, {
      target, headers: scanRequestHeaders([]), requestLine: 'GET / HTTP/1.1\r\n', tail: '\r\n', requestId: 'r', startedAt: 0, clientIp: '127.0.0.1', hostOverride,
    }).start();
  });
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const get = async (which: string): Promise<number> => {
    const res = await request(`http://127.0.0.1:${port}/`, { headers: { 'x-test-host': which, connection: 'close' } });
    await res.body.text();
    return res.statusCode;
  };

  assert.equal(await get('good'), 200);
  assert.deepEqual(up.take().map((r) => [r.url, r.rawHeaders]), [['/', ['Host', 'good.test']]]);
  assert.equal(await get('bad'), 500);
  assert.deepEqual(up.take(), [], 'nothing was written upstream');
});
