// Client-side abuse of the real gateway process: request smuggling (RFC 9112 §6.1,
// §6.3, §5.2), oversized headers, slowloris, the admin API's exposure, and a POST /config
// reload under load. All raw requests go over real sockets; every loop has a count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'undici';
import { buildGatewayConfig } from '../../src/config.ts';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { FaultUpstream } from './fault-upstream.ts';
import { faultKongYml } from './fault-kong-yml.ts';

/** Sends raw bytes, returns everything the gateway answered until it closed (or 5 s passed). */
function raw(url: string, bytes: string): Promise<{ text: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, 5000);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', (e) => {
      clearTimeout(timer);
      if (text !== '') resolve({ text, closed: true });
      else reject(e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.write(bytes);
  });
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

const SMUGGLING: ReadonlyArray<readonly [string, string]> = [
  ['Content-Length and Transfer-Encoding together (CL.TE)', 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['Transfer-Encoding and Content-Length together (TE.CL)', 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n0\r\n\r\n'],
  ['two different Content-Length headers', 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 36\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a Content-Length list', 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 36\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['an obs-folded Transfer-Encoding', 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 36\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\n\r\n'],
  ['an obs-folded header line', 'GET /a HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n'],
  ['Transfer-Encoding: xchunked', 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['Transfer-Encoding: chunked, identity', 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a space before the colon', 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a bare LF chunk size line', 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a chunk size with an extension smuggling bytes', 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;\n\r\nxx\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a NUL in a header value', 'GET /a HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n'],
];

test('request smuggling attempts are refused with 400 and nothing smuggled reaches the upstream', async (t) => {
  const up = await FaultUpstream.start();
  t.after(() => up.close());
  const g = await startGatewayProcess(t, faultKongYml([up.target]));
  for (const [name, bytes] of SMUGGLING) {
    const answer = await raw(g.proxy, bytes);
    assert.equal(statusOf(answer.text), 400, `${name}: ${answer.text.slice(0, 120)}`);
    assert.ok(answer.closed, `${name}: the connection stays open after a framing error`);
  }
  assert.equal(up.count('/smuggled'), 0);
  // The refusals reached no upstream at all (nothing half-forwarded).
  assert.equal(up.count('/a'), 0);
  // And the gateway still serves.
  assert.equal((await request(`${g.proxy}/after`)).statusCode, 200);
});

test('oversized headers: 431 before anything is forwarded; the gateway keeps serving', async (t) => {
  const up = await FaultUpstream.start();
  t.after(() => up.close());
  const g = await startGatewayProcess(t, faultKongYml([up.target]));
  for (const bytes of [
    `GET /big HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    `GET /many HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 4000 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`,
    `GET /${'u'.repeat(70 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  ]) {
    const answer = await raw(g.proxy, bytes);
    assert.equal(statusOf(answer.text), 431, `${bytes.slice(0, 30)}…: ${answer.text.slice(0, 120)}`);
  }
  assert.equal(up.count('/big') + up.count('/many'), 0);
  assert.equal((await request(`${g.proxy}/after`)).statusCode, 200);
});

test('slowloris: 200 connections trickling header bytes do not starve normal clients', async (t) => {
  const up = await FaultUpstream.start();
  t.after(() => up.close());
  const g = await startGatewayProcess(t, faultKongYml([up.target]));
  const { hostname, port } = new URL(g.proxy);
  const sockets = Array.from({ length: 200 }, () => {
    const s = connect(Number(port), hostname);
    s.on('error', () => undefined);
    s.write('GET /slow HTTP/1.1\r\nHost: x\r\n');
    return s;
  });
  t.after(() => {
    for (const s of sockets) s.destroy();
  });
  // 10 rounds: every slow socket sends one more header line, then 5 normal requests run.
  const latencies: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const s of sockets) s.write(`X-Slow-${round}: 1\r\n`);
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await request(`${g.proxy}/normal`, { headersTimeout: 5000 });
      await res.body.text();
      assert.equal(res.statusCode, 200);
      latencies.push(performance.now() - started);
    }
  }
  assert.equal(up.count('/slow'), 0);
  const worst = Math.max(...latencies);
  t.diagnostic(`slowloris: 200 trickling connections, 50 normal requests, worst latency ${worst.toFixed(0)} ms`);
  assert.ok(worst < 2000, `a normal request took ${worst.toFixed(0)} ms`);
});

test('the admin API listens on loopback only unless told otherwise, and is not reachable through the proxy', async (t) => {
  // Kong's kong.conf.default binds admin_listen to 127.0.0.1 too; the proxy defaults stay public.
  const defaults = buildGatewayConfig({});
  assert.deepEqual(defaults.adminListen.map((a) => a.host), ['127.0.0.1']);
  const fromEnvLike = buildGatewayConfig({ proxy_listen: '127.0.0.1:0' });
  assert.deepEqual(fromEnvLike.adminListen.map((a) => a.host), ['127.0.0.1']);
  const up = await FaultUpstream.start();
  t.after(() => up.close());
  const g = await startGatewayProcess(t, faultKongYml([up.target]));
  assert.match(g.admin, /^http:\/\/127\.0\.0\.1:/);
  // The proxy forwards /upstreams like any path: it never answers admin JSON itself.
  const viaProxy = await request(`${g.proxy}/upstreams`);
  assert.equal(await viaProxy.body.text(), 'ok /upstreams');
});

test('POST /config reloads under steady load drop no request', async (t) => {
  const [a, b] = [await FaultUpstream.start(), await FaultUpstream.start()];
  t.after(async () => {
    await a.close();
    await b.close();
  });
  const configs = [faultKongYml([a.target, b.target]), faultKongYml([b.target]), faultKongYml([a.target])];
  const g = await startGatewayProcess(t, configs[0]!);
  const outcomes: Array<number | string> = [];
  let reloads = 0;
  const TOTAL = 600;
  let sent = 0;
  async function client(): Promise<void> {
    while (sent < TOTAL) {
      sent++;
      try {
        const res = await request(`${g.proxy}/load`);
        await res.body.text();
        outcomes.push(res.statusCode);
      } catch (e) {
        outcomes.push((e as Error).message);
      }
    }
  }
  async function reloader(): Promise<void> {
    // A reload every ~40 requests while the clients run, cycling the target sets.
    for (let i = 1; sent < TOTAL - 40; i++) {
      const mark = sent;
      while (sent < mark + 40 && sent < TOTAL) await new Promise((resolve) => setImmediate(resolve));
      const res = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: configs[i % configs.length]! });
      await res.body.text();
      if (res.statusCode === 201) reloads++;
    }
  }
  await Promise.all([client(), client(), client(), client(), reloader()]);
  t.diagnostic(`reload under load: ${outcomes.length} requests, ${reloads} reloads`);
  assert.ok(reloads >= 5, `only ${reloads} reloads happened`);
  assert.deepEqual(outcomes.filter((o) => o !== 200), []);
  assert.equal(outcomes.length, TOTAL);
});
