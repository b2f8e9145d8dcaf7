// redirect against a real two-worker gateway: cases from Kong's spec/03-plugins/45-redirect/
// (02-access_spec.lua: status codes, location with path and query, keep_incoming_path;
// 01-schema_spec.lua: the schema's errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';
import { startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const route = (host: string, config: string): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: redirect, config: ${config} }]`;
const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:${route('api1.redirect.test', "{ location: 'https://example.com' }")}${route('api2.redirect.test', "{ status_code: 302, location: 'https://example.com' }")}${route('api3.redirect.test', "{ location: 'https://example.com/path?foo=bar' }")}${route('api4.redirect.test', "{ location: 'https://example.com/some_path?foo=bar', keep_incoming_path: true }")}
`;

const CASES: PluginCase[] = [
  { title: 'default status code', path: '/status/200', headers: { Host: 'api1.redirect.test' }, status: 301, responseHeaders: { Location: 'https://example.com' } },
  { title: 'custom status code', path: '/status/200', headers: { Host: 'api2.redirect.test' }, status: 302 },
  { title: 'path and query in location', path: '/status/200', headers: { Host: 'api3.redirect.test' }, status: 301, responseHeaders: { Location: 'https://example.com/path?foo=bar' } },
  { title: 'keep_incoming_path', path: '/status/200?keep=this', headers: { Host: 'api4.redirect.test' }, status: 301, responseHeaders: { Location: 'https://example.com/status/200?keep=this' } },
  { title: 'keep_incoming_path without a query drops the location\'s', path: '/status/200', headers: { Host: 'api4.redirect.test' }, status: 301, responseHeaders: { Location: 'https://example.com/status/200' } },
  { title: 'a path cannot change the host', path: '//evil.test/x', headers: { Host: 'api4.redirect.test' }, status: 301, responseHeaders: { Location: 'https://example.com//evil.test/x' } },
];

test('redirect: Kong\'s access spec cases', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) {
    const res = await request(g.proxy + c.path, { headers: { ...c.headers, connection: 'close' } });
    const text = await res.body.text();
    assert.equal(res.statusCode, c.status, c.title);
    assert.equal(text, 'redirecting', `${c.title}: body`);
    assert.equal(res.headers['content-type'], undefined, `${c.title}: no Content-Type (Kong's default_type '')`);
    for (const [k, v] of Object.entries(c.responseHeaders ?? {})) assert.equal(res.headers[k.toLowerCase()], v, `${c.title}: ${k}`);
  }
  assert.equal(g.upstream.hits, 0, 'the upstream never sees a redirected request');
});

test('redirect: schema errors in Kong\'s words', () => {
  const fields = (config: string): unknown => {
    try {
      parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: redirect, config: ${config} }]\n`);
    } catch (e) {
      if (e instanceof GatewayError) return (e.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw e;
    }
    return undefined;
  };
  assert.deepEqual(fields("{ status_code: abcd, location: 'https://example.com' }"), { status_code: 'expected an integer' });
  assert.deepEqual(fields("{ status_code: null, location: 'https://example.com' }"), { status_code: 'required field missing' });
  assert.deepEqual(fields("{ status_code: 99, location: 'https://example.com' }"), { status_code: 'value should be between 100 and 599' });
  assert.deepEqual(fields("{ status_code: 600, location: 'https://example.com' }"), { status_code: 'value should be between 100 and 599' });
  assert.deepEqual(fields('{ status_code: 301 }'), { location: 'required field missing' });
  assert.deepEqual(fields("{ location: 'example.com' }"), { location: 'missing host in url' });
  assert.deepEqual(fields("{ location: '//example.com' }"), { location: 'missing scheme in url' });
  assert.equal(fields("{ status_code: 404, location: 'https://example.com' }"), undefined);
});
