// Routes match the normalised request path, as Kong's router does (router/atc.lua exec:
// normalize(req_uri, true)), and the upstream gets the path composed from it. Sent raw with
// node:http: a URL parser (undici, browsers) would resolve the dot segments before sending.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { startGateway, startUpstream } from './proxy.fixture.ts';

function raw(port: number, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

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
  const sneaky = await raw(g.port, 'POST', '/public/../health');
  assert.equal(sneaky.status, 404, sneaky.body);
  assert.match(sneaky.body, /no Route matched with those values/);
  assert.equal(pub.hits, 0, 'nothing reached the public service');
  for (const variant of ['/public/%2e%2e/health', '/public/./../health', '//public/../health']) {
    assert.equal((await raw(g.port, 'POST', variant)).status, 404, variant);
  }
  assert.equal(pub.hits + internal.hits, 0);

  // The GET the route allows goes through, and the upstream gets the normalised path.
  const allowed = await raw(g.port, 'GET', '/public/../health');
  assert.equal(allowed.status, 200, allowed.body);
  assert.equal(internal.hits, 1);
  assert.equal((JSON.parse(allowed.body) as { url: string }).url, '/health');
  const kept = await raw(g.port, 'POST', '/public/a/./b//c');
  assert.equal(kept.status, 200);
  assert.equal((JSON.parse(kept.body) as { url: string }).url, '/public/a/b/c');
});
