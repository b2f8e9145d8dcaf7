// Real-socket probes (lua-resty-healthcheck lib/resty/healthcheck.lua; t/09, t/14-tls_active_probes.t) against upstreams on 127.0.0.1:0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { refusedPort } from '../proxy/proxy.fixture.ts';
import { probeTarget, probeRequestText } from '../../src/health/probe-target.ts';
import type { ProbeRequest } from '../../src/health/active-prober.ts';
import { healthchecks } from './health.fixture.ts';
import { SwitchableUpstream } from './switchable-upstream.ts';
import type { ActiveHealthcheck } from '../../src/declarative/types.ts';

type ActivePatch = NonNullable<Parameters<typeof healthchecks>[0]>['active'];

function request(port: number, active: ActivePatch = {}, hostHeader = '127.0.0.1', extra: Partial<ProbeRequest> = {}): ProbeRequest {
  const a: ActiveHealthcheck = healthchecks({ active }).active;
  return { address: { key: `127.0.0.1:${port}`, host: '127.0.0.1', port, hostname: '127.0.0.1' }, active: a, hostHeader, signal: new AbortController().signal, ...extra };
}

/** A port nobody listens on, and nobody will meanwhile (proxy.fixture.ts). */
const closedPort = refusedPort;

test('the request bytes Kong 3.10 sends: HTTP/1.0, custom headers, Host without port', () => {
  const text = probeRequestText({
    active: healthchecks({ active: { http_path: '/status', headers: { 'x-a': ['1', '2'], 'x-b': ['3'] } } }).active,
    hostHeader: 'example.com',
  });
  assert.equal(text, 'GET /status HTTP/1.0\r\nx-a: 1\r\nx-a: 2\r\nx-b: 3\r\nHost: example.com\r\n\r\n');
});

test('http: the status line decides; the probe hits http_path with Kong Host header', async (t) => {
  const up = await SwitchableUpstream.start();
  t.after(() => up.close());
  assert.equal(await probeTarget(request(up.port, { http_path: '/health', headers: { 'x-probe': ['yes'] } }, 'example.com')), 200);
  const seen = up.requests[0]!;
  assert.equal(seen.url, '/health');
  assert.equal(seen.httpVersion, '1.0');
  assert.equal(seen.headers.host, 'example.com');
  assert.equal(seen.headers['x-probe'], 'yes');
  up.mode = 'fail';
  assert.equal(await probeTarget(request(up.port)), 500);
});

test('a hanging upstream is a timeout after active.timeout seconds', async (t) => {
  const up = await SwitchableUpstream.start();
  t.after(() => up.close());
  up.mode = 'hang';
  const started = Date.now();
  assert.equal(await probeTarget(request(up.port, { timeout: 0.2 })), 'timeout');
  assert.ok(Date.now() - started >= 150, 'waited for the timeout');
});

test('healthcheck t/09: a refused connection is a TCP failure; tcp probes are a bare connect', async (t) => {
  const port = await closedPort();
  assert.equal(await probeTarget(request(port)), 'tcp_failure');
  assert.equal(await probeTarget(request(port, { type: 'tcp' })), 'tcp_failure');
  const up = await SwitchableUpstream.start();
  t.after(() => up.close());
  assert.equal(await probeTarget(request(up.port, { type: 'tcp' })), 'connected');
  assert.equal(up.requests.length, 0, 'a tcp probe sends no request');
});

test('a peer that closes before a status line is a TCP failure; garbage is status 0', async (t) => {
  // resume(): read the probe's request so the peer sees our FIN and the socket can close.
  const rude = createServer((s) => s.end().resume());
  const garbage = createServer((s) => s.end('SSH-2.0-OpenSSH\r\n').resume());
  const [p1, p2] = [await listenOnLoopback(rude), await listenOnLoopback(garbage)];
  t.after(() => new Promise<void>((r) => rude.close(() => garbage.close(() => r()))));
  assert.equal(await probeTarget(request(p1)), 'tcp_failure');
  assert.equal(await probeTarget(request(p2)), 0);
});

test('healthcheck t/14: https probes verify the certificate against https_sni / the Host name', async (t) => {
  const ca = createCertificateAuthority({ commonName: 'Probe test CA' });
  const leaf = issueCertificate({ commonName: 'good.test', dnsNames: ['good.test'] }, ca);
  const up = await SwitchableUpstream.start(leaf);
  t.after(() => up.close());
  const trustedCa = [ca.certPem];
  // Without the test CA the chain itself is untrusted: a TLS failure, counted as a TCP failure.
  assert.equal(await probeTarget(request(up.port, { type: 'https', https_sni: 'good.test' })), 'tcp_failure');
  const https = (active: ActivePatch, host = '127.0.0.1'): ProbeRequest => request(up.port, { type: 'https', ...active }, host, { trustedCa });
  assert.equal(await probeTarget(https({ https_sni: 'good.test' })), 200);
  assert.equal(await probeTarget(https({}, 'good.test')), 200, 'SNI falls back to the Host name');
  assert.equal(await probeTarget(https({ https_sni: 'wrong.test' })), 'tcp_failure');
  assert.equal(await probeTarget(https({}, '127.0.0.1')), 'tcp_failure', 'no name for an IP: the certificate does not match');
  assert.equal(await probeTarget(https({ https_sni: 'wrong.test', https_verify_certificate: false })), 200);
});

test('an aborted probe settles at once', async (t) => {
  const up = await SwitchableUpstream.start();
  t.after(() => up.close());
  up.mode = 'hang';
  const ac = new AbortController();
  const pending = probeTarget(request(up.port, { timeout: 30 }, '127.0.0.1', { signal: ac.signal }));
  ac.abort();
  assert.equal(await pending, 'tcp_failure');
});

test('https probes present upstream.client_certificate to an upstream that requires one', async (t) => {
  const ca = createCertificateAuthority({ commonName: 'mTLS test CA' });
  const serverPair = issueCertificate({ commonName: 'good.test', dnsNames: ['good.test'] }, ca);
  const clientPair = issueCertificate({ commonName: 'gateway client' }, ca);
  const server = createHttpsServer({ cert: serverPair.certPem, key: serverPair.keyPem, ca: [ca.certPem], requestCert: true, rejectUnauthorized: true }, (_req, res) => res.end('ok'));
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const base = request(port, { type: 'https', https_sni: 'good.test' }, 'good.test', { trustedCa: [ca.certPem] });
  assert.equal(await probeTarget(base), 'tcp_failure', 'no client certificate: the handshake fails');
  assert.equal(await probeTarget({ ...base, clientCertificate: { cert: clientPair.certPem, key: clientPair.keyPem } }), 200);
});
