import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authHostOf, DEFAULTS, EsignConfigError, loadEsignConfig } from './config.ts';

test('defaults come from one place; DATA_DIR resolves against the working directory', () => {
  const config = loadEsignConfig({}, '/srv/signet');
  assert.deepEqual(config, {
    port: DEFAULTS.port,
    host: '127.0.0.1',
    publicUrl: 'https://localhost:8443',
    dataDir: '/srv/signet/var',
    databaseUrl: undefined,
    smtpUrl: undefined,
    sealP12File: undefined,
    sealP12Passphrase: undefined,
    tsa: undefined,
    sealLevel: 'B-B',
    connectAllowHttp: false,
    connectAllowPrivate: false,
    connectSecretKey: undefined,
    sendAllowance: 10_000,
  });
  assert.ok(Object.isFrozen(config));
});

test('every setting is read and normalised; PUBLIC_URL loses its trailing slash', () => {
  const config = loadEsignConfig({
    PORT: '3001', HOST: '0.0.0.0', PUBLIC_URL: 'https://sign.example.com/tenant-a/', DATA_DIR: '/data',
    DATABASE_URL: 'postgres://u@db/esign', SMTP_URL: 'smtp://mail:25', SEAL_P12_FILE: 'seal/prod.p12', SEAL_P12_PASSPHRASE: 's3cret',
  }, '/x');
  assert.deepEqual(config, {
    port: 3001, host: '0.0.0.0', publicUrl: 'https://sign.example.com/tenant-a', dataDir: '/data',
    databaseUrl: 'postgres://u@db/esign', smtpUrl: 'smtp://mail:25', sealP12File: '/x/seal/prod.p12', sealP12Passphrase: 's3cret', tsa: undefined, sealLevel: 'B-B',
    connectAllowHttp: false, connectAllowPrivate: false, connectSecretKey: undefined, sendAllowance: 10_000,
  });
  assert.equal(authHostOf(config.publicUrl), 'sign.example.com/tenant-a');
  assert.equal(authHostOf('http://127.0.0.1:3001'), '127.0.0.1:3001');
});

test('bad settings are all reported at once, each by name', () => {
  assert.throws(
    () => loadEsignConfig({ PORT: '70000', PUBLIC_URL: 'ftp://x', DATABASE_URL: 'mysql://db', SMTP_URL: 'nope' }, '/'),
    (err: unknown) => {
      assert.ok(err instanceof EsignConfigError);
      for (const name of ['PORT', 'PUBLIC_URL', 'DATABASE_URL', 'SMTP_URL']) assert.match(err.message, new RegExp(name));
      return true;
    },
  );
  assert.throws(() => loadEsignConfig({ PORT: '12abc' }, '/'), /PORT must be a port number/);
  assert.throws(() => loadEsignConfig({ SEAL_P12_PASSPHRASE: 'x' }, '/'), /SEAL_P12_PASSPHRASE is set but SEAL_P12_FILE is not/);
  assert.throws(() => loadEsignConfig({ PUBLIC_URL: 'https://x.example/?a=1' }, '/'), /must not carry a query/);
});

test('Connect settings: the SSRF allowances are explicit flags, the secret key is 32 bytes of base64', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const config = loadEsignConfig({ CONNECT_ALLOW_HTTP: '1', CONNECT_ALLOW_PRIVATE: 'true', CONNECT_SECRET_KEY: key }, '/');
  assert.equal(config.connectAllowHttp, true);
  assert.equal(config.connectAllowPrivate, true);
  assert.deepEqual(config.connectSecretKey, new Uint8Array(32).fill(7));
  assert.equal(loadEsignConfig({ CONNECT_ALLOW_HTTP: 'false' }, '/').connectAllowHttp, false);
  assert.throws(() => loadEsignConfig({ CONNECT_ALLOW_PRIVATE: 'yes' }, '/'), /CONNECT_ALLOW_PRIVATE must be 1\/true or 0\/false/);
  assert.throws(() => loadEsignConfig({ CONNECT_SECRET_KEY: Buffer.alloc(16).toString('base64') }, '/'), /CONNECT_SECRET_KEY must be 32 random bytes/);
});

test('SEND_ALLOWANCE: recipients per account in 24 hours, 10,000 unless set; a whole number of at least 1', () => {
  assert.equal(loadEsignConfig({}, '/').sendAllowance, 10_000);
  assert.equal(loadEsignConfig({ SEND_ALLOWANCE: ' 250 ' }, '/').sendAllowance, 250);
  for (const bad of ['0', '-5', '1.5', 'lots', '1e3']) assert.throws(() => loadEsignConfig({ SEND_ALLOWANCE: bad }, '/'), /SEND_ALLOWANCE must be a whole number of recipients per 24 hours/);
});

test('TSA settings: an http(s) URL without credentials in it; a username and password only with a URL', () => {
  assert.deepEqual(loadEsignConfig({ TSA_URL: 'https://tsa.example.com/rfc3161' }, '/').tsa, { url: 'https://tsa.example.com/rfc3161' });
  assert.deepEqual(loadEsignConfig({ TSA_URL: 'http://127.0.0.1:9/tsa', TSA_USERNAME: 'acme', TSA_PASSWORD: 'pw' }, '/').tsa, { url: 'http://127.0.0.1:9/tsa', username: 'acme', password: 'pw' });
  assert.throws(() => loadEsignConfig({ TSA_URL: 'ftp://tsa.example.com' }, '/'), /TSA_URL must use https: or http:/);
  assert.throws(() => loadEsignConfig({ TSA_URL: 'https://u:p@tsa.example.com' }, '/'), /TSA_URL must not carry credentials/);
  assert.throws(() => loadEsignConfig({ TSA_USERNAME: 'acme' }, '/'), /TSA_USERNAME\/TSA_PASSWORD are set but TSA_URL is not/);
  assert.throws(() => loadEsignConfig({ TSA_URL: 'https://tsa.example.com', TSA_PASSWORD: 'pw' }, '/'), /TSA_PASSWORD is set but TSA_USERNAME is not/);
  // HTTP Basic over plain http would hand the TSA password to anyone on the path; loopback is this machine.
  assert.throws(() => loadEsignConfig({ TSA_URL: 'http://tsa.example.com/rfc3161', TSA_USERNAME: 'acme', TSA_PASSWORD: 'pw' }, '/'), /TSA_USERNAME\/TSA_PASSWORD need an https: TSA_URL/);
  assert.deepEqual(loadEsignConfig({ TSA_URL: 'http://tsa.example.com/rfc3161' }, '/').tsa, { url: 'http://tsa.example.com/rfc3161' }, 'a TSA without credentials may be plain http (the token is signed)');
  assert.equal(loadEsignConfig({ TSA_URL: 'http://[::1]:9/tsa', TSA_USERNAME: 'acme', TSA_PASSWORD: 'pw' }, '/').tsa?.username, 'acme');
  // SEAL_LEVEL: B-LTA by default with a TSA; any level above B-B needs one.
  assert.equal(loadEsignConfig({ TSA_URL: 'https://tsa.example.com' }, '/').sealLevel, 'B-LTA');
  assert.equal(loadEsignConfig({ TSA_URL: 'https://tsa.example.com', SEAL_LEVEL: 'b-t' }, '/').sealLevel, 'B-T');
  assert.throws(() => loadEsignConfig({ SEAL_LEVEL: 'B-LT' }, '/'), /SEAL_LEVEL B-LT needs a timestamp authority: set TSA_URL/);
  assert.throws(() => loadEsignConfig({ TSA_URL: 'https://tsa.example.com', SEAL_LEVEL: 'B-LTV' }, '/'), /SEAL_LEVEL must be one of B-B, B-T, B-LT, B-LTA/);
});
