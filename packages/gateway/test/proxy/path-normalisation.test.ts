// Routes match the normalised request path, as Kong's router does (kong/router/utils.lua
// strip_uri_args: normalize(req_uri, true)): dot segments (plain or percent-encoded) cannot carry
// a request past the route it is really for, nor out of its service's base path, and the
// upstream gets the path composed from the normalised one, escaped as Kong escapes it
// (kong/tools/uri.lua escape), so decoding never puts a space or a line break in the request
// line. Requests are sent raw: a URL parser (undici, browsers) would resolve the dot segments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { rawExchange } from '../raw-exchange.fixture.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { startGateway, startUpstream, type FakeUpstream } from './proxy.fixture.ts';

type Answer = { status: number; body: string };

/** One request with its target exactly as given, answered then closed. */
const raw = (base: string, method: string, requestTarget: string): Promise<Answer> =>
  rawExchange(base, `${method} ${requestTarget} HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);

test('a dot-segment path cannot ride a permissive prefix route past another route\'s method limit', async (t) => {
  const pub = await startUpstream(t);
  const internal = await startUpstream(t);
  const pubUp = upstream({ name: 'public.test' });
  const intUp = upstream({ name: 'internal.test' });
  const pubSvc = service({ host: 'public.test' });
  const intSvc = service({ host: 'internal.test' });
  const g = await startGateway(t, snapshot({
    services: [pubSvc, intSvc], upstreams: [pubUp, intUp],
    targets: [target(pubUp, `127.0.0.1:${pub.port}`), target(intUp, `127.0.0.1:${internal.port}`)],
    routes: [
      // Anything under /public, any method, with the path kept (strip_path false).
      route({ paths: ['/public'], strip_path: false, service: { id: pubSvc.id } }),
      // /health is GET only.
      route({ paths: ['/health'], methods: ['GET'], strip_path: false, service: { id: intSvc.id } }),
    ],
  }));

  // Before: the raw path matched /public and the upstream, resolving it, served POST /health.
  const sneaky = await raw(g.url, 'POST', '/public/../health');
  assert.equal(sneaky.status, 404, sneaky.body);
  assert.match(sneaky.body, /no Route matched with those values/);
  assert.equal(pub.hits, 0, 'nothing reached the public service');
  for (const variant of ['/public/%2e%2e/health', '/public/./../health', '//public/../health']) {
    assert.equal((await raw(g.url, 'POST', variant)).status, 404, variant);
  }
  assert.equal(pub.hits + internal.hits, 0);

  // The GET the route allows goes through, and the upstream gets the normalised path.
  const allowed = await raw(g.url, 'GET', '/public/../health');
  assert.equal(allowed.status, 200, allowed.body);
  assert.equal(internal.hits, 1);
  assert.equal((JSON.parse(allowed.body) as { url: string }).url, '/health');
  const kept = await raw(g.url, 'POST', '/public/a/./b//c');
  assert.equal(kept.status, 200);
  assert.equal((JSON.parse(kept.body) as { url: string }).url, '/public/a/b/c');
});

// The same attacks against the real `signet-gateway start` process, plus the service path and
// what is forwarded.
const kongYml = (publicUp: number, healthUp: number, basedUp: number): string => `_format_version: "3.0"
services:
  - name: public
    url: http://127.0.0.1:${publicUp}
    routes:
      - name: public
        paths: [/public]
        strip_path: false
  - name: health
    url: http://127.0.0.1:${healthUp}
    routes:
      - name: health
        paths: [/health]
        methods: [GET]
        strip_path: false
  - name: based
    url: http://127.0.0.1:${basedUp}/srv
    routes:
      - name: based
        paths: [/foo]
`;

/** What the fake upstream saw: the request target it received. */
const seen = (answer: Answer): { url: string; method: string; headers: Record<string, string> } => {
  assert.equal(answer.status, 200, answer.body);
  return JSON.parse(answer.body) as { url: string; method: string; headers: Record<string, string> };
};

test('dot segments, plain or percent-encoded, route and forward on the normalised path', async (t) => {
  const [pub, health, based]: FakeUpstream[] = [await startUpstream(t), await startUpstream(t), await startUpstream(t)];
  const g = await startGatewayProcess(t, kongYml(pub!.port, health!.port, based!.port));

  await t.test('POST through /public/../health does not reach the GET-only /health route', async () => {
    for (const target of ['/public/../health', '/public/%2e%2e/health', '/public/%2E%2E/health', '/public/.%2e/health', '/public/./../health', '/public//..//health']) {
      const answer = await raw(g.proxy, 'POST', target);
      assert.equal(answer.status, 404, `${target}: ${answer.body}`);
      assert.match(answer.body, /no Route matched with those values/);
    }
    assert.equal(pub!.hits + health!.hits, 0);
  });

  await t.test('GET /public/../health is the /health route, and its upstream gets /health', async () => {
    const got = seen(await raw(g.proxy, 'GET', '/public/../health?x=%2e%2e'));
    assert.equal(health!.hits, 1);
    assert.equal(pub!.hits, 0);
    assert.equal(got.url, '/health?x=%2e%2e');
    // X-Forwarded-Path is the path the client sent (Kong: ctx.request_uri without the query).
    assert.equal(got.headers['x-forwarded-path'], '/public/../health');
  });

  await t.test('a dot-dot after the route prefix cannot climb out of the service path', async () => {
    // "/foo.." and "/foo../x" match the prefix /foo; Kong drops the leading ".." of the rest.
    assert.equal(seen(await raw(g.proxy, 'GET', '/foo..')).url, '/srv');
    assert.equal(seen(await raw(g.proxy, 'GET', '/foo../etc/passwd')).url, '/srv/etc/passwd');
    assert.equal(seen(await raw(g.proxy, 'GET', '/foo%2e%2e/x')).url, '/srv/x');
    assert.equal(seen(await raw(g.proxy, 'GET', '/foo/./bar/../baz')).url, '/srv/baz');
    // "/foo/.." is "/": no route.
    assert.equal((await raw(g.proxy, 'GET', '/foo/..')).status, 404);
  });

  await t.test('the forwarded path is escaped as Kong escapes it', async () => {
    const forwarded = async (target: string): Promise<string> => seen(await raw(g.proxy, 'GET', target)).url;
    // Unreserved characters are decoded; others decoded then escaped again; reserved ones stay
    // encoded (upper-cased); bytes that are not UTF-8 stay as they were sent.
    assert.equal(await forwarded('/public/%7euser/%41'), '/public/~user/A');
    assert.equal(await forwarded('/public/a%20b%7c'), '/public/a%20b%7C');
    assert.equal(await forwarded('/public/caf%C3%A9'), '/public/caf%C3%A9');
    assert.equal(await forwarded('/public/a%2fb/..%2F..%2Fhealth'), '/public/a%2Fb/..%2F..%2Fhealth');
    assert.equal(await forwarded('/public/%FF%fe'), '/public/%FF%FE');
    assert.equal(await forwarded('/public/x?q=%7e'), '/public/x?q=%7e');
  });

  await t.test('decoded line breaks and spaces never reach the request line: no request injected upstream', async () => {
    const before = pub!.hits + health!.hits;
    const injected = seen(await raw(g.proxy, 'GET', '/public/a%20HTTP/1.1%0D%0AX-Injected:%20yes%0D%0A%0D%0AGET%20/health'));
    assert.equal(injected.url, '/public/a%20HTTP/1.1%0D%0AX-Injected:%20yes%0D%0A%0D%0AGET%20/health');
    assert.equal(injected.headers['x-injected'], undefined);
    // Exactly one request reached the upstreams.
    assert.equal(pub!.hits + health!.hits, before + 1);
    assert.equal(seen(await raw(g.proxy, 'GET', '/public/my%20file.pdf')).url, '/public/my%20file.pdf');
  });
});

test('a regex route\'s match, taken from the decoded path, is escaped in X-Forwarded-Prefix: no header injection', async (t) => {
  const up = await startUpstream(t);
  const u = upstream({ name: 'prefix.test' });
  const svc = service({ host: 'prefix.test' });
  const g = await startGateway(t, snapshot({
    services: [svc], upstreams: [u], targets: [target(u, `127.0.0.1:${up.port}`)],
    routes: [route({ paths: ['~/api/[^/]+'], service: { id: svc.id } })],
  }));
  // %0D%0A decodes to CR LF, which [^/]+ matches: written raw, it would end the header line.
  const res = await raw(g.url, 'GET', '/api/a%0D%0AX-Evil:%201/rest');
  assert.equal(res.status, 200, res.body);
  const echo = JSON.parse(res.body) as { url: string; headers: Record<string, string> };
  assert.equal(echo.headers['x-evil'], undefined, 'no header was injected');
  assert.equal(echo.headers['x-forwarded-prefix'], '/api/a%0D%0AX-Evil:%201');
  assert.equal(echo.url, '/rest');
});
