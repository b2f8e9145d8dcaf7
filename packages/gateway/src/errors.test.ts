import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GATEWAY_ERROR_CATALOG, GatewayError, negotiateErrorFormat, renderKongError } from './errors.ts';

test('catalog rows the data plane relies on carry Kong\'s statuses and words', () => {
  const rows: [keyof typeof GATEWAY_ERROR_CATALOG, number, string][] = [
    ['NO_ROUTE', 404, 'no Route matched with those values'],
    ['NO_PEER', 503, 'failure to get a peer from the ring-balancer'],
    ['NAME_RESOLUTION', 503, 'name resolution failed'],
    ['UPSTREAM_TIMEOUT', 504, 'The upstream server is timing out'],
    ['BAD_GATEWAY', 502, 'An invalid response was received from the upstream server'],
    ['UNEXPECTED', 500, 'An unexpected error occurred'],
    ['NOT_FOUND', 404, 'Not found'],
    ['METHOD_NOT_ALLOWED', 405, 'Method not allowed'],
    ['HTTPS_REQUIRED', 426, 'Please use HTTPS protocol'],
  ];
  for (const [code, status, message] of rows) {
    assert.deepEqual([GATEWAY_ERROR_CATALOG[code].status, GATEWAY_ERROR_CATALOG[code].message], [status, message], code);
    assert.deepEqual(new GatewayError(code).toBody(), { message });
  }
});

test('DAO errors carry Kong\'s code and name; 5xx never expose a custom message', () => {
  assert.deepEqual(new GatewayError('SCHEMA_VIOLATION', { message: 'schema violation (host: required field missing)', fields: { host: 'required field missing' } }).toBody(), {
    code: 2, name: 'schema violation', message: 'schema violation (host: required field missing)', fields: { host: 'required field missing' },
  });
  assert.deepEqual(new GatewayError('OPERATION_UNSUPPORTED', { message: "cannot create 'services' entities when not using a database" }).toBody(), {
    code: 12, name: 'operation unsupported', message: "cannot create 'services' entities when not using a database",
  });
  assert.equal(new GatewayError('DECLARATIVE_CONFIG').toBody().code, 14);
  assert.deepEqual(new GatewayError('UNEXPECTED', { message: 'db password is hunter2' }).toBody(), { message: 'An unexpected error occurred' });
});

test('Accept negotiation follows kong/tools/http.lua get_response_type', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'json'],
    ['text/html', 'html'],
    ['application/xml', 'xml'],
    ['text/plain', 'plain'],
    ['text/*', 'plain'],
    ['application/*', 'json'],
    ['*/*', 'json'],
    ['image/png', 'json'],
    ['text/html;q=0.5, application/xml;q=0.9', 'xml'],
    ['text/html, application/xml', 'html'],
    ['garbage', 'json'],
  ];
  for (const [accept, format] of cases) assert.equal(negotiateErrorFormat(accept), format, String(accept));
});

test('rendered bodies are Kong\'s default templates', () => {
  const msg = 'no Route matched with those values';
  assert.deepEqual(renderKongError(msg, undefined, 'abc'), {
    contentType: 'application/json; charset=utf-8',
    body: '{\n  "message":"no Route matched with those values",\n  "request_id":"abc"\n}',
  });
  assert.deepEqual(renderKongError(msg, 'text/plain', 'abc'), {
    contentType: 'text/plain; charset=utf-8',
    body: 'no Route matched with those values\nrequest_id: abc\n',
  });
  assert.equal(
    renderKongError(msg, 'text/html', 'abc').body,
    '<!doctype html>\n<html>\n  <head>\n    <meta charset="utf-8">\n    <title>Error</title>\n  </head>\n  <body>\n' +
      '    <h1>Error</h1>\n    <p>no Route matched with those values.</p>\n    <p>request_id: abc</p>\n  </body>\n</html>\n',
  );
  assert.deepEqual(renderKongError(msg, 'application/xml', 'abc'), {
    contentType: 'application/xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="UTF-8"?>\n<error>\n  <message>no Route matched with those values</message>\n  <requestid>abc</requestid>\n</error>\n',
  });
  assert.deepEqual(JSON.parse(renderKongError('say "hi"', undefined, 'r').body), { message: 'say "hi"', request_id: 'r' });
});

test('every catalog code is documented in docs/gateway-config.md (house style: the catalog is the doc)', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../../docs/gateway-config.md', import.meta.url), 'utf8');
  const missing = Object.keys(GATEWAY_ERROR_CATALOG).filter((code) => !new RegExp(`^\\| ${code}\\b`, 'm').test(doc));
  assert.deepEqual(missing, [], 'add a row for each to the "Error catalog" table of docs/gateway-config.md');
});
