// gRPC services through the gateway with a real @grpc/grpc-js server and client: unary, server
// streaming and bidirectional calls over h2c and h2 (ALPN), trailers preserved, balancing,
// grpc-status in passive checks, and grpc.health.v1 active checks ejecting a NOT_SERVING target.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { createCertificateAuthority, issueCertificate, pollUntil } from '@signet/kit';
import { healthchecks } from '../health/health.fixture.ts';
import { certificate, route, service, sni, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { echoClient, say, startBackend, startGrpcGateway, type EchoReply } from './grpc.fixture.ts';

const ca = createCertificateAuthority({ commonName: 'gRPC test CA' });
const frontCert = issueCertificate({ commonName: 'grpc.test', dnsNames: ['grpc.test'] }, ca);
const backendCert = issueCertificate({ commonName: 'backend.test', dnsNames: ['backend.test'] }, ca);
const gatewayClientCert = issueCertificate({ commonName: 'gateway client' }, ca);

test('h2c: unary, server-streaming and bidi calls balanced over two grpc-js servers, trailers preserved', async (t) => {
  const a = await startBackend(t, 'A');
  const b = await startBackend(t, 'B');
  const up = upstream({ name: 'echo.grpc' });
  const svc = service({ host: 'echo.grpc', protocol: 'grpc' });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } })],
    upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`), target(up, `127.0.0.1:${b.port}`)],
  }));
  const client = echoClient(t, gw.port);

  const servers: string[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await say(client, `hi ${i}`);
    assert.equal(r.error, undefined);
    assert.equal(r.reply?.text, `hi ${i}`);
    // The server's trailing metadata reaches the client.
    assert.equal(r.trailers['x-served-by'], r.reply?.server);
    servers.push(r.reply?.server ?? '');
  }
  assert.deepEqual([servers.filter((s) => s === 'A').length, servers.filter((s) => s === 'B').length], [3, 3]);
  assert.ok(gw.attempts.every((x) => x.outcome === 200), 'grpc-status 0 reported as 200');

  const streamed: EchoReply[] = [];
  const countTrailers = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const call = client.Count({ text: 'n', count: 5 });
    call.on('data', (r: EchoReply) => streamed.push(r));
    call.on('error', reject);
    call.on('status', (s: grpc.StatusObject) => resolve(s.metadata.getMap()));
  });
  assert.deepEqual(streamed.map((r) => r.text), ['n 1', 'n 2', 'n 3', 'n 4', 'n 5']);
  assert.equal(countTrailers['x-count'], '5');

  const chat = client.Chat();
  const answers: string[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    chat.on('data', (r: EchoReply) => {
      answers.push(r.text);
      // Each answer comes back before the next message is sent: the call is truly interactive.
      if (answers.length < 3) chat.write({ text: `msg ${answers.length}`, count: 0 });
      else chat.end();
    });
    chat.on('error', reject);
    chat.on('status', () => resolve());
  });
  chat.write({ text: 'msg 0', count: 0 });
  await ended;
  assert.deepEqual(answers, ['MSG 0', 'MSG 1', 'MSG 2']);
});

test('grpc-status reaches the client and passive checks (UNAVAILABLE → 503 → target ejected)', async (t) => {
  const a = await startBackend(t, 'A');
  const up = upstream({ name: 'failing.grpc', healthchecks: healthchecks({ passive: { type: 'grpc', unhealthy: { http_failures: 2 } } }) });
  const svc = service({ host: 'failing.grpc', protocol: 'grpc' });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/Fail'], strip_path: false, service: { id: svc.id } })],
    upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`)],
  }));
  const client = echoClient(t, gw.port);
  const fail = () => new Promise<grpc.ServiceError>((resolve, reject) => client.Fail({ text: 'x' }, (err) => (err ? resolve(err) : reject(new Error('expected an error')))));
  for (let i = 0; i < 2; i++) {
    const err = await fail();
    assert.equal(err.code, grpc.status.UNAVAILABLE);
    assert.equal(err.details, 'A is overloaded: x');
  }
  assert.deepEqual(gw.attempts.map((x) => x.outcome), [503, 503]);
  assert.equal(gw.health.addressHealth('failing.grpc', `127.0.0.1:${a.port}`), 'unhealthy');
  // The only target is out: the gateway's own answer, as a gRPC status.
  const err = await fail();
  assert.equal(err.code, grpc.status.UNAVAILABLE);
  assert.equal(err.details, 'failure to get a peer from the ring-balancer');
  assert.equal(a.calls, 2);
});

test('no route: UNIMPLEMENTED with Kong’s message; a refused target is retried on another', async (t) => {
  const a = await startBackend(t, 'A');
  const gone = await startBackend(t, 'gone');
  gone.stop();
  const up = upstream({ name: 'retry.grpc' });
  const svc = service({ host: 'retry.grpc', protocol: 'grpc' });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/Say'], strip_path: false, service: { id: svc.id } })],
    upstreams: [up], targets: [target(up, `127.0.0.1:${gone.port}`), target(up, `127.0.0.1:${a.port}`)],
  }));
  const client = echoClient(t, gw.port);
  for (let i = 0; i < 4; i++) assert.equal((await say(client, `r${i}`)).reply?.server, 'A');
  assert.equal(a.calls, 4);
  const refused = gw.attempts.filter((x) => x.key === `127.0.0.1:${gone.port}`).map((x) => x.outcome);
  assert.ok(refused.length >= 1 && refused.every((o) => o === 'tcp_failure'), `refused attempts: ${refused.join(',')}`);

  const countErr = await new Promise<grpc.ServiceError>((resolve) => {
    const call = client.Count({ text: 'n', count: 1 });
    call.on('data', () => undefined);
    call.on('error', resolve);
  });
  assert.equal(countErr.code, grpc.status.UNIMPLEMENTED);
  assert.equal(countErr.details, 'no Route matched with those values');
});

for (const mutual of [false, true]) {
  test(`h2 with ALPN and SNI in front, grpcs (verified TLS${mutual ? ', upstream client_certificate' : ''}) to the target`, async (t) => {
    const a = await startBackend(t, 'A', backendCert, mutual ? ca.certPem : undefined);
    const clientCert = certificate(gatewayClientCert.certPem, gatewayClientCert.keyPem);
    const up = upstream({ name: 'secure.grpc', host_header: 'backend.test', ...(mutual ? { client_certificate: { id: clientCert.id } } : {}) });
    const svc = service({ host: 'secure.grpc', protocol: 'grpcs', tls_verify: true });
    const cert = certificate(frontCert.certPem, frontCert.keyPem);
    const gw = await startGrpcGateway(t, snapshot({
      services: [svc],
      routes: [route({ protocols: ['grpcs'], snis: ['grpc.test'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } })],
      upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`)],
      certificates: [cert, clientCert], snis: [sni('grpc.test', cert)],
    }), { ssl: true, trustedCa: [ca.certPem] });
    const client = echoClient(t, gw.port, { ca: ca.certPem, servername: 'grpc.test' });
    const r = await say(client, 'over tls');
    assert.deepEqual(r.reply, { text: 'over tls', server: 'A' });
    assert.equal(r.trailers['x-served-by'], 'A');
  });
}

test('grpcs target requiring a client certificate, none configured: UNAVAILABLE, reported as a TCP failure', async (t) => {
  const a = await startBackend(t, 'A', backendCert, ca.certPem);
  const up = upstream({ name: 'mtls.grpc', host_header: 'backend.test' });
  const svc = service({ host: 'mtls.grpc', protocol: 'grpcs', tls_verify: true, retries: 0 });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } })],
    upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`)],
  }), { trustedCa: [ca.certPem] });
  const r = await say(echoClient(t, gw.port), 'no cert');
  assert.equal(r.error?.code, grpc.status.UNAVAILABLE);
  assert.equal(a.calls, 0);
  assert.deepEqual(gw.attempts.map((x) => x.outcome), ['tcp_failure']);
});

test('grpc active checks: health service NOT_SERVING → target ejected; SERVING again → back', async (t) => {
  const a = await startBackend(t, 'A');
  const b = await startBackend(t, 'B');
  const up = upstream({
    name: 'checked.grpc',
    healthchecks: healthchecks({
      active: {
        type: 'grpc', timeout: 2,
        healthy: { interval: 0.05, successes: 1 },
        unhealthy: { interval: 0.05, http_failures: 1 },
      },
    }),
  });
  const svc = service({ host: 'checked.grpc', protocol: 'grpc' });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } })],
    upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`), target(up, `127.0.0.1:${b.port}`)],
  }));
  const keyA = `127.0.0.1:${a.port}`;
  await pollUntil(() => a.healthChecks > 0 && b.healthChecks > 0, { what: 'first grpc health checks' });
  assert.equal(gw.health.addressHealth('checked.grpc', keyA), 'healthy');

  a.serving = 'NOT_SERVING';
  await pollUntil(() => gw.health.addressHealth('checked.grpc', keyA) === 'unhealthy', { what: 'A ejected by active grpc checks' });
  const client = echoClient(t, gw.port);
  for (let i = 0; i < 4; i++) assert.equal((await say(client, `x${i}`)).reply?.server, 'B');

  a.serving = 'SERVING';
  await pollUntil(() => gw.health.addressHealth('checked.grpc', keyA) === 'healthy', { what: 'A back after SERVING' });
  const seen = new Set<string>();
  for (let i = 0; i < 4; i++) seen.add((await say(client, `y${i}`)).reply!.server);
  assert.deepEqual([...seen].sort(), ['A', 'B']);
});
