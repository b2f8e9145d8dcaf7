import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEsign } from '../support/esign-harness.ts';
import { FormClient } from '../support/form-client.ts';

test('GET /health is 200 {"status":"ok"} with a reachable database and 503 without; 5xx never leak', async (t) => {
  const h = await startEsign(t);
  const client = new FormClient(h.origin);
  const ok = await client.get('/health');
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.json(), { status: 'ok' });

  await h.store.close();
  const down = await client.get('/health');
  assert.equal(down.status, 503);
  assert.deepEqual(down.json(), { status: 'unavailable' });

  // Every surface answers an internal failure with its generic row: no stack, no driver text.
  const rest = await client.get('/restapi/v2.1/accounts/x', { authorization: 'Bearer abc' });
  assert.equal(rest.status, 500);
  assert.deepEqual(rest.json(), { errorCode: 'UNSPECIFIED_ERROR', message: 'An unexpected error occurred.' });
  const oauth = await client.post('/oauth/token', { grant_type: 'authorization_code', code: 'x', client_id: 'a', client_secret: 'b' });
  assert.equal(oauth.status, 500);
  assert.deepEqual(oauth.json(), { error: 'server_error', error_description: 'An unexpected error occurred.' });
  const page = await client.get('/console', { cookie: 'signet_session=abc' });
  assert.equal(page.status, 500);
  assert.match(page.text, /An unexpected error occurred\./);
  assert.doesNotMatch(page.text + rest.text + oauth.text, /destroyed|Kysely|at .*\.ts/);
});

test('pages carry the security headers; HSTS only for an https public URL', async (t) => {
  const h = await startEsign(t);
  const res = await new FormClient(h.origin).get('/login');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-security-policy'], "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'");
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.equal(res.headers['strict-transport-security'], undefined);
  const css = await new FormClient(h.origin).get('/assets/signet.css');
  assert.match(String(css.headers['content-type']), /text\/css/);
  const missing = await new FormClient(h.origin).get('/no/such/page');
  assert.equal(missing.status, 404);
  assert.match(missing.text, /does not resolve to a resource/);
});

test('a draining instance answers /health 503 {"status":"draining"} and closes connections, yet still serves requests', async (t) => {
  let draining = false;
  const h = await startEsign(t, { deps: { draining: () => draining } });
  const client = new FormClient(h.origin);
  const before = await client.get('/health');
  assert.equal(before.status, 200);
  assert.notEqual(before.headers.connection, 'close');
  draining = true;
  const probe = await client.get('/health');
  assert.equal(probe.status, 503);
  assert.deepEqual(probe.json(), { status: 'draining' });
  assert.equal(probe.headers.connection, 'close');
  const page = await client.get('/login');
  assert.equal(page.status, 200, 'requests the balancer still sends are served');
  assert.equal(page.headers.connection, 'close');
});

test('each request\'s log lines carry the gateway\'s correlation id and request id; malformed ones are not logged', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  const h = await startEsign(t, { deps: { logger: { level: 'info', stream } } });
  const client = new FormClient(h.origin);
  const id = '6b2e1a8c-3f1d-4f0e-9c55-2a4b8d7e1f00#42';
  assert.equal((await client.get('/health', { 'x-correlation-id': id, 'x-kong-request-id': 'cea5d41f798c6b8b0000000000001433' })).status, 200);
  const tagged = lines.filter((l) => l.correlationId === id);
  assert.deepEqual(tagged.map((l) => l.msg), ['incoming request', 'request completed'], 'both of fastify\'s lines for the request');
  assert.ok(tagged.every((l) => l.kongRequestId === 'cea5d41f798c6b8b0000000000001433'));

  // A value with spaces or control characters, or longer than 128, is left out, never truncated into the line.
  lines.length = 0;
  assert.equal((await client.get('/health', { 'x-correlation-id': 'a b', 'x-kong-request-id': 'x'.repeat(129) })).status, 200);
  assert.equal((await client.get('/health')).status, 200);
  assert.equal(lines.length, 4);
  assert.ok(lines.every((l) => !('correlationId' in l) && !('kongRequestId' in l)), JSON.stringify(lines));
});
