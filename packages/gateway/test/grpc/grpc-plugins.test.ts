// Plugins on gRPC routes: the same access phase as HTTP requests (Kong runs http-subsystem
// plugins on grpc/grpcs routes); a plugin's answer is a trailers-only gRPC status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import type { Consumer, KeyauthCredential, Plugin } from '../../src/declarative/types.ts';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { echoClient, say, startBackend, startGrpcGateway } from './grpc.fixture.ts';

const times = { created_at: 0, updated_at: 0 };

test('key-auth and acl on a grpc route: UNAUTHENTICATED, PERMISSION_DENIED, then the call goes through', async (t) => {
  const backend = await startBackend(t, 'A');
  const svc = service({ host: '127.0.0.1', port: backend.port, protocol: 'grpc' });
  const r = route({ protocols: ['grpc'], paths: ['/signet.test.Echo/'], strip_path: false, service: { id: svc.id } });
  const bob: Consumer = { id: '00000000-0000-4000-8000-0000000000b0', username: 'bob', custom_id: null, tags: null, ...times };
  const eve: Consumer = { id: '00000000-0000-4000-8000-0000000000e0', username: 'eve', custom_id: null, tags: null, ...times };
  const key = (id: string, consumer: Consumer, k: string): KeyauthCredential => ({ id, consumer: { id: consumer.id }, key: k, tags: null, created_at: 0 });
  const plugin = (name: string, config: Record<string, unknown>): Plugin => ({
    id: `00000000-0000-4000-8000-00000000000${name.length}`, name, instance_name: null, route: { id: r.id }, service: null, consumer: null, consumer_group: null,
    config, protocols: ['grpc', 'grpcs', 'http', 'https'], enabled: true, tags: null, ...times,
  });
  const gw = await startGrpcGateway(t, snapshot({
    services: [svc], routes: [r], consumers: [bob, eve],
    keyauth_credentials: [key('00000000-0000-4000-8000-0000000000c1', bob, 'bob-key'), key('00000000-0000-4000-8000-0000000000c2', eve, 'eve-key')],
    acls: [{ id: '00000000-0000-4000-8000-0000000000a1', consumer: { id: bob.id }, group: 'admin', tags: null, created_at: 0 }],
    plugins: [
      plugin('key-auth', { key_names: ['apikey'], hide_credentials: false, anonymous: null, key_in_header: true, key_in_query: true, key_in_body: false, run_on_preflight: true, realm: null }),
      plugin('acl', { allow: ['admin'], deny: null, hide_groups_header: false, always_use_authenticated_groups: false }),
    ],
  }));
  const client = echoClient(t, gw.port);
  const anonymous = await say(client, 'hi');
  assert.deepEqual([anonymous.error?.code, anonymous.error?.details], [grpc.status.UNAUTHENTICATED, 'No API key found in request']);
  const wrong = await say(client, 'hi', { apikey: 'nope' });
  assert.deepEqual([wrong.error?.code, wrong.error?.details], [grpc.status.UNAUTHENTICATED, 'Unauthorized']);
  const eveCall = await say(client, 'hi', { apikey: 'eve-key' });
  assert.deepEqual([eveCall.error?.code, eveCall.error?.details], [grpc.status.PERMISSION_DENIED, 'You cannot consume this service']);
  // Answers the gateway gives itself never reach the target.
  assert.equal(backend.calls, 0);
  const ok = await say(client, 'hi', { apikey: 'bob-key' });
  assert.equal(ok.error, undefined);
  assert.equal(ok.reply?.text, 'hi');
  assert.equal(backend.calls, 1);
});
