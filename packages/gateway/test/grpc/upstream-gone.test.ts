// A gRPC call whose upstream connection goes away after the call was sent, with no error on the
// call (the upstream's session destroyed, its process gone): nginx's "upstream prematurely
// closed connection", a 502. Before response headers the client gets a trailers-only
// UNAVAILABLE (14); after them its stream is reset. Either way the attempt is settled as a TCP
// failure, so passive checks count it and least-connections lets the connection go.
import assert from 'node:assert/strict';
import { connect, createServer, type ServerHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { healthchecks } from '../health/health.fixture.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { startGrpcGateway } from './grpc.fixture.ts';

type Vanish = 'session destroyed' | 'connection cut';

type Upstream = { readonly port: number; readonly vanish: () => void };

/**
 * An HTTP/2 upstream that takes each call and, with `headersFirst`, answers its headers; it
 * vanishes as `how` once the request is in, or with `headersFirst` when the test says (once the
 * client has the headers).
 */
async function vanishingUpstream(t: TestContext, how: Vanish, headersFirst: boolean): Promise<Upstream> {
  const server = createServer();
  const sockets = new Set<Socket>();
  let last: ServerHttp2Stream | undefined;
  const vanish = (): void => {
    if (how === 'session destroyed') last?.session?.destroy();
    else for (const s of sockets) s.destroy();
  };
  server.on('connection', (s: Socket) => sockets.add(s));
  server.on('stream', (stream: ServerHttp2Stream) => {
    last = stream;
    stream.on('error', () => undefined);
    stream.resume();
    if (headersFirst) stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    else stream.once('end', vanish);
  });
  server.on('sessionError', () => undefined);
  const port = await listenOnLoopback(server);
  t.after(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { port, vanish };
}

type CallEnd = { headers?: Record<string, unknown>; rstCode?: number };

/** One unary call (an empty message) through the gateway (`onHeaders`: told of its response headers); resolves once its stream has closed. */
async function call(t: TestContext, port: number, onHeaders: () => void): Promise<CallEnd> {
  const session = connect(`http://127.0.0.1:${port}`);
  t.after(() => session.destroy());
  session.on('error', () => undefined);
  const req = session.request({ ':method': 'POST', ':path': '/pkg.Svc/Do', 'content-type': 'application/grpc', te: 'trailers' });
  const end: CallEnd = {};
  let closed = false;
  req.on('error', () => undefined);
  req.on('response', (h) => {
    end.headers = { ...h };
    onHeaders();
  });
  req.resume();
  req.once('close', () => {
    end.rstCode = req.rstCode;
    closed = true;
  });
  req.end(Buffer.from([0, 0, 0, 0, 0]));
  await pollUntil(() => closed, { timeoutMs: 10_000, what: 'the call closed by the gateway' });
  return end;
}

for (const how of ['session destroyed', 'connection cut'] as const) {
  for (const headersFirst of [false, true]) {
    test(`upstream ${how} ${headersFirst ? 'after' : 'before'} response headers: ${headersFirst ? 'stream reset' : 'UNAVAILABLE'}, reported as a TCP failure`, async (t) => {
      const { port, vanish } = await vanishingUpstream(t, how, headersFirst);
      // The last attempt reaches passive checks as a 502, as in Kong's log phase.
      const up = upstream({ name: 'gone.grpc', algorithm: 'least-connections', healthchecks: healthchecks({ passive: { type: 'grpc', unhealthy: { http_statuses: [502], http_failures: 1 } } }) });
      const svc = service({ host: 'gone.grpc', protocol: 'grpc' });
      const gw = await startGrpcGateway(t, snapshot({
        services: [svc],
        routes: [route({ protocols: ['grpc'], paths: ['/pkg.Svc/'], strip_path: false, service: { id: svc.id } })],
        upstreams: [up], targets: [target(up, `127.0.0.1:${port}`)],
      }));
      const end = await call(t, gw.port, () => {
        if (headersFirst) vanish();
      });
      if (headersFirst) {
        assert.equal(end.headers?.['grpc-status'], undefined);
        assert.notEqual(end.rstCode, 0, 'the client stream is reset, not ended as a complete call');
      } else {
        assert.equal(end.headers?.['grpc-status'], '14');
        assert.equal(end.headers?.['grpc-message'], encodeURIComponent('An invalid response was received from the upstream server'));
      }
      assert.deepEqual(gw.attempts.map((a) => a.outcome), ['tcp_failure']);
      assert.equal(gw.health.addressHealth('gone.grpc', `127.0.0.1:${port}`), 'unhealthy');
    });
  }
}
