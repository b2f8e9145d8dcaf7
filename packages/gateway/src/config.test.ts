import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGatewayConfig, ConfigError, parseListen } from './config.ts';

test('parseListen: Kong listen syntax', () => {
  assert.deepEqual(parseListen('127.0.0.1:8000, 127.0.0.1:8443 ssl', 'proxy_listen'), [
    { host: '127.0.0.1', port: 8000, ssl: false },
    { host: '127.0.0.1', port: 8443, ssl: true },
  ]);
  // Kong's kong.conf.default listener: reuseport and backlog are honoured (src/listen/).
  assert.deepEqual(parseListen('0.0.0.0:8443 http2 ssl reuseport backlog=16384', 'proxy_listen'), [{ host: '0.0.0.0', port: 8443, ssl: true, http2: true, reuseport: true, backlog: 16384 }]);
  // nginx's socket flags, honoured (src/listen/listen-on.ts); `bind` is how every address listens here.
  assert.deepEqual(parseListen('127.0.0.1:8000 deferred bind so_keepalive=on', 'proxy_listen'), [{ host: '127.0.0.1', port: 8000, ssl: false, deferred: true, keepalive: {} }]);
  assert.deepEqual(parseListen('[::]:8000 ipv6only=on so_keepalive=30m::10, [::]:8001 ipv6only=off so_keepalive=off', 'proxy_listen'), [
    { host: '::', port: 8000, ssl: false, ipv6only: true, keepalive: { idleS: 1800, count: 10 } },
    { host: '::', port: 8001, ssl: false, ipv6only: false },
  ]);
  assert.deepEqual(parseListen('127.0.0.1:8000 so_keepalive=90:15s:3', 'stream_listen'), [{ host: '127.0.0.1', port: 8000, ssl: false, keepalive: { idleS: 90, intervalS: 15, count: 3 } }]);
  assert.deepEqual(parseListen('[::1]:8001', 'admin_listen'), [{ host: '::1', port: 8001, ssl: false }]);
  assert.deepEqual(parseListen('off', 'admin_listen'), []);
});

const bad: [string, string, RegExp][] = [
  ['8000', 'proxy_listen', /proxy_listen: invalid listen address '8000'/],
  ['127.0.0.1:70000', 'proxy_listen', /port 70000/],
  ['127.0.0.1:8000 proxy_protocol', 'proxy_listen', /unsupported listen flag 'proxy_protocol'/],
  // nginx's cleartext http2 listener would speak h2c only, turning HTTP/1.1 clients away.
  ['127.0.0.1:8000 http2', 'proxy_listen', /'127.0.0.1:8000 http2': the http2 flag needs 'ssl' here/],
  ['127.0.0.1:8001 http2', 'admin_listen', /the http2 flag needs 'ssl'/],
  ['127.0.0.1:9000 http2 ssl', 'stream_listen', /unsupported listen flag 'http2' \(only proxy_listen serves HTTP\/2\)/],
  ['127.0.0.1:8000 backlog=0', 'proxy_listen', /'backlog=0': the backlog must be between 1 and 2147483647/],
  ['127.0.0.1:8000 backlog=4096x', 'proxy_listen', /unsupported listen flag 'backlog=4096x'/],
  // Flags that were once taken and dropped are refused when they cannot be honoured.
  ['127.0.0.1:8000 ipv6only=on', 'proxy_listen', /'127.0.0.1:8000 ipv6only=on': ipv6only applies to an IPv6 address/],
  ['localhost:8000 ipv6only=off', 'proxy_listen', /ipv6only applies to an IPv6 address/],
  ['[127.0.0.1]:8000 ipv6only=on', 'proxy_listen', /'\[127.0.0.1\]:8000 ipv6only=on': ipv6only applies to an IPv6 address/],
  ['[::]:8000 ipv6only=yes', 'proxy_listen', /unsupported listen flag 'ipv6only=yes'/],
  ['127.0.0.1:8000 so_keepalive=yes', 'proxy_listen', /'so_keepalive=yes': expected on, off or idle:interval:count/],
  ['127.0.0.1:8000 so_keepalive=30m:10', 'proxy_listen', /expected on, off or idle:interval:count/],
  ['127.0.0.1:8000 so_keepalive=0::', 'proxy_listen', /the idle time must be a time between 1s and 32767s/],
  ['127.0.0.1:8000 so_keepalive=:10h:', 'proxy_listen', /the interval must be a time between 1s and 32767s/],
  ['127.0.0.1:8000 so_keepalive=1m::200', 'proxy_listen', /the count must be between 1 and 127/],
  ['127.0.0.1:8000 so_keepalive=1ms::', 'proxy_listen', /the idle time must be/],
];
for (const [value, setting, message] of bad) {
  test(`parseListen rejects ${value}`, () => {
    assert.throws(() => parseListen(value, setting), (e: unknown) => e instanceof ConfigError && e.setting === setting && message.test(e.message));
  });
}

test('buildGatewayConfig: defaults, workers, certificate pairing', () => {
  const config = buildGatewayConfig({});
  // Kong's kong.conf.default: HTTP/2 on the TLS proxy listener.
  assert.deepEqual(config.proxyListen, [{ host: '0.0.0.0', port: 8000, ssl: false }, { host: '0.0.0.0', port: 8443, ssl: true, http2: true }]);
  assert.deepEqual(config.adminListen, [{ host: '127.0.0.1', port: 8001, ssl: false }]);
  assert.ok(config.workers >= 1);
  assert.equal(buildGatewayConfig({ nginx_worker_processes: '3' }).workers, 3);
  assert.throws(() => buildGatewayConfig({ nginx_worker_processes: 'two' }), /nginx_worker_processes/);
  assert.throws(() => buildGatewayConfig({ proxy_listen: 'off' }), /proxy_listen/);
  assert.throws(() => buildGatewayConfig({ ssl_cert: '-----BEGIN CERTIFICATE-----' }), /ssl_cert_key: ssl_cert and ssl_cert_key must be set together/);
  assert.throws(() => buildGatewayConfig({ ssl_cert: 'nope', ssl_cert_key: '-----BEGIN PRIVATE KEY-----' }), /ssl_cert: not a PEM certificate/);
  assert.ok(Object.isFrozen(config));
});

test('buildGatewayConfig: deferred with more than one worker needs reuseport (the listening socket must be the worker\'s own)', () => {
  assert.equal(buildGatewayConfig({ proxy_listen: '127.0.0.1:8000 deferred', nginx_worker_processes: '1' }).proxyListen[0]?.deferred, true);
  assert.equal(buildGatewayConfig({ proxy_listen: '127.0.0.1:8000 deferred reuseport', nginx_worker_processes: '2' }).workers, 2);
  assert.equal(buildGatewayConfig({ admin_listen: '127.0.0.1:8001 deferred', nginx_worker_processes: '2' }).adminListen[0]?.deferred, true, 'the admin API listens in one process');
  for (const [setting, settings, at] of [
    ['proxy_listen', { proxy_listen: '127.0.0.1:8000 deferred' }, '127.0.0.1:8000'],
    ['stream_listen', { stream_listen: '[::1]:9000 deferred' }, '[::1]:9000'],
  ] as const) {
    assert.throws(() => buildGatewayConfig({ ...settings, nginx_worker_processes: '2' }), (e: unknown) =>
      e instanceof ConfigError && e.setting === setting && e.message === `${setting}: '${at} deferred': with node:cluster's round-robin the listening socket is the primary's; add 'reuseport' so each worker has its own`);
  }
});

test('buildGatewayConfig: reuseport on port 0 needs one worker (each worker binds its own socket)', () => {
  assert.equal(buildGatewayConfig({ proxy_listen: '127.0.0.1:0 reuseport', nginx_worker_processes: '1' }).proxyListen[0]?.reuseport, true);
  assert.equal(buildGatewayConfig({ proxy_listen: '127.0.0.1:8000 reuseport', nginx_worker_processes: '2' }).workers, 2);
  assert.equal(buildGatewayConfig({ proxy_listen: '127.0.0.1:0', nginx_worker_processes: '2' }).workers, 2);
  for (const [setting, settings] of [
    ['proxy_listen', { proxy_listen: '127.0.0.1:8000, 127.0.0.1:0 reuseport' }],
    ['stream_listen', { stream_listen: '127.0.0.1:0 reuseport' }],
  ] as const) {
    assert.throws(
      () => buildGatewayConfig({ ...settings, nginx_worker_processes: '2' }),
      (e: unknown) => e instanceof ConfigError && e.setting === setting && /'127\.0\.0\.1:0 reuseport': with 2 workers each would listen on a port of its own/.test(e.message),
    );
  }
});

test('buildGatewayConfig: the admin API off loopback needs a token; no ssl on the admin listener', () => {
  for (const listen of ['127.0.0.1:8001', '127.0.0.2:0', '[::1]:8001', 'localhost:8001', 'off']) {
    assert.equal(buildGatewayConfig({ admin_listen: listen }).adminToken, undefined, listen);
  }
  for (const listen of ['0.0.0.0:8001', '[::]:8001', '10.1.2.3:8001', 'admin.internal:8001', '127.0.0.1:8001, 0.0.0.0:8002']) {
    assert.throws(
      () => buildGatewayConfig({ admin_listen: listen }),
      (e: unknown) => e instanceof ConfigError && e.setting === 'admin_listen' && /is not a loopback address.*KONG_ADMIN_TOKEN or KONG_ADMIN_TOKEN_FILE/.test(e.message),
      listen,
    );
  }
  assert.throws(() => buildGatewayConfig({ admin_listen: '127.0.0.1:8444 ssl' }), /admin_listen: 127\.0\.0\.1:8444: the admin API serves plain HTTP only/);
});

test('buildGatewayConfig: Kong real_ip settings, validated at start', () => {
  const base = { proxy_listen: '127.0.0.1:0', admin_listen: 'off' };
  assert.equal(buildGatewayConfig(base).realIp, undefined);
  const r = buildGatewayConfig({ ...base, trusted_ips: '10.0.0.0/8, ::1', real_ip_header: 'X-Forwarded-For', real_ip_recursive: 'on' }).realIp;
  assert.equal(r?.header, 'x-forwarded-for');
  assert.equal(r?.recursive, true);
  assert.equal(r?.trusted?.has('10.2.3.4'), true);
  assert.equal(r?.trusted?.has('::1'), true);
  assert.equal(r?.trusted?.has('11.0.0.1'), false);
  const bad: [Record<string, string>, string, RegExp][] = [
    [{ trusted_ips: '10.0.0.0/33' }, 'trusted_ips', /IPv4 or IPv6 address or CIDR block, got '10.0.0.0\/33'/],
    [{ trusted_ips: 'unix:' }, 'trusted_ips', /'unix:' is not supported/],
    [{ real_ip_header: 'proxy_protocol' }, 'real_ip_header', /PROXY protocol/],
    [{ real_ip_header: 'X Bad' }, 'real_ip_header', /not a header name/],
    [{ real_ip_recursive: 'yes' }, 'real_ip_recursive', /expected "on" or "off"/],
  ];
  for (const [settings, setting, message] of bad) {
    assert.throws(() => buildGatewayConfig({ ...base, ...settings }), (e: unknown) => e instanceof ConfigError && e.setting === setting && message.test(e.message));
  }
});

test('buildGatewayConfig: REDIS_URL is read once at start; a bad one stops start naming it', () => {
  assert.deepEqual(buildGatewayConfig({ redis_url: 'redis://127.0.0.1:6390/1' }).redis, { host: '127.0.0.1', port: 6390, database: 1, ssl: false });
  assert.equal(buildGatewayConfig({}).redis, undefined);
  assert.throws(() => buildGatewayConfig({ redis_url: 'localhost:6379' }), (e: unknown) => e instanceof ConfigError && e.setting === 'REDIS_URL' && /expected redis:\/\//.test(e.message));
});

test('buildGatewayConfig: nginx_proxy_underscores_in_headers (Kong\'s template: on)', () => {
  assert.equal(buildGatewayConfig({}).underscoresInHeaders, undefined, 'absent: on, as Kong');
  assert.equal(buildGatewayConfig({ nginx_proxy_underscores_in_headers: 'off' }).underscoresInHeaders, false);
  assert.equal(buildGatewayConfig({ nginx_proxy_underscores_in_headers: 'on' }).underscoresInHeaders, undefined);
  assert.throws(
    () => buildGatewayConfig({ nginx_proxy_underscores_in_headers: 'no' }),
    (e: unknown) => e instanceof ConfigError && e.setting === 'nginx_proxy_underscores_in_headers' && /expected "on" or "off", got 'no'/.test(e.message),
  );
});

test('buildGatewayConfig: nginx_main_worker_cpu_affinity (unset in Kong: workers unbound)', () => {
  assert.equal(buildGatewayConfig({}).workerCpuAffinity, undefined);
  assert.deepEqual(buildGatewayConfig({ nginx_main_worker_cpu_affinity: 'auto' }).workerCpuAffinity, { kind: 'auto' });
  assert.throws(
    () => buildGatewayConfig({ nginx_main_worker_cpu_affinity: 'yes' }),
    (e: unknown) => e instanceof ConfigError && e.setting === 'nginx_main_worker_cpu_affinity' && /expected "auto", "auto <mask>" or a binary CPU mask per worker/.test(e.message),
  );
});
