// Request headers whose names hold `_`: Kong's nginx template sets `underscores_in_headers on`,
// so they are routed on, seen by plugins and forwarded (the default here too); with
// nginx_proxy_underscores_in_headers=off nginx ignores them (ignore_invalid_headers on: dropped,
// not refused) before anything reads them, over HTTP/1.1 and HTTP/2 alike. A CGI/WSGI upstream
// folds `_` into `-`, so X_Consumer_Username would pass there for the header key-auth set.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { createCertificateAuthority, issueCertificate } from '@signet/kit';
import { request } from 'undici';
import { buildGateway } from '../../src/build-gateway.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { startUpstream, TEST_CONFIG } from './proxy.fixture.ts';

const ca = createCertificateAuthority({ commonName: 'underscore test CA' });
const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] }, ca);

type Answer = { status: number; headers: Record<string, string> };
type Send = (path: string, headers: Record<string, string>) => Promise<Answer>;

/** A gateway with an HTTP/1.1 and an HTTP/2 listener; a sender for each. */
async function start(t: TestContext, underscoresInHeaders: false | undefined): Promise<{ h1: Send; h2: Send }> {
  const up = await startUpstream(t);
  const gateway = await buildGateway({
    ...TEST_CONFIG,
    sslCert: cert,
    proxyListen: [{ host: '127.0.0.1', port: 0, ssl: false }, { host: '127.0.0.1', port: 0, ssl: true, http2: true }],
    ...(underscoresInHeaders === undefined ? {} : { underscoresInHeaders }),
  }, { snapshot: parseDeclarativeConfig(`_format_version: "3.0"
consumers:
  - username: bob
    keyauth_credentials: [{ key: bob-key }]
services:
  - name: echo
    url: http://127.0.0.1:${up.port}
    routes:
      - name: tenant-a
        paths: [/by-header]
        headers: { x_tenant: [a] }
      - name: keyed
        paths: [/keyed]
        plugins: [{ name: key-auth, config: { key_names: [api_key] } }]
      - name: open
        paths: [/open]
`) });
  const [plain, tls] = await gateway.listen();
  const session = connect(`https://localhost:${tls!.port}`, { ca: ca.certPem });
  session.on('error', () => undefined);
  t.after(async () => {
    session.close();
    await gateway.close();
  });
  const answer = (status: number, body: string): Answer => ({ status, headers: status === 200 ? (JSON.parse(body) as Answer).headers : {} });
  return {
    async h1(path, headers) {
      const res = await request(`http://127.0.0.1:${plain!.port}${path}`, { headers: { connection: 'close', ...headers } });
      return answer(res.statusCode, await res.body.text());
    },
    h2: (path, headers) => new Promise((resolve, reject) => {
      const req = session.request({ ':path': path, ...headers });
      let status = 0;
      let body = '';
      req.on('response', (h) => (status = Number(h[':status'])));
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => resolve(answer(status, body)));
      req.on('error', reject);
    }),
  };
}

test('underscored header names are forwarded, routed on and read by plugins by default (Kong: underscores_in_headers on)', async (t) => {
  const { h1, h2 } = await start(t, undefined);
  for (const send of [h1, h2]) {
    const open = await send('/open', { x_consumer_username: 'admin', 'x-kept': '1' });
    assert.equal(open.headers.x_consumer_username, 'admin');
    assert.equal((await send('/by-header', { x_tenant: 'a' })).status, 200);
    assert.equal((await send('/keyed', { api_key: 'bob-key' })).status, 200);
  }
});

test('nginx_proxy_underscores_in_headers=off: such headers are ignored before routing and plugins, not refused', async (t) => {
  const { h1, h2 } = await start(t, false);
  for (const send of [h1, h2]) {
    const open = await send('/open', { x_consumer_username: 'admin', x_consumer_custom_id: 'tenant-admin-42', 'x-kept': '1' });
    assert.equal(open.status, 200, 'the request is served, as nginx serves it');
    assert.equal(open.headers.x_consumer_username, undefined);
    assert.equal(open.headers.x_consumer_custom_id, undefined);
    assert.equal(open.headers['x-kept'], '1');
    assert.equal((await send('/by-header', { x_tenant: 'a' })).status, 404, 'a route on x_tenant never matches');
    assert.equal((await send('/keyed', { api_key: 'bob-key' })).status, 401, 'key-auth finds no api_key header');
    assert.equal((await send('/keyed', { 'api-key': 'bob-key' })).status, 200, "the `-` spelling is a header like any other (nginx's lookup of api_key finds it)");
  }
});
