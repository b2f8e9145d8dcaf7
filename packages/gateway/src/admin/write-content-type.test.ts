import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.ts';
import { checkWriteContentType } from './write-content-type.ts';

const check = (method: string, pathname: string, headers: IncomingHttpHeaders, formsAllowed = false): string | undefined => {
  const rawHeaders = Object.entries(headers).flatMap(([k, v]) => [k, String(v)]);
  try {
    checkWriteContentType({ method, pathname, headers, rawHeaders }, formsAllowed);
    return undefined;
  } catch (e) {
    assert.ok(e instanceof GatewayError);
    return e.code;
  }
};

test('writes carry JSON (and YAML on /config); reads and body-less writes pass', () => {
  assert.equal(check('GET', '/config', { 'content-type': 'text/plain', 'content-length': '5' }), undefined);
  assert.equal(check('POST', '/config', { 'content-type': 'text/yaml; charset=utf-8', 'content-length': '5' }), undefined);
  assert.equal(check('POST', '/config/', { 'content-type': 'Application/X-YAML', 'content-length': '5' }), undefined);
  assert.equal(check('POST', '/services', { 'content-type': 'application/json', 'content-length': '2' }), undefined);
  assert.equal(check('POST', '/upstreams/u/targets/t/unhealthy', {}), undefined);
  assert.equal(check('POST', '/upstreams/u/targets/t/unhealthy', { 'content-length': '0' }), undefined);
  assert.equal(check('DELETE', '/services/x', {}), undefined);
  for (const [method, path, type] of [
    ['POST', '/config', 'application/x-www-form-urlencoded'], ['POST', '/config', 'multipart/form-data; boundary=x'],
    ['POST', '/config', 'text/plain'], ['POST', '/services', 'text/yaml'], ['PUT', '/services/x', 'text/plain'],
    ['PATCH', '/services/x', 'application/x-www-form-urlencoded'], ['DELETE', '/services/x', 'text/plain'],
    ['POST', '/upstreams/u/targets/t/unhealthy', 'application/x-www-form-urlencoded'],
  ] as const) {
    assert.equal(check(method, path, { 'content-type': type, 'content-length': '0' }), 'UNSUPPORTED_MEDIA_TYPE', `${method} ${path} ${type}`);
  }
  assert.equal(check('POST', '/config', { 'content-length': '5' }), 'UNSUPPORTED_MEDIA_TYPE');
  assert.equal(check('POST', '/config', { 'transfer-encoding': 'chunked' }), 'UNSUPPORTED_MEDIA_TYPE');
});

test('with a valid admin token: Kong\'s rule (JSON, forms, YAML on /config; 415 otherwise)', () => {
  const with5 = (method: string, path: string, type: string | undefined) => check(method, path, type === undefined ? { 'content-length': '5' } : { 'content-type': type, 'content-length': '5' }, true);
  assert.equal(with5('POST', '/config', 'multipart/form-data; boundary=x'), undefined);
  assert.equal(with5('POST', '/config', 'application/x-www-form-urlencoded'), undefined);
  assert.equal(with5('POST', '/services', 'application/x-www-form-urlencoded'), undefined);
  assert.equal(with5('POST', '/config', 'text/yaml'), undefined);
  assert.equal(with5('POST', '/services', 'text/yaml'), 'UNSUPPORTED_MEDIA_TYPE');
  assert.equal(with5('POST', '/config', 'text/plain'), 'UNSUPPORTED_MEDIA_TYPE');
  assert.equal(with5('POST', '/config', undefined), 'UNSUPPORTED_MEDIA_TYPE');
});

test('repeated Content-Type headers: Kong\'s 400', () => {
  assert.throws(
    () => checkWriteContentType({ method: 'POST', pathname: '/config', headers: { 'content-type': 'text/yaml' }, rawHeaders: ['Content-Type', 'text/yaml', 'content-type', 'text/plain'] }, true),
    (e: unknown) => e instanceof GatewayError && e.code === 'MULTIPLE_CONTENT_TYPES' && e.status === 400,
  );
});
