import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../config.ts';
import { readStartSettings } from './read-start-settings.ts';

const files: Record<string, string> = { '/run/admin-token': 'tok-0123456789abcdef\n', '/tls/cert.pem': '-----BEGIN CERTIFICATE-----\nX\n', '/tls/key.pem': '-----BEGIN PRIVATE KEY-----\nY\n' };
const readText = (path: string): Promise<string> => {
  const text = files[path];
  return text === undefined ? Promise.reject(new Error('ENOENT')) : Promise.resolve(text);
};

test('flags win over KONG_* env; cert paths are read', async () => {
  const settings = await readStartSettings(
    ['--config', 'kong.yml', '--proxy-listen=127.0.0.1:9000', '--workers', '2'],
    { KONG_PROXY_LISTEN: '0.0.0.0:8000', KONG_ADMIN_LISTEN: 'off', KONG_SSL_CERT: '/tls/cert.pem', KONG_SSL_CERT_KEY: '/tls/key.pem', REDIS_URL: 'redis://r:6379' },
    readText,
  );
  assert.deepEqual(settings, {
    declarative_config: 'kong.yml',
    proxy_listen: '127.0.0.1:9000',
    admin_listen: 'off',
    nginx_worker_processes: '2',
    ssl_cert: files['/tls/cert.pem'],
    ssl_cert_key: files['/tls/key.pem'],
    redis_url: 'redis://r:6379',
    supervised: false,
  });
});

test('env alone: KONG_DECLARATIVE_CONFIG and PEM text as is', async () => {
  const settings = await readStartSettings([], { KONG_DECLARATIVE_CONFIG: '/k.yml', KONG_SSL_CERT: '-----BEGIN CERTIFICATE-----\nZ' }, readText);
  assert.deepEqual(settings, { declarative_config: '/k.yml', ssl_cert: '-----BEGIN CERTIFICATE-----\nZ', supervised: false });
});

test('SIGNET_STOP_WITH_PARENT=1 (set by npm start\'s supervisor) marks the node supervised; other values are refused', async () => {
  assert.equal((await readStartSettings([], { SIGNET_STOP_WITH_PARENT: '1' }, readText)).supervised, true);
  await assert.rejects(readStartSettings([], { SIGNET_STOP_WITH_PARENT: 'yes' }, readText), (e: unknown) => e instanceof ConfigError && e.setting === 'SIGNET_STOP_WITH_PARENT');
});

test('bad options name the setting', async () => {
  await assert.rejects(readStartSettings(['--nope'], {}, readText), (e: unknown) => e instanceof ConfigError && e.setting === '--nope');
  await assert.rejects(readStartSettings(['--config'], {}, readText), /--config: needs a value/);
  await assert.rejects(readStartSettings(['--ssl-cert', '/missing.pem'], {}, readText), /ssl_cert: cannot read \/missing.pem/);
});

test('the admin token: KONG_ADMIN_TOKEN, or the text of KONG_ADMIN_TOKEN_FILE; not both', async () => {
  assert.equal((await readStartSettings([], { KONG_ADMIN_TOKEN: 'tok-from-env-0123456' }, readText)).admin_token, 'tok-from-env-0123456');
  assert.equal((await readStartSettings([], { KONG_ADMIN_TOKEN_FILE: '/run/admin-token' }, readText)).admin_token, 'tok-0123456789abcdef');
  assert.equal('admin_token' in (await readStartSettings([], { KONG_ADMIN_TOKEN: '' }, readText)), false);
  await assert.rejects(readStartSettings([], { KONG_ADMIN_TOKEN: 'x', KONG_ADMIN_TOKEN_FILE: '/run/admin-token' }, readText), /not both/);
  await assert.rejects(readStartSettings([], { KONG_ADMIN_TOKEN_FILE: '/missing' }, readText), (e: unknown) => e instanceof ConfigError && e.setting === 'admin_token_file');
});

test('KONG_NGINX_PROXY_UNDERSCORES_IN_HEADERS: Kong\'s injected directive, read from the env', async () => {
  const settings = await readStartSettings([], { KONG_NGINX_PROXY_UNDERSCORES_IN_HEADERS: 'off' }, readText);
  assert.equal(settings.nginx_proxy_underscores_in_headers, 'off');
});

test('KONG_NGINX_MAIN_WORKER_CPU_AFFINITY or --worker-cpu-affinity: Kong\'s injected nginx_main directive; the flag wins', async () => {
  assert.equal((await readStartSettings([], { KONG_NGINX_MAIN_WORKER_CPU_AFFINITY: 'auto' }, readText)).nginx_main_worker_cpu_affinity, 'auto');
  assert.equal((await readStartSettings(['--worker-cpu-affinity', '01 10'], { KONG_NGINX_MAIN_WORKER_CPU_AFFINITY: 'auto' }, readText)).nginx_main_worker_cpu_affinity, '01 10');
});
