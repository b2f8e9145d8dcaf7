// The stream proxy over real sockets: TCP and TLS echo targets balanced and retried, passive
// ejection after tcp_failures, TLS termination by SNI, tls_passthrough, checked with a node
// client and with `openssl s_client`.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback, startProcess } from '@signet/kit/testing';
import { healthchecks } from '../health/health.fixture.ts';
import { certificate, route, service, sni, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { exchange, pki, startEcho, startStreamGateway, type Echo } from './stream.fixture.ts';

const { ca, certs } = pki(['tls.test', 'a.test', 'b.test', 'echo.internal']);
const replier = (reply: string): string => reply.slice(0, reply.indexOf(':'));

for (const variant of ['tcp', 'tls'] as const) {
  test(`${variant}: connections balanced over two echo targets; one killed → retried elsewhere, ejected after tcp_failures`, async (t) => {
    const targetCert = variant === 'tls' ? certs['echo.internal'] : undefined;
    const a = await startEcho(t, 'A', targetCert);
    const b = await startEcho(t, 'B', targetCert);
    const up = upstream({
      name: 'echo.upstream',
      // Kong upstream host_header: also the SNI the gateway sends to a TLS target.
      host_header: variant === 'tls' ? 'echo.internal' : null,
      healthchecks: healthchecks({ passive: { unhealthy: { tcp_failures: 2 } } }),
    });
    const svc = service({ host: 'echo.upstream', protocol: variant, ...(variant === 'tls' ? { tls_verify: true } : {}) });
    const cert = certificate(certs['tls.test']!.certPem, certs['tls.test']!.keyPem);
    const rt = variant === 'tcp'
      ? route({ protocols: ['tcp'], sources: [{ ip: '127.0.0.0/8' }], service: { id: svc.id } })
      : route({ protocols: ['tls'], snis: ['tls.test'], service: { id: svc.id } });
    const gw = await startStreamGateway(t, snapshot({
      services: [svc], routes: [rt], upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`), target(up, `127.0.0.1:${b.port}`)],
      certificates: [cert], snis: [sni('tls.test', cert)],
    }), { trustedCa: [ca.certPem] });
    const send = (line: string): Promise<string> =>
      variant === 'tcp' ? exchange(gw.plainPort, line) : exchange(gw.tlsPort, line, { servername: 'tls.test', ca: ca.certPem });

    const first: string[] = [];
    for (let i = 0; i < 10; i++) {
      const reply = await send(`hello ${i}`);
      assert.match(reply, new RegExp(`^[AB]:hello ${i}$`));
      first.push(replier(reply));
    }
    // Two equal weights: Kong's wheel has one slot each, so picks alternate exactly.
    assert.equal(first.filter((r) => r === 'A').length, 5);
    assert.equal(first.filter((r) => r === 'B').length, 5);
    assert.ok(gw.attempts.every((x) => x.outcome === 200), 'each connect reported as a success');

    await a.kill();
    const keyA = `127.0.0.1:${a.port}`;
    const before = gw.attempts.length;
    for (let i = 0; i < 6; i++) assert.equal(await send(`after ${i}`), `B:after ${i}`, 'every connection is served by the live target');
    const onA = gw.attempts.slice(before).filter((x) => x.key === keyA);
    assert.deepEqual(onA, [
      { upstream: 'echo.upstream', key: keyA, outcome: 'tcp_failure', retried: true },
      { upstream: 'echo.upstream', key: keyA, outcome: 'tcp_failure', retried: true },
    ], 'exactly tcp_failures (2) refused attempts on A, then A is no longer picked');
    assert.equal(gw.health.addressHealth('echo.upstream', keyA), 'unhealthy');
    assert.equal(gw.runtime.state.balancers.get('echo.upstream')!.findAddress(keyA)!.available, false);
    assert.equal(b.accepted, 5 + 6);
  });
}

test('every target refused: the client connection is closed after 1 + retries attempts', async (t) => {
  const a = await startEcho(t, 'A');
  await a.kill();
  const up = upstream({ name: 'dead.upstream' });
  const svc = service({ host: 'dead.upstream', protocol: 'tcp', retries: 2 });
  const gw = await startStreamGateway(t, snapshot({
    services: [svc], routes: [route({ protocols: ['tcp'], destinations: [{ port: 1 }, { ip: '127.0.0.1' }], service: { id: svc.id } })],
    upstreams: [up], targets: [target(up, `127.0.0.1:${a.port}`)],
  }));
  assert.equal(await exchange(gw.plainPort, 'x'), '');
  assert.deepEqual(gw.attempts.map((x) => [x.outcome, x.retried]), [['tcp_failure', true], ['tcp_failure', true], ['tcp_failure', false]]);
  assert.equal(gw.events.at(-1)?.event, 'upstream_failed');
});

test('no stream route matches: the connection is closed and logged', async (t) => {
  const a = await startEcho(t, 'A');
  const svc = service({ host: '127.0.0.1', port: a.port, protocol: 'tcp' });
  const gw = await startStreamGateway(t, snapshot({
    services: [svc], routes: [route({ protocols: ['tcp'], sources: [{ ip: '10.0.0.0/8' }], service: { id: svc.id } })],
  }));
  assert.equal(await exchange(gw.plainPort, 'x'), '');
  assert.equal(gw.events[0]?.event, 'no_route');
  assert.equal(a.accepted, 0);
});

test('a large payload and a half-close pass through unchanged (service without upstream)', async (t) => {
  const a = await startEcho(t, 'A');
  const svc = service({ host: '127.0.0.1', port: a.port, protocol: 'tcp' });
  const gw = await startStreamGateway(t, snapshot({
    services: [svc], routes: [route({ protocols: ['tcp'], sources: [{ ip: '127.0.0.1' }], service: { id: svc.id } })],
  }));
  const line = 'z'.repeat(3 * 1024 * 1024);
  // Write everything, then half-close at once: the echo must still send it all back, then close.
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: gw.plainPort }, () => socket.end(line));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (received += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
  // The echo prefixes each chunk it reads: strip the prefixes and the bytes must be intact.
  assert.equal(reply.replaceAll('A:', ''), line);
  assert.deepEqual(gw.events, []);
});

/** Runs `openssl s_client -brief` with this SNI, sends a line, and returns what it printed. */
async function sClient(t: TestContext, port: number, servername: string, caFile: string, line: string, expect: RegExp): Promise<string> {
  const p = startProcess('openssl', ['s_client', '-brief', '-connect', `127.0.0.1:${port}`, '-servername', servername, '-CAfile', caFile, '-verify_hostname', servername], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.after(() => p.stop());
  p.child.stdin!.write(`${line}\n`);
  await pollUntil(() => expect.test(p.output()) || p.child.exitCode !== null, { timeoutMs: 10_000, what: `openssl s_client ${servername}` });
  await p.stop();
  return p.output();
}

test('SNI routing checked with openssl s_client: tls is terminated with the SNI certificate, tls_passthrough is not', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'signet-stream-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, ca.certPem);
  const plainEcho: Echo = await startEcho(t, 'A');
  // The passthrough target terminates TLS itself, with a certificate the gateway does not hold.
  const tlsEcho: Echo = await startEcho(t, 'B', certs['b.test']);
  const terminated = service({ host: '127.0.0.1', port: plainEcho.port, protocol: 'tcp' });
  const through = service({ host: '127.0.0.1', port: tlsEcho.port, protocol: 'tcp' });
  const cert = certificate(certs['a.test']!.certPem, certs['a.test']!.keyPem);
  const gw = await startStreamGateway(t, snapshot({
    services: [terminated, through],
    routes: [
      route({ protocols: ['tls'], snis: ['a.test'], service: { id: terminated.id } }),
      route({ protocols: ['tls_passthrough'], snis: ['b.test'], service: { id: through.id } }),
    ],
    certificates: [cert], snis: [sni('a.test', cert)],
  }));

  const outA = await sClient(t, gw.tlsPort, 'a.test', caFile, 'hello-a', /A:hello-a/);
  assert.match(outA, /Peer certificate: CN = a\.test/);
  assert.match(outA, /Verification: OK/);
  assert.match(outA, /A:hello-a/);

  const outB = await sClient(t, gw.tlsPort, 'b.test', caFile, 'hello-b', /B:hello-b/);
  assert.match(outB, /Peer certificate: CN = b\.test/, 'the target’s own certificate: the gateway did not terminate');
  assert.match(outB, /Verification: OK/);
  assert.match(outB, /B:hello-b/);

  // No route for c.test: wait for s_client to give up (a pattern that never matches).
  const outC = await sClient(t, gw.tlsPort, 'c.test', caFile, 'hello-c', /(?!)/);
  assert.doesNotMatch(outC, /hello-c/);
  assert.doesNotMatch(outC, /CONNECTION ESTABLISHED/);
  assert.equal(plainEcho.accepted, 1);
  assert.equal(tlsEcho.accepted, 1);
  assert.deepEqual(gw.events.map((e) => [e.event, e.protocol, e.sni]), [['no_route', 'tls', 'c.test']]);
});

test('active http probes skip an upstream only tcp services use; the same checks on an http upstream run', async (t) => {
  const streamTarget = await startEcho(t, 'S');
  let httpProbes = 0;
  const control = createServer((_req, res) => {
    httpProbes++;
    res.end('ok');
  });
  const controlPort = await listenOnLoopback(control);
  t.after(() => new Promise<void>((resolve) => {
    control.closeAllConnections();
    control.close(() => resolve());
  }));
  const checks = healthchecks({ active: { type: 'http', healthy: { interval: 0.05, successes: 1 }, unhealthy: { interval: 0.05, http_failures: 1 } } });
  const tcpUp = upstream({ name: 'tcp-only.upstream', healthchecks: checks });
  const httpUp = upstream({ name: 'http.upstream', healthchecks: checks });
  const tcpSvc = service({ host: 'tcp-only.upstream', protocol: 'tcp' });
  const httpSvc = service({ host: 'http.upstream', protocol: 'http' });
  await startStreamGateway(t, snapshot({
    services: [tcpSvc, httpSvc],
    routes: [route({ protocols: ['tcp'], sources: [{ ip: '127.0.0.1' }], service: { id: tcpSvc.id } }), route({ paths: ['/'], service: { id: httpSvc.id } })],
    upstreams: [tcpUp, httpUp],
    targets: [target(tcpUp, `127.0.0.1:${streamTarget.port}`), target(httpUp, `127.0.0.1:${controlPort}`)],
  }));
  // Both probers would start together with the same interval: once the control has seen three
  // rounds, a prober for the tcp-only upstream would have connected at least twice.
  await pollUntil(() => httpProbes >= 3, { what: 'three probes of the http upstream' });
  assert.equal(streamTarget.accepted, 0, 'no probe reached the tcp-only upstream');
});
