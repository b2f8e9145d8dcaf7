// Certificate selection by SNI with real TLS handshakes (kong/runloop/certificate.lua):
// exact, then `*.x.y`, then `x.y.*`, then the `*` SNI, then the node default; TLS 1.2+ only.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import { connect, createServer as createTlsServer, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { issueCertificate } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { request, Agent } from 'undici';
import type { Certificate, Sni } from '../../src/declarative/types.ts';
import { certificate, route, service, sni, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { startGateway, startUpstream } from '../proxy/proxy.fixture.ts';

const pair = (cn: string) => issueCertificate({ commonName: cn, dnsNames: [cn.replace(/^catch-all$/, 'catch.all')] });
const DEFAULT = pair('node-default');
const certs = {
  exact: pair('exact'),
  prefix: pair('prefix-wildcard'),
  suffix: pair('suffix-wildcard'),
  star: pair('catch-all'),
};

function tlsConfig(withStar: boolean): { certificates: Certificate[]; snis: Sni[] } {
  const exact = certificate(certs.exact.certPem, certs.exact.keyPem);
  const prefix = certificate(certs.prefix.certPem, certs.prefix.keyPem);
  const suffix = certificate(certs.suffix.certPem, certs.suffix.keyPem);
  const star = certificate(certs.star.certPem, certs.star.keyPem);
  const snis = [sni('exact.test', exact), sni('x.wild.test', exact), sni('*.wild.test', prefix), sni('api.example.*', suffix)];
  if (withStar) snis.push(sni('*', star));
  return { certificates: withStar ? [exact, prefix, suffix, star] : [exact, prefix, suffix], snis };
}

async function startTlsGateway(t: TestContext, withStar: boolean) {
  const upstream = await startUpstream(t);
  const svc = service({ host: '127.0.0.1', port: upstream.port });
  return startGateway(
    t,
    snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })], ...tlsConfig(withStar) }),
    {},
    { proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true }], sslCert: DEFAULT },
  );
}

/** Handshakes and returns the CN of the certificate the server chose. */
async function servedCommonName(port: number, servername: string | undefined, extra: ConnectionOptions = {}): Promise<string> {
  const socket: TLSSocket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...(servername ? { servername } : {}), ...extra });
  try {
    await once(socket, 'secureConnect');
    return String(socket.getPeerCertificate().subject.CN);
  } finally {
    socket.destroy();
  }
}

const cases: { name: string; sni: string | undefined; withStar: boolean; expected: string }[] = [
  { name: 'exact name', sni: 'exact.test', withStar: true, expected: 'exact' },
  { name: 'exact beats the prefix wildcard', sni: 'x.wild.test', withStar: true, expected: 'exact' },
  { name: 'prefix wildcard *.wild.test', sni: 'a.wild.test', withStar: true, expected: 'prefix-wildcard' },
  { name: 'prefix wildcard needs three labels', sni: 'wild.test', withStar: true, expected: 'catch-all' },
  { name: 'prefix wildcard replaces one label only', sni: 'a.b.wild.test', withStar: true, expected: 'catch-all' },
  { name: 'suffix wildcard api.example.*', sni: 'api.example.org', withStar: true, expected: 'suffix-wildcard' },
  { name: 'case-insensitive', sni: 'EXACT.Test', withStar: true, expected: 'exact' },
  { name: 'the * SNI catches the rest', sni: 'unknown.test', withStar: true, expected: 'catch-all' },
  { name: 'no * SNI: node default', sni: 'unknown.test', withStar: false, expected: 'node-default' },
  { name: 'no SNI: node default even with *', sni: undefined, withStar: true, expected: 'node-default' },
];

test('certificate selection by SNI', async (t) => {
  const gateways = { true: await startTlsGateway(t, true), false: await startTlsGateway(t, false) };
  for (const c of cases) {
    const g = gateways[String(c.withStar) as 'true' | 'false'];
    assert.equal(await servedCommonName(g.port, c.sni), c.expected, c.name);
  }
});

test('a generated default certificate (CN localhost) when none is configured', async (t) => {
  const upstream = await startUpstream(t);
  const svc = service({ host: '127.0.0.1', port: upstream.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }), {}, {
    proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true }],
  });
  assert.equal(await servedCommonName(g.port, undefined), 'localhost');
});

test('TLS 1.1 is refused; the same client settings reach a TLS 1.1 server', async (t) => {
  const g = await startTlsGateway(t, true);
  // SECLEVEL=0 lets this client offer TLS 1.1 at all (OpenSSL 3 disables it by default).
  const legacy: ConnectionOptions = { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' };
  // Control: a server that allows TLS 1.1 accepts this client, so the refusal below is the gateway's.
  const control = createTlsServer({ cert: DEFAULT.certPem, key: DEFAULT.keyPem, minVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }, (s) => s.end());
  const controlPort = await listenOnLoopback(control);
  t.after(() => new Promise<void>((resolve) => control.close(() => resolve())));
  assert.equal(await servedCommonName(controlPort, 'exact.test', legacy), 'node-default');
  await assert.rejects(servedCommonName(g.port, 'exact.test', legacy), /protocol|version|alert/i);
  assert.equal(await servedCommonName(g.port, 'exact.test', { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' }), 'exact');
});

test('https listener proxies with X-Forwarded-Proto https and routes by sni', async (t) => {
  const upstream = await startUpstream(t);
  const svc = service({ host: '127.0.0.1', port: upstream.port });
  const { certificates, snis } = tlsConfig(false);
  const g = await startGateway(t, snapshot({
    services: [svc], certificates, snis,
    routes: [route({ name: 'by-sni', snis: ['exact.test'], protocols: ['https'], paths: ['/'], service: { id: svc.id } })],
  }), {}, { proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true }], sslCert: DEFAULT });
  const agent = new Agent({ connect: { rejectUnauthorized: false, servername: 'exact.test' } });
  t.after(() => agent.close());
  const res = await request(`https://127.0.0.1:${g.port}/x`, { dispatcher: agent, headers: { host: 'exact.test' } });
  const echo = (await res.body.json()) as { headers: Record<string, string> };
  assert.equal(res.statusCode, 200);
  assert.equal(echo.headers['x-forwarded-proto'], 'https');
  const other = new Agent({ connect: { rejectUnauthorized: false, servername: 'a.wild.test' } });
  t.after(() => other.close());
  const miss = await request(`https://127.0.0.1:${g.port}/x`, { dispatcher: other });
  assert.equal(miss.statusCode, 404);
  await miss.body.text();
});

/** An https target (certificate for localhost) answering with the SNI and Host it was given. */
async function startSniEcho(t: TestContext): Promise<number> {
  const { createServer: createHttpsServer } = await import('node:https');
  const pair = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] });
  const server = createHttpsServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
    res.end(JSON.stringify({ servername: (req.socket as TLSSocket).servername || null, host: req.headers.host }));
  });
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return port;
}

test('https service: TLS to the target, verified only when tls_verify is set', async (t) => {
  const port = await startSniEcho(t);
  const plain = service({ host: 'localhost', port, protocol: 'https' });
  const verified = service({ host: 'localhost', port, protocol: 'https', tls_verify: true, retries: 0 });
  const g = await startGateway(t, snapshot({
    services: [plain, verified],
    routes: [route({ paths: ['/plain'], service: { id: plain.id } }), route({ paths: ['/verified'], service: { id: verified.id } })],
  }));
  const ok = await request(`${g.url}/plain`, { dispatcher: g.client });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(await ok.body.json(), { servername: 'localhost', host: `localhost:${port}` });
  // The target's certificate is self-signed: verification fails the handshake → 502.
  const refused = await request(`${g.url}/verified`, { dispatcher: g.client });
  assert.equal(refused.statusCode, 502);
  await refused.body.text();
});

test('https upstream SNI is the Host sent upstream without its port, as Kong (proxy_ssl_name $upstream_host)', async (t) => {
  const port = await startSniEcho(t);
  // An upstream with host_header, one without (its target is an IP: no SNI at all), and a
  // preserve_host route on the latter (the client's host name goes upstream and into SNI).
  const named = upstream({ name: 'named.upstream', host_header: 'api.internal' });
  const bare = upstream({ name: 'bare.upstream' });
  const viaNamed = service({ host: 'named.upstream', port: 443, protocol: 'https' });
  const viaBare = service({ host: 'bare.upstream', port: 443, protocol: 'https' });
  const g = await startGateway(t, snapshot({
    upstreams: [named, bare],
    targets: [target(named, `127.0.0.1:${port}`), target(bare, `127.0.0.1:${port}`)],
    services: [viaNamed, viaBare],
    routes: [
      route({ paths: ['/named'], service: { id: viaNamed.id } }),
      route({ paths: ['/bare'], service: { id: viaBare.id } }),
      route({ paths: ['/preserved'], preserve_host: true, service: { id: viaBare.id } }),
    ],
  }));
  const seen = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(`${g.url}${path}`, { dispatcher: g.client, headers });
    assert.equal(res.statusCode, 200, path);
    return res.body.json();
  };
  assert.deepEqual(await seen('/named'), { servername: 'api.internal', host: `api.internal:${port}` });
  assert.deepEqual(await seen('/bare'), { servername: null, host: `127.0.0.1:${port}` });
  assert.deepEqual(await seen('/preserved', { host: 'client.example:8443' }), { servername: 'client.example', host: 'client.example:8443' });
  // Same address, another name: a connection made for one SNI is not reused for the other.
  assert.deepEqual(await seen('/preserved', { host: 'other.example' }), { servername: 'other.example', host: 'other.example' });
  assert.deepEqual(await seen('/bare'), { servername: null, host: `127.0.0.1:${port}` });
});

test('listener hooks: configureListener sees each server before it accepts; ALPN h2 only for names a grpcs route takes', async (t) => {
  const seen: string[] = [];
  const grpcs = service({ host: '127.0.0.1', port: 1, protocol: 'grpcs' });
  const g = await startGateway(t, snapshot({
    services: [grpcs],
    routes: [route({ protocols: ['grpcs'], snis: ['grpc.test'], paths: ['/x.Y/'], strip_path: false, service: { id: grpcs.id } })],
  }), {
    configureListener: (server, address) => seen.push(`${address.ssl ? 'https' : 'http'}:${server.listening}`),
  }, { proxyListen: [{ host: '127.0.0.1', port: 0, ssl: true }], sslCert: DEFAULT });
  assert.deepEqual(seen, ['https:false']);
  const alpnFor = async (servername: string): Promise<string | false | null> => {
    const socket = connect({ host: '127.0.0.1', port: g.port, servername, rejectUnauthorized: false, ALPNProtocols: ['h2', 'http/1.1'] });
    t.after(() => socket.destroy());
    await once(socket, 'secureConnect');
    return socket.alpnProtocol;
  };
  assert.equal(await alpnFor('grpc.test'), 'h2');
  assert.equal(await alpnFor('www.test'), 'http/1.1');
});

test('https service with client_certificate: mutual TLS to a target that requires it', async (t) => {
  const { createServer: createHttpsServer } = await import('node:https');
  const { createCertificateAuthority } = await import('@signet/kit');
  const clientCa = createCertificateAuthority({ commonName: 'clients CA', days: 1 });
  const clientPair = issueCertificate({ commonName: 'gateway-client', dnsNames: ['gateway-client'] }, clientCa);
  const targetPair = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] });
  const target = createHttpsServer({ cert: targetPair.certPem, key: targetPair.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    res.end(JSON.stringify({ client: (req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? null }));
  });
  const port = await listenOnLoopback(target);
  t.after(() => new Promise<void>((resolve) => {
    target.closeAllConnections();
    target.close(() => resolve());
  }));
  const clientCert = certificate(clientPair.certPem, clientPair.keyPem);
  const withCert = service({ host: 'localhost', port, protocol: 'https', client_certificate: { id: clientCert.id } });
  const withoutCert = service({ host: 'localhost', port, protocol: 'https', retries: 0 });
  const g = await startGateway(t, snapshot({
    certificates: [clientCert],
    services: [withCert, withoutCert],
    routes: [route({ paths: ['/mtls'], service: { id: withCert.id } }), route({ paths: ['/anonymous'], service: { id: withoutCert.id } })],
  }));
  for (let i = 0; i < 3; i++) {
    const ok = await request(`${g.url}/mtls`, { dispatcher: g.client });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(await ok.body.json(), { client: 'gateway-client' });
  }
  // Same target, no certificate: the handshake is refused → 502; pooled mTLS connections are not reused for it.
  const refused = await request(`${g.url}/anonymous`, { dispatcher: g.client });
  assert.equal(refused.statusCode, 502);
  await refused.body.text();
});
