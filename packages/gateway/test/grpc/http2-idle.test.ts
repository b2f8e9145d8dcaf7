// Every HTTP/2 session a proxy listener accepts is closed once it has had no stream open for the
// idle deadline, from its first bytes on (nginx: client_header_timeout until the first request,
// keepalive_timeout after; 60 s in Kong): h2c on a plain listener with grpc routes, h2 offered by
// ALPN to a grpcs server name, and h2 on a listener with the `http2` flag alike, also when the
// client never closes its own side. The deadline is shortened here; the waits allow far more.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { issueCertificate } from '@signet/kit';
import type { EchoReply } from './grpc.fixture.ts';
import { echoClient, startBackend } from './grpc.fixture.ts';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { startGateway } from '../proxy/proxy.fixture.ts';
import { closedByGateway, H2_EMPTY_SETTINGS, H2_PREFACE, stall } from '../stall.fixture.ts';

const SHORT_MS = 200;
const cert = issueCertificate({ commonName: 'grpc.test', dnsNames: ['grpc.test', 'other.test'] });
const FULL = Buffer.concat([H2_PREFACE, H2_EMPTY_SETTINGS]);
const PARTIAL = Buffer.from('PRI * HTTP/2.0\r\n', 'latin1');

// A grpc route makes a plain listener look for the h2c preface; a grpcs route naming grpc.test
// makes a TLS listener offer it h2.
function grpcSnapshot(port = 9) {
  const svc = service({ host: '127.0.0.1', port, protocol: 'grpc' });
  return snapshot({
    services: [svc],
    routes: [
      route({ protocols: ['grpc'], paths: ['/pkg.Svc/', '/signet.test.Echo/'], strip_path: false, service: { id: svc.id } }),
      route({ protocols: ['grpcs'], snis: ['grpc.test'], paths: ['/pkg.Svc/'], service: { id: svc.id } }),
    ],
  });
}

const cases = [
  { name: 'h2c: preface and SETTINGS, then silence', ssl: false, http2: false, bytes: FULL },
  { name: 'h2c: half a preface, then silence', ssl: false, http2: false, bytes: PARTIAL },
  { name: 'grpcs server name offered h2 (no http2 flag): preface and SETTINGS, then silence', ssl: true, http2: false, bytes: FULL, servername: 'grpc.test' },
  { name: 'listener with the http2 flag: preface and SETTINGS, then silence', ssl: true, http2: true, bytes: FULL, servername: 'other.test' },
];

for (const c of cases) {
  test(`${c.name}: the session is closed at the idle deadline`, async (t) => {
    const g = await startGateway(t, grpcSnapshot(), { deadlines: { http2IdleMs: SHORT_MS } }, {
      proxyListen: [{ host: '127.0.0.1', port: 0, ssl: c.ssl, ...(c.http2 ? { http2: true } : {}) }],
      sslCert: cert,
    });
    const stalled = await stall(t, g.port, c.bytes, c.servername === undefined ? undefined : { servername: c.servername });
    await closedByGateway(stalled, c.name);
  });
}

test('a session with a call open outlives the idle deadline: the call goes on after it', async (t) => {
  const backend = await startBackend(t, 'A');
  const g = await startGateway(t, grpcSnapshot(backend.port), { deadlines: { http2IdleMs: SHORT_MS } });
  const chat = echoClient(t, g.port).Chat();
  t.after(() => chat.cancel());
  chat.on('error', () => undefined);
  chat.write({ text: 'before', count: 0 });
  assert.equal(((await once(chat, 'data')) as [EchoReply])[0].text, 'BEFORE');
  // A connection stalled after the call's last message is cut: the deadline has passed since.
  await closedByGateway(await stall(t, g.port, FULL), 'a stalled h2c connection');
  chat.write({ text: 'after', count: 0 });
  assert.equal(((await once(chat, 'data')) as [EchoReply])[0].text, 'AFTER');
});
