// response-ratelimiting (policy local) against a real two-worker gateway, cases from Kong's
// spec/03-plugins/24-response-rate-limiting/04-access_spec.lua: the upstream reports what each
// response used in X-Kong-Limit (here: whatever the request's ?x-kong-limit= says, as Kong's
// /response-headers test upstream does). Kong counts in its log phase, after the response, so
// the cases wait for the count to show (Kong's wait_remaining_sync) with a request that reports
// nothing. Windows are a day or a year long, so none ends during the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { request } from 'undici';
import { startGatewayProcess, type GatewayProcess } from '../health/gateway-process.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';

const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: one, hosts: [test1.test], plugins: [{ name: response-ratelimiting, config: { limits: { video: { year: 6 } } } }] }
      - { name: multiple, hosts: [test2.test], plugins: [{ name: response-ratelimiting, config: { limits: { video: { day: 12, year: 24 }, image: { day: 6 } } } }] }
      - { name: lines, hosts: [test4.test], plugins: [{ name: response-ratelimiting, config: { limits: { video: { day: 3, year: 5 }, image: { year: 4 } } } }] }
      - { name: first-violation, hosts: [test7.test], plugins: [{ name: response-ratelimiting, config: { block_on_first_violation: true, limits: { video: { day: 6, year: 12 }, image: { year: 4 } } } }] }
      - { name: upstream-headers, hosts: [test8.test], plugins: [{ name: response-ratelimiting, config: { limits: { video: { day: 6, year: 12 }, image: { year: 5 } } } }] }
      - { name: hidden, hosts: [test9.test], plugins: [{ name: response-ratelimiting, config: { hide_client_headers: true, limits: { video: { year: 1 } } } }] }
      - { name: own-header, hosts: [test10.test], plugins: [{ name: response-ratelimiting, config: { header_name: x-units, limits: { video: { year: 2 } } } }] }
`;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A request on a fresh connection (the two workers take turns); `report` is what the upstream will say it used. */
async function get(g: GatewayProcess, host: string, ...report: string[]): Promise<Answer> {
  const query = report.map((r) => `x-kong-limit=${encodeURIComponent(r)}`).join('&');
  const res = await request(`${g.proxy}/response-headers${query === '' ? '' : `?${query}`}`, { headers: { host, connection: 'close' } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

const num = (a: Answer, name: string): number => Number(a.headers[name]);

/** Kong's wait_remaining_sync: until a request that reports nothing sees these remaining counts. */
async function waitRemaining(g: GatewayProcess, host: string, expected: Record<string, number>): Promise<Answer> {
  return pollUntil(async () => {
    const a = await get(g, host);
    return Object.entries(expected).every(([h, v]) => num(a, h) === v) ? a : undefined;
  }, { what: `${host} to show ${JSON.stringify(expected)}`, timeoutMs: 10_000 });
}

test('response-ratelimiting local: Kong access_spec cases on two workers', async (t) => {
  // Kong's /response-headers: each ?x-kong-limit= becomes one response header line; the body
  // echoes the request headers the upstream got.
  const upstream = await startUpstream(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const headers: [string, string][] = url.searchParams.getAll('x-kong-limit').map((v) => ['X-Kong-Limit', v]);
    const units = url.searchParams.get('x-units');
    if (units !== null) headers.push(['X-Units', units]);
    res.writeHead(200, [['Content-Type', 'application/json'], ...headers].flat());
    res.end(JSON.stringify({ headers: req.headers }));
  });
  const g = await startGatewayProcess(t, yml(`http://127.0.0.1:${upstream.port}`), { workers: 2 });

  await t.test('returns remaining counter', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await get(g, 'test1.test', 'video=1')).status, 200);
    await waitRemaining(g, 'test1.test', { 'x-ratelimit-remaining-video-year': 3 });
    const res = await get(g, 'test1.test', 'video=1');
    assert.equal(res.status, 200);
    assert.equal(num(res, 'x-ratelimit-limit-video-year'), 6);
    assert.equal(num(res, 'x-ratelimit-remaining-video-year'), 2);
    assert.equal(res.headers['x-kong-limit'], undefined, 'the report does not reach the client');
  });

  await t.test('blocks if exceeding limit: a bodiless 429', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await get(g, 'test1.test', 'video=1')).status, 200);
    await waitRemaining(g, 'test1.test', { 'x-ratelimit-remaining-video-year': 0 });
    const res = await get(g, 'test1.test', 'video=1');
    assert.equal(res.status, 429);
    assert.equal(res.body, '');
    assert.equal(num(res, 'x-ratelimit-limit-video-year'), 6);
    assert.equal(num(res, 'x-ratelimit-remaining-video-year'), 0);
    // The refused report was not counted, and a request reporting nothing still passes.
    assert.equal((await get(g, 'test1.test')).status, 200);
  });

  await t.test('handles multiple limits', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await get(g, 'test2.test', 'video=2, image=1')).status, 200);
    let res = await waitRemaining(g, 'test2.test', { 'x-ratelimit-remaining-video-day': 6, 'x-ratelimit-remaining-image-day': 3 });
    assert.deepEqual(
      ['x-ratelimit-limit-video-day', 'x-ratelimit-remaining-video-day', 'x-ratelimit-limit-video-year', 'x-ratelimit-remaining-video-year', 'x-ratelimit-limit-image-day', 'x-ratelimit-remaining-image-day'].map((h) => num(res, h)),
      [12, 6, 24, 18, 6, 3]);
    for (let i = 0; i < 3; i++) assert.equal((await get(g, 'test2.test', 'video=1, image=1')).status, 200);
    await waitRemaining(g, 'test2.test', { 'x-ratelimit-remaining-image-day': 0 });
    res = await get(g, 'test2.test', 'video=1, image=1');
    assert.equal(res.status, 429);
    assert.deepEqual(['x-ratelimit-remaining-image-day', 'x-ratelimit-remaining-video-day', 'x-ratelimit-remaining-video-year'].map((h) => num(res, h)), [0, 2, 14]);
  });

  await t.test('combines multiple x-kong-limit header lines from upstream', async () => {
    assert.equal((await get(g, 'test4.test', 'video=2', 'image=1')).status, 200);
    await waitRemaining(g, 'test4.test', { 'x-ratelimit-remaining-video-day': 1, 'x-ratelimit-remaining-image-year': 3 });
    assert.equal((await get(g, 'test4.test', 'video=1')).status, 200);
    await waitRemaining(g, 'test4.test', { 'x-ratelimit-remaining-video-day': 0 });
    const res = await get(g, 'test4.test', 'video=2', 'image=1');
    assert.equal(res.status, 429);
    assert.equal(num(res, 'x-ratelimit-remaining-video-day'), 0);
    assert.equal(num(res, 'x-ratelimit-remaining-image-year'), 2);
  });

  await t.test('block_on_first_violation: refused before the upstream, naming the limit', async () => {
    assert.equal((await get(g, 'test7.test', 'video=2, image=4')).status, 200);
    // Polled with requests that report nothing, so only the first one counts.
    await pollUntil(async () => (await get(g, 'test7.test')).status === 429, { what: 'the image limit to block every request', timeoutMs: 10_000 });
    const hits = upstream.hits;
    const res = await get(g, 'test7.test', 'video=2');
    assert.equal(res.status, 429);
    const body = JSON.parse(res.body) as { message: string; request_id: string };
    assert.equal(body.message, "API rate limit exceeded for 'image'");
    assert.equal(body.request_id, res.headers['x-kong-request-id']);
    assert.equal(upstream.hits, hits, 'refused in access: the upstream never saw it');
  });

  await t.test('the upstream is told what remains of each limit', async () => {
    let res = await get(g, 'test8.test');
    let seen = (JSON.parse(res.body) as { headers: Record<string, string> }).headers;
    assert.equal(seen['x-ratelimit-remaining-video'], '6', 'the smallest of its periods');
    assert.equal(seen['x-ratelimit-remaining-image'], '5');
    res = await get(g, 'test8.test', 'video=2, image=1');
    seen = (JSON.parse(res.body) as { headers: Record<string, string> }).headers;
    assert.deepEqual([seen['x-ratelimit-remaining-video'], seen['x-ratelimit-remaining-image']], ['6', '5'], 'before this response counted');
    res = await waitRemaining(g, 'test8.test', { 'x-ratelimit-remaining-video-day': 4 });
    seen = (JSON.parse(res.body) as { headers: Record<string, string> }).headers;
    assert.deepEqual([seen['x-ratelimit-remaining-video'], seen['x-ratelimit-remaining-image']], ['4', '4']);
  });

  await t.test('hide_client_headers: no rate-limit headers, the report still removed and enforced', async () => {
    const first = await get(g, 'test9.test', 'video=1');
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.headers).filter((h) => /ratelimit|x-kong-limit/i.test(h)), []);
    const blocked = await pollUntil(async () => {
      const a = await get(g, 'test9.test', 'video=1');
      return a.status === 429 ? a : undefined;
    }, { what: 'the hidden limit to block', timeoutMs: 10_000 });
    assert.deepEqual(Object.keys(blocked.headers).filter((h) => /ratelimit/i.test(h)), []);
  });

  await t.test('header_name: the upstream reports in its own header', async () => {
    const res = await request(`${g.proxy}/response-headers?x-units=video%3D2&x-kong-limit=video%3D9`, { headers: { host: 'test10.test', connection: 'close' } });
    await res.body.dump();
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-units'], undefined);
    assert.equal(res.headers['x-kong-limit'], 'video=9', 'another header is not the report');
    await waitRemaining(g, 'test10.test', { 'x-ratelimit-remaining-video-year': 0 });
  });
});
