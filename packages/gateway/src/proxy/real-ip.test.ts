// nginx's realip rules (ngx_http_realip_module, as Kong configures it from trusted_ips,
// real_ip_header and real_ip_recursive), as a table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IpSet } from './ip-set.ts';
import { realClientAddress, type RealIpSettings } from './real-ip.ts';

const settings = (trusted: string[] | undefined, header = 'x-forwarded-for', recursive = false): RealIpSettings => ({
  trusted: trusted === undefined ? undefined : new IpSet(trusted), header, recursive,
});

// [title, settings, socket address, raw headers, $remote_addr]
const CASES: [string, RealIpSettings, string, string[], string][] = [
  ['nothing trusted: the header is ignored', settings(undefined), '10.0.0.1', ['X-Forwarded-For', '1.1.1.1'], '10.0.0.1'],
  ['untrusted peer: the header is ignored', settings(['10.0.0.0/8']), '192.0.2.7', ['X-Forwarded-For', '1.1.1.1'], '192.0.2.7'],
  ['trusted peer, not recursive: the last element', settings(['10.0.0.0/8']), '10.0.0.1', ['X-Forwarded-For', '1.1.1.1, 10.0.0.2'], '10.0.0.2'],
  ['trusted peer, recursive: the rightmost untrusted', settings(['10.0.0.0/8'], 'x-forwarded-for', true), '10.0.0.1', ['X-Forwarded-For', '6.6.6.6, 1.1.1.1, 10.0.0.2'], '1.1.1.1'],
  ['recursive, all trusted: the leftmost', settings(['10.0.0.0/8'], 'x-forwarded-for', true), '10.0.0.1', ['X-Forwarded-For', '10.0.0.9, 10.0.0.2'], '10.0.0.9'],
  ['several X-Forwarded-For lines are one list', settings(['10.0.0.0/8'], 'x-forwarded-for', true), '10.0.0.1', ['X-Forwarded-For', '1.1.1.1', 'x-forwarded-for', '10.0.0.3'], '1.1.1.1'],
  ['no header: the peer', settings(['10.0.0.0/8']), '10.0.0.1', [], '10.0.0.1'],
  ['X-Real-IP, the default header', settings(['0.0.0.0/0', '::/0'], 'x-real-ip'), '127.0.0.1', ['X-Real-IP', '::1'], '::1'],
  ['a port is dropped', settings(['127.0.0.1'], 'x-real-ip'), '127.0.0.1', ['X-Real-IP', '192.0.2.1:5555'], '192.0.2.1'],
  ['bracketed IPv6 with a port', settings(['127.0.0.1'], 'x-real-ip'), '127.0.0.1', ['X-Real-IP', '[2001:db8::1]:443'], '2001:db8::1'],
  ['garbage: the peer stays', settings(['127.0.0.1'], 'x-real-ip'), '127.0.0.1', ['X-Real-IP', 'not-an-ip'], '127.0.0.1'],
  ['garbage left of a valid element stops the walk', settings(['10.0.0.0/8'], 'x-forwarded-for', true), '10.0.0.1', ['X-Forwarded-For', 'evil, 10.0.0.4'], '10.0.0.4'],
  ['IPv4-mapped peer matched as IPv4', settings(['127.0.0.1']), '::ffff:127.0.0.1', ['X-Forwarded-For', '1.1.1.1'], '1.1.1.1'],
  ['::/0 does not trust IPv4 peers', settings(['::/0']), '127.0.0.1', ['X-Forwarded-For', '1.1.1.1'], '127.0.0.1'],
];

for (const [title, s, socket, headers, expected] of CASES) {
  test(`realClientAddress: ${title}`, () => assert.equal(realClientAddress(socket, headers, s), expected));
}

test('IpSet keeps families apart and matches CIDRs written with host bits', () => {
  const set = new IpSet(['127.0.0.5/24', 'fe80::/8']);
  assert.equal(set.has('127.0.0.200'), true);
  assert.equal(set.has('127.0.1.1'), false);
  assert.equal(set.has('fe80::1'), true);
  assert.equal(set.has('::ffff:127.0.0.9'), true);
  assert.equal(set.has(''), false);
  assert.throws(() => new IpSet(['1.2.3.4/33']), /invalid ip or cidr range/);
});
