// A client that sends its ClientHello and then nothing is cut once the handshake deadline has
// passed (nginx: client_header_timeout bounds an https listener's handshake, ssl_handshake_timeout
// a stream one's; 60 s both in Kong), on the proxy listeners (both client legs) and on stream
// tls termination. The deadlines are shortened here; the waits allow far more than they.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { issueCertificate } from '@signet/kit';
import { certificate, route, service, sni, snapshot } from '../snapshot.fixture.ts';
import { startGateway, startUpstream } from '../proxy/proxy.fixture.ts';
import { clientHello, closedByGateway, stall } from '../stall.fixture.ts';
import { startEcho, startStreamGateway } from '../stream/stream.fixture.ts';

const SHORT_MS = 200;
const pair = issueCertificate({ commonName: 'stall.test', dnsNames: ['stall.test'] });

for (const clientLeg of ['lean', 'node'] as const) {
  test(`https proxy listener (${clientLeg} leg): a handshake left unfinished is cut at the deadline`, async (t) => {
    const upstream = await startUpstream(t);
    const svc = service({ host: '127.0.0.1', port: upstream.port });
    const g = await startGateway(
      t,
      snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }),
      { clientLeg, deadlines: { tlsHandshakeMs: SHORT_MS } },
      { proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true }], sslCert: pair },
    );
    const stalled = await stall(t, g.port, await clientHello('stall.test'));
    await closedByGateway(stalled, 'a ClientHello, then silence');
    assert.equal(upstream.hits, 0);
  });
}

test('stream tls termination: a handshake left unfinished is cut at the deadline and logged', async (t) => {
  const echo = await startEcho(t, 'A');
  const svc = service({ host: '127.0.0.1', port: echo.port, protocol: 'tcp' });
  const cert = certificate(pair.certPem, pair.keyPem);
  const gw = await startStreamGateway(t, snapshot({
    services: [svc],
    routes: [route({ protocols: ['tls'], snis: ['stall.test'], service: { id: svc.id } })],
    certificates: [cert], snis: [sni('stall.test', cert)],
  }), { handshakeTimeoutMs: SHORT_MS });
  const stalled = await stall(t, gw.tlsPort, await clientHello('stall.test'));
  await closedByGateway(stalled, 'a ClientHello, then silence');
  assert.equal(echo.accepted, 0);
  const failed = gw.events.find((e) => e.event === 'tls_handshake_failed');
  assert.equal(failed?.sni, 'stall.test');
  assert.match(failed?.detail ?? '', /timed out/);
});
