// rate-limiting (policy local) against a real two-worker gateway: cases from Kong's
// spec/03-plugins/23-rate-limiting/04-access_spec.lua (limits, headers, limit_by, custom
// error, hide_client_headers), one limit exact across both workers (sequential and concurrent),
// and counters kept through POST /config. Windows are a month or a year long (UTC calendar), so
// only a run across the turn of a month can see one end; window arithmetic is tested on an
// injected clock (counter-store.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import { startPluginGateway } from './plugins.fixture.ts';

const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: exact, hosts: [rl1.test], plugins: [{ name: rate-limiting, config: { year: 6, limit_by: ip } }] }
      - { name: two, hosts: [rl2.test], plugins: [{ name: rate-limiting, config: { month: 2, year: 100, error_code: 503, error_message: slow down } }] }
      - { name: hidden, hosts: [rl3.test], plugins: [{ name: rate-limiting, config: { year: 1, hide_client_headers: true } }] }
      - { name: by-header, hosts: [rl4.test], plugins: [{ name: rate-limiting, config: { year: 1, limit_by: header, header_name: x-tenant } }] }
      - { name: burst, hosts: [rl5.test], plugins: [{ name: rate-limiting, config: { year: 10 } }] }
      - { name: reload, hosts: [rl6.test], plugins: [{ name: rate-limiting, config: { year: 2 } }] }
`;

test('rate-limiting local: one exact limit across two workers, Kong headers and answers', async (t) => {
  const g = await startPluginGateway(t, yml);
  const get = (host: string, headers: Record<string, string> = {}) => g.call('/', { headers: { Host: host, ...headers } });

  // Each call opens its own connection: the two workers take turns, and share one count.
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await get('rl1.test');
    statuses.push(res.status);
    if (res.status === 200) {
      assert.equal(res.headers['x-ratelimit-limit-year'], '6');
      assert.equal(res.headers['x-ratelimit-remaining-year'], String(5 - i));
      assert.equal(res.headers['ratelimit-limit'], '6');
      assert.equal(res.headers['ratelimit-remaining'], String(5 - i));
      assert.ok(Number(res.headers['ratelimit-reset']) >= 1);
      assert.equal(res.headers['retry-after'], undefined);
    } else {
      assert.equal(res.json.message, 'API rate limit exceeded');
      assert.equal(res.headers['x-ratelimit-remaining-year'], '0');
      assert.equal(res.headers['ratelimit-remaining'], '0');
      assert.equal(res.headers['retry-after'], res.headers['ratelimit-reset']);
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);

  // Custom error; the tighter period (month) speaks for RateLimit-*.
  const two = [await get('rl2.test'), await get('rl2.test'), await get('rl2.test')];
  assert.deepEqual(two.map((r) => r.status), [200, 200, 503]);
  assert.equal(two[2]!.json.message, 'slow down');
  assert.equal(two[0]!.headers['ratelimit-limit'], '2');
  assert.equal(two[0]!.headers['x-ratelimit-limit-year'], '100');
  assert.equal(two[0]!.headers['x-ratelimit-remaining-year'], '99');

  // hide_client_headers: no rate-limit header on either answer.
  const hidden = [await get('rl3.test'), await get('rl3.test')];
  assert.deepEqual(hidden.map((r) => r.status), [200, 429]);
  for (const r of hidden) assert.deepEqual(Object.keys(r.headers).filter((h) => /ratelimit|retry-after/i.test(h)), []);

  // limit_by header: each value has its own count; without the header, the client address counts.
  assert.equal((await get('rl4.test', { 'x-tenant': 'a' })).status, 200);
  assert.equal((await get('rl4.test', { 'x-tenant': 'a' })).status, 429);
  assert.equal((await get('rl4.test', { 'x-tenant': 'b' })).status, 200);
  assert.equal((await get('rl4.test')).status, 200);
  assert.equal((await get('rl4.test')).status, 429);

  // 30 concurrent requests against a limit of 10: exactly 10 pass, whichever worker serves them.
  const burst = await Promise.all(Array.from({ length: 30 }, async () => {
    const res = await request(g.proxy + '/', { headers: { host: 'rl5.test', connection: 'close' } });
    await res.body.dump();
    return res.statusCode;
  }));
  assert.equal(burst.filter((s) => s === 200).length, 10);
  assert.equal(burst.filter((s) => s === 429).length, 20);

  // POST /config with the same plugin config keeps the counters (they live in the primary).
  assert.equal((await get('rl6.test')).status, 200);
  const reloaded = await request(`${g.admin}/config`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ config: yml(`http://127.0.0.1:${g.upstream.port}`) }),
  });
  assert.equal(reloaded.statusCode, 201);
  await reloaded.body.dump();
  assert.deepEqual([(await get('rl6.test')).status, (await get('rl6.test')).status], [200, 429]);
});
