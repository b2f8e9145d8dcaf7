import assert from 'node:assert/strict';
import { test } from 'node:test';
import { route } from '../../test/snapshot.fixture.ts';
import type { Route } from '../declarative/types.ts';
import { StreamRouter, type StreamRequest } from './stream-router.ts';

const conn = (fields: Partial<StreamRequest>): StreamRequest => ({
  protocol: 'tcp', sourceIp: '10.0.0.5', sourcePort: 40000, destinationIp: '127.0.0.1', destinationPort: 9000, sni: undefined, ...fields,
});

function routerOf(routes: Record<string, Partial<Route>>): StreamRouter<string> {
  return new StreamRouter(Object.entries(routes).map(([name, fields]) => ({ route: route({ name, protocols: ['tcp'], ...fields }), value: name })));
}

const pick = (r: StreamRouter<string>, req: StreamRequest): string | undefined => r.find(req)?.value;

test('sources: ip, cidr and port, any listed endpoint matches', () => {
  const r = routerOf({
    lan: { sources: [{ ip: '10.0.0.0/8' }] },
    one: { sources: [{ ip: '192.168.1.7', port: 5000 }, { ip: '172.16.0.1' }] },
  });
  assert.equal(pick(r, conn({ sourceIp: '10.200.3.4' })), 'lan');
  assert.equal(pick(r, conn({ sourceIp: '::ffff:10.1.1.1' })), 'lan', 'IPv4-mapped addresses compare as IPv4');
  assert.equal(pick(r, conn({ sourceIp: '192.168.1.7', sourcePort: 5000 })), 'one');
  assert.equal(pick(r, conn({ sourceIp: '192.168.1.7', sourcePort: 5001 })), undefined);
  assert.equal(pick(r, conn({ sourceIp: '172.16.0.1' })), 'one');
  assert.equal(pick(r, conn({ sourceIp: '11.0.0.1' })), undefined);
});

test('destinations: the listener address and port the client reached', () => {
  const r = routerOf({ a: { destinations: [{ port: 9000 }] }, b: { destinations: [{ ip: '127.0.0.2', port: 9001 }] } });
  assert.equal(pick(r, conn({ destinationPort: 9000 })), 'a');
  assert.equal(pick(r, conn({ destinationIp: '127.0.0.2', destinationPort: 9001 })), 'b');
  assert.equal(pick(r, conn({ destinationIp: '127.0.0.1', destinationPort: 9001 })), undefined);
});

test('IPv6 sources', () => {
  const r = routerOf({ v6: { sources: [{ ip: 'fd00::/16' }] } });
  assert.equal(pick(r, conn({ sourceIp: 'fd00:1::2' })), 'v6');
  assert.equal(pick(r, conn({ sourceIp: 'fe80::1' })), undefined);
});

test('protocols: a tcp route does not take tls or passthrough connections', () => {
  const r = routerOf({
    plain: { protocols: ['tcp'], destinations: [{ port: 9000 }] },
    terminated: { protocols: ['tls'], snis: ['a.test'] },
    through: { protocols: ['tls_passthrough'], snis: ['b.test'] },
  });
  assert.equal(pick(r, conn({ protocol: 'tls', sni: 'a.test' })), 'terminated');
  assert.equal(pick(r, conn({ protocol: 'tls', sni: 'b.test' })), undefined);
  assert.equal(pick(r, conn({ protocol: 'tls_passthrough', sni: 'b.test' })), 'through');
  assert.equal(pick(r, conn({ protocol: 'tls_passthrough', sni: 'a.test' })), undefined);
  assert.equal(pick(r, conn({ protocol: 'tcp' })), 'plain');
  assert.equal(r.serves('tls_passthrough'), true);
});

test('snis: exact and wildcards; no SNI never matches a route with snis', () => {
  const r = routerOf({
    star: { protocols: ['tls'], snis: ['*.example.test'] },
    prefix: { protocols: ['tls'], snis: ['db.*'] },
  });
  assert.equal(pick(r, conn({ protocol: 'tls', sni: 'api.example.test' })), 'star');
  assert.equal(pick(r, conn({ protocol: 'tls', sni: 'example.test' })), undefined);
  assert.equal(pick(r, conn({ protocol: 'tls', sni: 'db.internal' })), 'prefix');
  assert.equal(pick(r, conn({ protocol: 'tls', sni: undefined })), undefined);
});

test("priority: more criteria first, then plain snis over wildcards, then file order", () => {
  const r = routerOf({
    anyPort: { protocols: ['tls'], destinations: [{ port: 9443 }] },
    wildcard: { protocols: ['tls'], snis: ['*.example.test'], destinations: [{ port: 9443 }] },
    exact: { protocols: ['tls'], snis: ['api.example.test'], destinations: [{ port: 9443 }] },
    exactToo: { protocols: ['tls'], snis: ['api.example.test'], destinations: [{ port: 9443 }] },
    three: { protocols: ['tls'], snis: ['*.example.test'], destinations: [{ port: 9443 }], sources: [{ ip: '10.9.9.9' }] },
  });
  const at = (sni: string, sourceIp = '10.0.0.5') => pick(r, conn({ protocol: 'tls', sni, destinationPort: 9443, sourceIp }));
  assert.equal(at('api.example.test', '10.9.9.9'), 'three');
  assert.equal(at('api.example.test'), 'exact');
  assert.equal(at('web.example.test'), 'wildcard');
  assert.equal(at('other.test'), 'anyPort');
});
