// `signet-gateway start --stream-listen …` as a real process: a TCP echo balanced through the
// stream listener (one target killed → ejected, visible in the admin health endpoint), a gRPC
// call (h2c) and an HTTP request on the same proxy listener.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { echoClient, say, startBackend } from '../grpc/grpc.fixture.ts';
import { send, startGatewayProcess, targetHealth } from '../health/gateway-process.ts';
import { exchange, startEcho } from './stream.fixture.ts';

for (const workers of [1, 2]) {
  test(`--workers ${workers}: stream, gRPC and HTTP through one gateway process`, async (t) => {
    const a = await startEcho(t, 'A');
    const b = await startEcho(t, 'B');
    const grpcBackend = await startBackend(t, 'G');
    const web = createServer((req, res) => res.end(`web ${req.url}`));
    const webPort = await listenOnLoopback(web);
    t.after(() => new Promise<void>((resolve) => {
      web.closeAllConnections();
      web.close(() => resolve());
    }));
    const yml = `_format_version: "3.0"
upstreams:
  - name: echo.upstream
    healthchecks:
      passive:
        unhealthy:
          tcp_failures: 2
    targets:
      - target: 127.0.0.1:${a.port}
      - target: 127.0.0.1:${b.port}
services:
  - name: echo
    protocol: tcp
    host: echo.upstream
    routes:
      - name: echo
        protocols: [tcp]
        sources: [{ ip: 127.0.0.1 }]
  - name: greeter
    protocol: grpc
    host: 127.0.0.1
    port: ${grpcBackend.port}
    routes:
      - name: greeter
        protocols: [grpc]
        paths: [/signet.test.Echo/]
  - name: web
    url: http://127.0.0.1:${webPort}
    routes:
      - name: web
        paths: [/web]
`;
    const gw = await startGatewayProcess(t, yml, { workers, env: { KONG_STREAM_LISTEN: '127.0.0.1:0' } });
    const streamPort = Number(await pollUntil(() => /stream listening on 127\.0\.0\.1:(\d+)/.exec(gw.proc.output())?.[1], { what: 'the stream listener' }));

    const replies: string[] = [];
    for (let i = 0; i < 4; i++) replies.push(await exchange(streamPort, `ping ${i}`));
    assert.deepEqual(replies.map((r) => r.slice(2)).sort(), ['ping 0', 'ping 1', 'ping 2', 'ping 3']);
    assert.deepEqual(new Set(replies.map((r) => r[0])), new Set(['A', 'B']));

    const proxyPort = Number(new URL(gw.proxy).port);
    const call = await say(echoClient(t, proxyPort), 'via the proxy listener');
    assert.deepEqual(call.reply, { text: 'via the proxy listener', server: 'G' });
    assert.deepEqual(await send(`${gw.proxy}/web/x`), { status: 200, body: 'web /x' });

    await a.kill();
    for (let i = 0; i < 8; i++) assert.equal(await exchange(streamPort, `after ${i}`), `B:after ${i}`);
    const health = await targetHealth(gw.admin, 'echo.upstream');
    assert.equal(health[`127.0.0.1:${a.port}`], 'UNHEALTHY');
    assert.equal(health[`127.0.0.1:${b.port}`], 'HEALTHY');
  });
}
