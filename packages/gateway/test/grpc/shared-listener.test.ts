// gRPC on the HTTP proxy's listener types: a node:http server (h2c told apart by its preface)
// and a node:https server offering ALPN h2 — HTTP/1.1 requests on the same port still reach the
// server's own handler.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { test, type TestContext } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { Agent, request } from 'undici';
import { GrpcProxy, shareListenerWithGrpc } from '../../src/grpc/index.ts';
import { createHttp2HttpSide, type Http2StreamDispatch } from '../../src/http2/index.ts';
import { connect as connectHttp2 } from 'node:http2';
import { once } from 'node:events';
import { Runtime } from '../../src/runtime.ts';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { echoClient, say, startBackend } from './grpc.fixture.ts';

const ca = createCertificateAuthority({ commonName: 'shared listener CA' });
const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost', 'grpc.test'] }, ca);

async function sharedServer(t: TestContext, ssl: boolean, backendPort: number, http?: Http2StreamDispatch): Promise<number> {
  const svc = service({ host: '127.0.0.1', port: backendPort, protocol: 'grpc' });
  const runtime = new Runtime(snapshot({
    services: [svc],
    routes: [
      route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } }),
      // A grpcs route names its server name: only those TLS clients are offered h2.
      route({ protocols: ['grpcs'], snis: ['grpc.test'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } }),
    ],
  }), { defaultCertificate: cert });
  const proxy = new GrpcProxy({ getState: () => runtime.state });
  const server: Server = ssl
    ? createHttpsServer({ cert: cert.certPem, key: cert.keyPem })
    : createHttpServer();
  server.on('request', (req, res) => res.end(`http1 ${req.httpVersion} ${req.url}`));
  const shared = shareListenerWithGrpc(server, proxy, ssl, http);
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    shared.close();
    proxy.close();
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return port;
}

for (const ssl of [false, true]) {
  test(`${ssl ? 'https listener, ALPN h2' : 'http listener, h2c preface'}: gRPC calls and HTTP/1.1 requests on one port`, async (t) => {
    const backend = await startBackend(t, 'A');
    const port = await sharedServer(t, ssl, backend.port);
    const client = echoClient(t, port, ssl ? { ca: ca.certPem, servername: 'grpc.test' } : undefined);
    const r = await say(client, 'shared');
    assert.deepEqual(r.reply, { text: 'shared', server: 'A' });
    assert.equal(r.trailers['x-served-by'], 'A');

    // An HTTP/2-capable client (allowH2) of another server name keeps HTTP/1.1.
    const agent = new Agent({ connect: { ca: ca.certPem }, allowH2: true });
    t.after(() => agent.close());
    for (const path of ['/one', '/two']) {
      const res = await request(`${ssl ? 'https' : 'http'}://localhost:${port}${path}`, { dispatcher: agent });
      assert.equal(await res.body.text(), `http1 1.1 ${path}`);
    }
  });
}

test('https listener with the http2 flag: gRPC calls (application/grpc) and HTTP/2 requests share one session type; HTTP/1.1 still served', async (t) => {
  const backend = await startBackend(t, 'B');
  const http = createHttp2HttpSide((req, res) => res.end(`h2 ${req.httpVersion} ${req.url}`));
  const port = await sharedServer(t, true, backend.port, http);
  const r = await say(echoClient(t, port, { ca: ca.certPem, servername: 'grpc.test' }), 'flagged');
  assert.deepEqual(r.reply, { text: 'flagged', server: 'B' });
  // A server name no grpcs route names is offered h2 too, and its requests go to the HTTP side.
  const session = connectHttp2(`https://localhost:${port}`, { ca: ca.certPem });
  t.after(() => session.close());
  const req = session.request({ ':path': '/over-h2' });
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  await once(req, 'end');
  assert.equal(body, 'h2 2.0 /over-h2');
  const agent = new Agent({ connect: { ca: ca.certPem } });
  t.after(() => agent.close());
  const res = await request(`https://localhost:${port}/one`, { dispatcher: agent });
  assert.equal(await res.body.text(), 'http1 1.1 /one');
});
