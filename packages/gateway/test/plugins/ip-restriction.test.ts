// ip-restriction against a real two-worker gateway: cases from Kong's
// spec/03-plugins/17-ip-restriction/02-access_spec.lua (deny, allow, CIDRs, deny over allow,
// status/message, X-Forwarded-For with real_ip_recursive, IPv6), with trusted_ips naming the
// test client's address, and the spoofing a client outside trusted_ips might try.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: r1, hosts: [ipr1.test], plugins: [{ name: ip-restriction, config: { deny: [127.0.0.1, 127.0.0.2] } }] }
      - { name: r2, hosts: [ipr2.test], plugins: [{ name: ip-restriction, config: { deny: [127.0.0.2] } }] }
      - { name: r3, hosts: [ipr3.test], plugins: [{ name: ip-restriction, config: { allow: [127.0.0.2] } }] }
      - { name: r4, hosts: [ipr4.test], plugins: [{ name: ip-restriction, config: { allow: [127.0.0.1] } }] }
      - { name: r5, hosts: [ipr5.test], plugins: [{ name: ip-restriction, config: { deny: [127.0.0.0/24] } }] }
      - { name: r6, hosts: [ipr6.test], plugins: [{ name: ip-restriction, config: { allow: [127.0.0.4] } }] }
      - { name: r7, hosts: [ipr7.test], plugins: [{ name: ip-restriction, config: { deny: [127.0.0.4] } }] }
      - { name: r8, hosts: [ipr8.test], plugins: [{ name: ip-restriction, config: { allow: [0.0.0.0/0] } }] }
      - { name: r9, hosts: [ipr9.test], plugins: [{ name: ip-restriction, config: { allow: [127.0.0.1], deny: [127.0.0.1] } }] }
      - { name: r10, hosts: [ipr10.test], plugins: [{ name: ip-restriction, config: { allow: [127.0.0.0/24], deny: [127.0.0.1] } }] }
      - { name: r11, hosts: [ipr11.test], plugins: [{ name: ip-restriction, config: { allow: [127.0.0.0/24], deny: [127.0.0.0/24] } }] }
      - { name: r12, hosts: [ipr12.test], plugins: [{ name: ip-restriction, config: { deny: [127.0.0.0/24], status: 401, message: Forbidden } }] }
      - { name: v6deny, hosts: [ipv6-1.test], plugins: [{ name: ip-restriction, config: { deny: ["::1", "::2"] } }] }
      - { name: v6cidr, hosts: [ipv6-2.test], plugins: [{ name: ip-restriction, config: { deny: ["fe80::/8"] } }] }
      - { name: v6allow, hosts: [ipv6-3.test], plugins: [{ name: ip-restriction, config: { allow: ["::/0"] } }] }
      - { name: v6both, hosts: [ipv6-4.test], plugins: [{ name: ip-restriction, config: { allow: ["::1/128"], deny: ["::1"] } }] }
`;

// The test client connects from 127.0.0.1; 127.0.0.3 stands for a trusted proxy in the list.
const ENV = { KONG_TRUSTED_IPS: '127.0.0.1, 127.0.0.3', KONG_REAL_IP_HEADER: 'X-Forwarded-For', KONG_REAL_IP_RECURSIVE: 'on' };
const on = (host: string, xff?: string) => ({ Host: host, ...(xff === undefined ? {} : { 'X-Forwarded-For': xff }) });
const denied = (ip: string) => `IP address not allowed: ${ip}`;

const CASES: PluginCase[] = [
  { title: 'deny: the client is denied', path: '/', headers: on('ipr1.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'deny: status and message', path: '/', headers: on('ipr12.test'), status: 401, message: 'Forbidden' },
  { title: 'deny: not denied', path: '/', headers: on('ipr2.test'), status: 200, upstreamHeaders: { 'X-Real-IP': '127.0.0.1', 'X-Forwarded-For': '127.0.0.1' } },
  { title: 'deny: CIDR', path: '/', headers: on('ipr5.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'deny over an allowed IP', path: '/', headers: on('ipr9.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'deny over an allowed CIDR', path: '/', headers: on('ipr10.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'deny CIDR over the same allowed CIDR', path: '/', headers: on('ipr11.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'X-Forwarded-For: no header, allowed socket address', path: '/', headers: on('ipr7.test'), status: 200, upstreamHeaders: { 'X-Real-IP': '127.0.0.1' } },
  { title: 'X-Forwarded-For: allowed forwarded address', path: '/', headers: on('ipr7.test', '127.0.0.5'), status: 200, upstreamHeaders: { 'X-Real-IP': '127.0.0.5', 'X-Forwarded-For': '127.0.0.5, 127.0.0.5' } },
  { title: 'X-Forwarded-For: denied forwarded address', path: '/', headers: on('ipr7.test', '127.0.0.4'), status: 403, message: denied('127.0.0.4') },
  { title: 'allow: the client is not allowed', path: '/', headers: on('ipr3.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'allow: the client is allowed', path: '/', headers: on('ipr4.test'), status: 200 },
  { title: 'allow: 0.0.0.0/0', path: '/', headers: on('ipr8.test'), status: 200 },
  { title: 'allow + XFF: no header, socket not allowed', path: '/', headers: on('ipr6.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'allow + XFF: forwarded address not allowed', path: '/', headers: on('ipr6.test', '127.0.0.3'), status: 403, message: denied('127.0.0.3') },
  { title: 'allow + XFF: forwarded address allowed', path: '/', headers: on('ipr6.test', '127.0.0.4'), status: 200, upstreamHeaders: { 'X-Real-IP': '127.0.0.4' } },
  { title: 'allow + XFF: recursive walk past a trusted proxy', path: '/', headers: on('ipr6.test', '127.0.0.4, 127.0.0.3'), status: 200 },
  // An attacker prepends an allowed address: the untrusted hop to its right is the client.
  { title: 'allow + XFF: a forged left element behind an untrusted hop', path: '/', headers: on('ipr6.test', '127.0.0.4, 10.9.9.9'), status: 403, message: denied('10.9.9.9') },
  { title: 'allow + XFF: repeated header lines read as one list', path: '/', headers: { Host: 'ipr6.test', 'X-Forwarded-For': ['127.0.0.4', '127.0.0.3'] }, status: 200 },
  { title: 'IPv6: denied', path: '/', headers: on('ipv6-1.test', '::1'), status: 403, message: denied('::1') },
  { title: 'IPv6: not denied', path: '/', headers: on('ipv6-1.test', '::3'), status: 200 },
  { title: 'IPv6: CIDR', path: '/', headers: on('ipv6-2.test', 'fe80::1'), status: 403, message: denied('fe80::1') },
  { title: 'IPv6: ::/0 allows IPv6', path: '/', headers: on('ipv6-3.test', '2001:db8::7'), status: 200 },
  { title: 'IPv6: ::/0 does not take in IPv4 clients', path: '/', headers: on('ipv6-3.test'), status: 403, message: denied('127.0.0.1') },
  { title: 'IPv6: deny over allow', path: '/', headers: on('ipv6-4.test', '::1'), status: 403, message: denied('::1') },
];

test('ip-restriction: Kong access spec cases on two workers, real_ip from trusted_ips', async (t) => {
  const g = await startPluginGateway(t, yml, ENV);
  for (const c of CASES) await checkCase(g, c);

  await t.test('a client outside trusted_ips cannot name another address', async () => {
    // Connecting from 127.0.0.2, which trusted_ips does not list: X-Forwarded-For is ignored.
    const from2 = new Agent({ localAddress: '127.0.0.2' });
    t.after(() => from2.close());
    const res = await request(`${g.proxy}/`, { dispatcher: from2, headers: { host: 'ipr6.test', 'x-forwarded-for': '127.0.0.4', connection: 'close' } });
    const body = (await res.body.json()) as { message: string };
    assert.equal(res.statusCode, 403);
    assert.equal(body.message, denied('127.0.0.2'));
  });
});
