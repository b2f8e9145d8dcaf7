import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { ESIGN_ERRORS } from '../../src/errors.ts';
import { NOT_SUPPORTED_OPERATIONS } from '../../src/restapi/not-supported-operations.ts';
import { accessTokenFor } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, suiteContext, type Harness } from '../support/esign-harness.ts';
import { sdkRoutes, type SdkRoute } from '../support/sdk-api-routes.ts';

// Every operation of the account-level SDK apis (docusign-esign src/api/{AccountsApi,UsersApi,
// GroupsApi,BulkEnvelopesApi}.js) either reaches a handler that does it or is refused by name:
// an integrator reads which operation is not supported, never the answer an unknown URL gets.
const APIS = ['AccountsApi', 'UsersApi', 'GroupsApi', 'BulkEnvelopesApi'];


let h: Harness;
let admin: { accountId: string; userId: string; token: string };
const suite = suiteContext();
before(async () => {
  h = await startEsign(suite.ctx);
  const seed = await seedUserAndApp(h);
  admin = { accountId: seed.accountId, userId: seed.userId, token: await accessTokenFor(h, seed) };
});
after(() => suite.close());

/** The SDK's path with values in it: the admin's own account and user, a well-formed value elsewhere. */
function concrete(route: SdkRoute): string {
  const values: Record<string, string> = { accountId: admin.accountId, userId: admin.userId, logoType: 'primary', imageType: 'signature_image', langCode: 'de', bulkAction: 'resend', resourceContentType: 'sending', recipientPart: 'signer' };
  return `/restapi${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? randomUUID()))}`;
}

test('every AccountsApi, UsersApi, GroupsApi and BulkEnvelopesApi operation reaches a handler or a refusal that names it', async () => {
  const routes = APIS.flatMap(sdkRoutes);
  assert.ok(routes.length > 120, `walked ${routes.length} SDK operations`);
  const refused = new Set(NOT_SUPPORTED_OPERATIONS.map((o) => o.operation));
  const unknown: string[] = [];
  const unnamed: string[] = [];
  for (const route of routes) {
    // As the SDK sends every call: JSON content type, `{}` as the body of anything but a GET.
    const res = await h.app.inject({ method: route.method as 'GET', url: concrete(route), headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, ...(route.method === 'GET' ? {} : { payload: '{}' }) });
    const body = res.json<{ errorCode?: string; message?: string }>();
    const operation = `${route.api}.${route.name}`;
    if (res.statusCode === 404 && body.errorCode === 'RESOURCE_NOT_FOUND' && body.message === ESIGN_ERRORS.RESOURCE_NOT_FOUND.message) unknown.push(`${operation} ${route.method} ${route.path}`);
    // An administrator is never turned away by the guard: the answer is the operation's own.
    assert.notEqual(body.errorCode, 'USER_LACKS_PERMISSIONS', operation);
    if (refused.has(operation) && !(res.statusCode === 400 && body.errorCode === 'INVALID_REQUEST_PARAMETER' && body.message?.includes(`${operation} is not supported: `))) unnamed.push(`${operation}: ${res.statusCode} ${body.message ?? ''}`);
  }
  assert.deepEqual(unknown, []);
  assert.deepEqual(unnamed, []);
});

test('the refusal table names only SDK operations, on the SDK\'s own method and path', () => {
  const byName = new Map(APIS.flatMap(sdkRoutes).map((r) => [`${r.api}.${r.name}`, r]));
  for (const op of NOT_SUPPORTED_OPERATIONS) {
    const route = byName.get(op.operation);
    assert.ok(route, `${op.operation} is not an operation of ${APIS.join(', ')}`);
    assert.equal(op.method, route.method, op.operation);
    assert.equal(op.url, `/restapi${route.path.replace(/\{(\w+)\}/g, ':$1')}`, op.operation);
  }
  assert.equal(new Set(NOT_SUPPORTED_OPERATIONS.map((o) => o.operation)).size, NOT_SUPPORTED_OPERATIONS.length);
});

test('docs/esign-account-operations.md has a row for every operation, and says refused for each the table refuses', () => {
  const doc = readFileSync(new URL('../../../../docs/esign-account-operations.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  let api = '';
  for (const line of doc.split('\n')) {
    const heading = /^## (\w+)$/.exec(line);
    if (heading?.[1]) api = heading[1];
    const row = /^\| `(\w+)` \| `[A-Z]+ [^`]+` \| (.+) \|$/.exec(line);
    if (row?.[1] && row[2]) rows.set(`${api}.${row[1]}`, row[2]);
  }
  const missing = APIS.flatMap(sdkRoutes).map((r) => `${r.api}.${r.name}`).filter((name) => !rows.has(name));
  assert.deepEqual(missing, []);
  for (const op of NOT_SUPPORTED_OPERATIONS) assert.match(rows.get(op.operation) ?? '', /^refused by name/, op.operation);
});
