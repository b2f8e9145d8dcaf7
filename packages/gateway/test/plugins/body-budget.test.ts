// Bodies held whole for plugins (here key-auth's key_in_body) are bounded per process, not only
// per request: a client needs no key to make the gateway read its body, so without a sum bound
// a few connections would make a worker hold 8 MiB each. Past the budget: 503, nothing upstream.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { request } from 'undici';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';

const MiB = 1024 * 1024;

test('the bodies a worker holds for plugins are bounded together: past 64 MiB a request is refused with 503 until held ones are released', async (t) => {
  const held: ServerResponse[] = [];
  let holding = true;
  const upstream = await startUpstream(t, (req, res) => {
    req.resume();
    req.on('end', () => {
      if (holding) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  const yml = `_format_version: "3.0"
consumers:
  - username: bob
    keyauth_credentials: [{ key: kong }]
services:
  - name: s
    url: http://127.0.0.1:${upstream.port}
    routes: [{ name: r, paths: [/], plugins: [{ name: key-auth, config: { key_in_body: true } }] }]
`;
  // One worker, so every body is charged to the same process.
  const g = await startGatewayProcess(t, yml, { workers: 1 });
  const send = (bytes: number) => request(`${g.proxy}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `apikey=kong&pad=${'x'.repeat(bytes)}`,
  });

  // Eight bodies just under 8 MiB each, authenticated and forwarded, held by a slow upstream.
  const first = Array.from({ length: 8 }, () => send(7.9 * MiB));
  await pollUntil(() => held.length === 8, { timeoutMs: 120_000, what: 'eight requests held upstream' });

  // The ninth would take the worker past 64 MiB: refused at once, never forwarded.
  let answered = false;
  const ninthCall = send(MiB).finally(() => (answered = true));
  // Without the budget it would be forwarded (and held like the others): seen by the upstream.
  const outcome = await Promise.race([ninthCall, pollUntil(() => answered || upstream.hits > 8, { timeoutMs: 120_000, what: 'the ninth answered or forwarded' }).then(() => 'forwarded' as const)]);
  assert.notEqual(outcome, 'forwarded', 'the ninth body was held and forwarded');
  const ninth = await ninthCall;
  assert.equal(ninth.statusCode, 503);
  assert.equal(ninth.headers['retry-after'], '1');
  assert.equal((await ninth.body.json() as { message: string }).message, 'The gateway is holding too many request bodies; retry later');
  assert.equal(upstream.hits, 8);

  // Once the held exchanges end, their bytes are free again.
  holding = false;
  for (const res of held) res.writeHead(200).end('ok');
  for (const r of await Promise.all(first)) {
    assert.equal(r.statusCode, 200);
    await r.body.text();
  }
  const after = await send(MiB);
  assert.equal(after.statusCode, 200);
  await after.body.text();
});
