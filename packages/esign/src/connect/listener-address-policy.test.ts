import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertListener } from './guarded-lookup.ts';
import { assertListenerUrl, isForbiddenAddress, ListenerRefused } from './listener-address-policy.ts';

const STRICT = { allowHttp: false, allowPrivate: false };

test('isForbiddenAddress: loopback, private, link-local, unique-local, unspecified and mapped forms are refused', () => {
  const refused = [
    '127.0.0.1', '127.255.255.254', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::127.0.0.1', '64:ff9b::10.0.0.1', '[::1]',
    // Special-purpose IPv4 blocks that are not the public Internet either.
    '192.0.0.170', '192.0.2.1', '198.18.0.1', '198.19.255.254', '198.51.100.7', '203.0.113.9',
    // Other IPv6 ways into an IPv4 host or a local network: SIIT, 6to4, a site's own NAT64, Teredo; discard and documentation.
    '::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101:1::5', '64:ff9b:1::7f00:1', '64:ff9b:1:2::8.8.8.8',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', '100::1', '2001:db8::1',
  ];
  for (const ip of refused) assert.equal(isForbiddenAddress(ip), true, `${ip} must be refused`);
  const allowed = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '198.20.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2001:4860::8888'];
  for (const ip of allowed) assert.equal(isForbiddenAddress(ip), false, `${ip} is public`);
});

test('assertListenerUrl: https only, no credentials, IP literals normalised before the check', () => {
  assert.equal(assertListenerUrl('https://hooks.example.com/docusign', STRICT).host, 'hooks.example.com');
  const refuses = (url: string, pattern: RegExp, policy = STRICT) => assert.throws(() => assertListenerUrl(url, policy), (err: unknown) => err instanceof ListenerRefused && pattern.test(err.message), url);
  refuses('http://hooks.example.com/', /must use https/);
  refuses('ftp://hooks.example.com/', /must use https/);
  refuses('not a url', /not an absolute URL/);
  refuses('https://user:pw@hooks.example.com/', /credentials/);
  refuses('https://127.0.0.1/', /not public/);
  refuses('https://2130706433/', /127\.0\.0\.1 .*not public/);
  refuses('https://0x7f.1/', /not public/);
  // The other spellings of loopback and "this host" an attacker might try; all normalise first.
  for (const url of ['https://017700000001/', 'https://127.1/', 'https://127.0.0.1./', 'https://0/', 'https://0.0.0.0:443/', 'https://[::]/', 'https://[0:0:0:0:0:ffff:7f00:1]/', 'https://%31%32%37.0.0.1/']) refuses(url, /not public/);
  refuses('https://[::ffff:127.0.0.1]/', /not public/);
  refuses('https://[fd00::1]:8443/', /not public/);
  // The allowances, one at a time.
  assert.doesNotThrow(() => assertListenerUrl('http://hooks.example.com/', { allowHttp: true, allowPrivate: false }));
  refuses('http://127.0.0.1:9/', /not public/, { allowHttp: true, allowPrivate: false });
  assert.doesNotThrow(() => assertListenerUrl('http://127.0.0.1:9/', { allowHttp: true, allowPrivate: true }));
});

test('assertListener: every resolved address must be public (a name pointing inside is refused)', async () => {
  const dns: Record<string, string[]> = { 'public.example': ['93.184.216.34'], 'inside.example': ['93.184.216.34', '10.0.0.7'], 'rebind.example': ['::ffff:127.0.0.1'] };
  const resolve = (host: string) => (dns[host] ? Promise.resolve(dns[host]) : Promise.reject(new Error('ENOTFOUND')));
  assert.equal((await assertListener('https://public.example/hook', STRICT, resolve)).hostname, 'public.example');
  // One answer whether a name points inside, rebinds, or does not resolve at all, naming no
  // address: a tenant must not learn which internal names exist or where they point.
  const notPublic = (e: unknown) => e instanceof Error && e.message === 'The listener host is not a public address.';
  await assert.rejects(assertListener('https://inside.example/hook', STRICT, resolve), notPublic);
  await assert.rejects(assertListener('https://rebind.example/hook', STRICT, resolve), notPublic);
  await assert.rejects(assertListener('https://nowhere.example/hook', STRICT, resolve), notPublic);
  // A trailing dot is the same name to DNS, and judged by what it resolves to.
  await assert.rejects(assertListener('https://inside.example./hook', STRICT, (host) => resolve(host.replace(/\.$/, ''))), notPublic);
  // With private addresses allowed, no lookup is needed at all.
  await assert.doesNotReject(assertListener('https://nowhere.example/hook', { allowHttp: false, allowPrivate: true }, resolve));
  // A name whose DNS never answers does not hold the request: after the deadline it is refused like one that does not resolve.
  const started = Date.now();
  await assert.rejects(assertListener('https://slow.example/hook', STRICT, () => new Promise<string[]>(() => {}), 50), notPublic);
  assert.ok(Date.now() - started < 5_000);
});
