// acl against a real two-worker gateway: cases from Kong's spec/03-plugins/18-acl/02-access_spec.lua
// (allow, deny, no authentication, consumers without groups, hide_groups_header, anonymous).
import { test } from 'node:test';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const ANON = 'a0000000-0000-4000-8000-000000000002';

const yml = (upstream: string): string => `_format_version: "3.0"
consumers:
  - { username: admin, keyauth_credentials: [{ key: apikey123 }], acls: [{ group: admin }, { group: ops }] }
  - { username: user, keyauth_credentials: [{ key: apikey124 }], acls: [{ group: users }] }
  - { username: loner, keyauth_credentials: [{ key: apikey125 }] }
  - { id: ${ANON}, username: anonymous, acls: [{ group: guests }] }
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: no-auth, hosts: [acl1.test], plugins: [{ name: acl, config: { allow: [admin] } }] }
      - name: allow-admin
        hosts: [acl2.test]
        plugins: [{ name: key-auth }, { name: acl, config: { allow: [admin] } }]
      - name: deny-admin
        hosts: [acl3.test]
        plugins: [{ name: key-auth }, { name: acl, config: { deny: [admin] } }]
      - name: hidden
        hosts: [acl4.test]
        plugins: [{ name: key-auth }, { name: acl, config: { allow: [admin], hide_groups_header: true } }]
      - name: guests
        hosts: [acl5.test]
        plugins: [{ name: key-auth, config: { anonymous: ${ANON} } }, { name: acl, config: { allow: [guests] } }]
      - name: members
        hosts: [acl6.test]
        plugins: [{ name: key-auth, config: { anonymous: ${ANON} } }, { name: acl, config: { allow: [admin, users] } }]
`;

const on = (h: string, key?: string) => ({ Host: h, ...(key === undefined ? {} : { apikey: key }) });
const FORBIDDEN = 'You cannot consume this service';

const CASES: PluginCase[] = [
  { title: 'no authentication plugin', path: '/', headers: on('acl1.test'), status: 401, message: 'Unauthorized' },
  { title: 'allowed group: X-Consumer-Groups upstream', path: '/', headers: on('acl2.test', 'apikey123'), status: 200, upstreamHeaders: { 'X-Consumer-Groups': 'admin, ops', 'X-Consumer-Username': 'admin' } },
  { title: 'not in an allowed group', path: '/', headers: on('acl2.test', 'apikey124'), status: 403, message: FORBIDDEN },
  { title: 'consumer without any group, allow list', path: '/', headers: on('acl2.test', 'apikey125'), status: 403, message: FORBIDDEN },
  { title: 'the key plugin still answers first', path: '/', headers: on('acl2.test'), status: 401, message: 'No API key found in request' },
  { title: 'denied group', path: '/', headers: on('acl3.test', 'apikey123'), status: 403, message: FORBIDDEN },
  { title: 'not in a denied group', path: '/', headers: on('acl3.test', 'apikey124'), status: 200, upstreamHeaders: { 'X-Consumer-Groups': 'users' } },
  { title: 'consumer without any group, deny list', path: '/', headers: on('acl3.test', 'apikey125'), status: 200, upstreamHeaders: { 'X-Consumer-Groups': '' } },
  { title: 'hide_groups_header', path: '/', headers: { ...on('acl4.test', 'apikey123'), 'X-Consumer-Groups': 'spoofed' }, status: 200, upstreamHeaders: { 'X-Consumer-Groups': 'spoofed' } },
  { title: 'anonymous consumer in an allowed group', path: '/', headers: on('acl5.test'), status: 200, upstreamHeaders: { 'X-Consumer-Groups': 'guests', 'X-Anonymous-Consumer': 'true' } },
  { title: 'anonymous consumer outside the allowed groups', path: '/', headers: on('acl6.test'), status: 403, message: FORBIDDEN },
  { title: 'an authenticated member passes the same route', path: '/', headers: on('acl6.test', 'apikey124'), status: 200, upstreamHeaders: { 'X-Consumer-Groups': 'users' } },
];

test('acl: Kong access spec cases on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
});
