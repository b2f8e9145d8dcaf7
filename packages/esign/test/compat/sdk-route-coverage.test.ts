import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { deniedBecause, routeNeed } from '../../src/domain/users/route-permission.ts';
import { DEFAULT_PROFILES, rightsOf, type Rights } from '../../src/domain/users/role-settings.ts';
import { ESIGN_ERRORS } from '../../src/errors.ts';
import { ACCOUNT } from '../../src/restapi/not-supported-operation.ts';
import { NOT_SUPPORTED_ENVELOPE_OPERATIONS } from '../../src/restapi/not-supported-envelope-operations.ts';
import { NOT_SUPPORTED_OPERATIONS, type NotSupportedOperation } from '../../src/restapi/not-supported-operations.ts';
import { NOT_SUPPORTED_OTHER_OPERATIONS } from '../../src/restapi/not-supported-other-operations.ts';
import { NOT_SUPPORTED_TEMPLATE_OPERATIONS } from '../../src/restapi/not-supported-template-operations.ts';
import { accessTokenFor } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, suiteContext, type Harness } from '../support/esign-harness.ts';
import { sdkRoutes, type SdkRoute } from '../support/sdk-api-routes.ts';

// Every operation of the SDK's apis (docusign-esign src/api/<Api>.js, read from the files
// themselves) either reaches a handler that does it or is refused by name: an integrator reads
// which operation is not supported, never the answer an unknown URL gets. Each docs page lists
// its apis' operations, built or refused; every api of the SDK is on one.
const PAGES = {
  'esign-account-operations.md': ['AccountsApi', 'UsersApi', 'GroupsApi', 'BulkEnvelopesApi'],
  'esign-envelope-operations.md': ['EnvelopesApi', 'TemplatesApi'],
  'esign-other-operations.md': ['AuthenticationApi', 'BillingApi', 'BulkProcessDataApi', 'BulkProcessDataSendApi', 'CloudStorageApi', 'ConnectApi', 'CustomTabsApi', 'DataFeedApi', 'DiagnosticsApi', 'EmailArchiveApi', 'EnvelopeApplianceApi', 'FoldersApi', 'NotaryApi', 'OrganizationsApi', 'PowerFormsApi', 'SignatureApi', 'SigningGroupsApi', 'TrustServiceProvidersApi', 'WorkspacesApi'],
} as const;
const APIS = Object.values(PAGES).flat();
/**
 * AuthenticationApi's two OAuth calls, which the SDK sends under /restapi/v2.1/oauth2: OAuth is the
 * OAuth server's (/oauth/token, /oauth/revoke; docs/esign-oauth.md), not the REST API's, so they are
 * not walked; their page says where OAuth is.
 */
const OAUTH = new Set(['AuthenticationApi.getOAuthToken', 'AuthenticationApi.revokeOAuthToken']);
/** The SDK's operations this test walks: every one of its apis' but OAuth's. */
const walked = () => APIS.flatMap(sdkRoutes).filter((r) => !OAUTH.has(`${r.api}.${r.name}`));

type Caller = { accountId: string; userId: string; token: string };
type Answer = { status: number; body: { errorCode?: string; message?: string } };

let h: Harness;
let admin: Caller;
const suite = suiteContext();
before(async () => {
  // Every operation is sent several times over: DocuSign's rate limits are not what is tested.
  h = await startEsign(suite.ctx, { deps: { apiRateLimits: { hourly: 1_000_000, burst: 1_000_000, burstWindowMs: 30_000 } } });
  const seed = await seedUserAndApp(h);
  admin = { accountId: seed.accountId, userId: seed.userId, token: await accessTokenFor(h, seed) };
});
after(() => suite.close());

/** A path template (`{name}` or `:name`) with values in it: the admin's own account and user, a well-formed value elsewhere. */
function fill(path: string, given: Record<string, string> = {}): string {
  const values: Record<string, string> = { accountId: admin.accountId, userId: admin.userId, logoType: 'primary', imageType: 'signature_image', langCode: 'de', bulkAction: 'resend', resourceContentType: 'sending', recipientPart: 'signer', documentId: '1', recipientId: '1', pageNumber: '1', templatePart: 'groups', chunkedUploadPartSeq: '0', processAction: 'send', loginPart: 'password', searchFolderId: 'drafts', ...given };
  return path.replace(/\{(\w+)\}|:(\w+)/g, (_m, braced?: string, colon?: string) => encodeURIComponent(values[braced ?? colon ?? ''] ?? randomUUID()));
}

const sdkPattern = (route: SdkRoute) => `/restapi${route.path.replace(/\{(\w+)\}/g, ':$1')}`;

/** As the SDK sends every call: JSON content type, `{}` as the body of anything but a GET. */
async function send(method: string, url: string, authorization?: string): Promise<Answer> {
  const res = await h.app.inject({ method: method as 'GET', url, headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' }, ...(method === 'GET' ? {} : { payload: '{}' }) });
  return { status: res.statusCode, body: res.json<Answer['body']>() };
}

const refusalOf = (operation: string, body: Answer['body']) => body.errorCode === 'INVALID_REQUEST_PARAMETER' && body.message?.includes(`${operation} is not supported: `) === true;

test('every api of the SDK is on a docs page', () => {
  const sdkApis = readdirSync(join(dirname(createRequire(import.meta.url).resolve('docusign-esign')), 'api')).map((f) => f.replace(/\.js$/, ''));
  assert.deepEqual([...APIS].sort(), sdkApis.sort());
});

test('every operation of the walked SDK apis reaches a handler at its own method and path, or a refusal that names it; no refusal shadows a served one', async () => {
  const routes = walked();
  assert.ok(routes.length > 400, `walked ${routes.length} SDK operations`);
  const refused = new Set(NOT_SUPPORTED_OPERATIONS.map((o) => o.operation));
  const unknown: string[] = [];
  const unrouted: string[] = [];
  const unnamed: string[] = [];
  const shadowed: string[] = [];
  for (const route of routes) {
    const operation = `${route.api}.${route.name}`;
    const { status, body } = await send(route.method, `/restapi${fill(route.path)}`, `Bearer ${admin.token}`);
    if (status === 404 && body.errorCode === 'RESOURCE_NOT_FOUND' && body.message === ESIGN_ERRORS.RESOURCE_NOT_FOUND.message) unknown.push(`${operation} ${route.method} ${route.path}`);
    // A route registered at the SDK's own method and path, served or refusing: an operation that
    // only lands on another route's parameter (GET …/envelopes/transfer_rules read as envelope
    // id "transfer_rules") is neither.
    if (!h.app.hasRoute({ method: route.method, url: sdkPattern(route) })) unrouted.push(`${operation} ${route.method} ${route.path}`);
    // An administrator is never turned away by the guard: the answer is the operation's own.
    assert.notEqual(body.errorCode, 'USER_LACKS_PERMISSIONS', operation);
    if (refused.has(operation)) {
      if (!(status === 400 && refusalOf(operation, body))) unnamed.push(`${operation}: ${status} ${body.message ?? ''}`);
    } else if (NOT_SUPPORTED_OPERATIONS.some((o) => refusalOf(o.operation, body))) {
      shadowed.push(`${operation}: ${body.message ?? ''}`);
    }
  }
  assert.deepEqual({ unknown, unrouted, unnamed, shadowed }, { unknown: [], unrouted: [], unnamed: [], shadowed: [] });
  // The OAuth calls' paths under /restapi are no route, as their page says.
  for (const route of APIS.flatMap(sdkRoutes).filter((r) => OAUTH.has(`${r.api}.${r.name}`))) {
    const { status, body } = await send(route.method, `/restapi${fill(route.path)}`, `Bearer ${admin.token}`);
    assert.deepEqual({ status, body }, { status: 404, body: { errorCode: 'RESOURCE_NOT_FOUND', message: ESIGN_ERRORS.RESOURCE_NOT_FOUND.message } }, route.name);
  }
});

test('the refusal tables name only SDK operations, on the SDK\'s own method and path, each once', () => {
  const byName = new Map(walked().map((r) => [`${r.api}.${r.name}`, r]));
  for (const op of NOT_SUPPORTED_OPERATIONS) {
    const route = byName.get(op.operation);
    assert.ok(route, `${op.operation} is not an operation of ${APIS.join(', ')}`);
    assert.equal(op.method, route.method, op.operation);
    assert.equal(op.url, sdkPattern(route), op.operation);
  }
  assert.equal(new Set(NOT_SUPPORTED_OPERATIONS.map((o) => o.operation)).size, NOT_SUPPORTED_OPERATIONS.length);
  assert.equal(new Set(NOT_SUPPORTED_OPERATIONS.map((o) => `${o.method} ${o.url}`)).size, NOT_SUPPORTED_OPERATIONS.length);
  // Each table holds its own apis' operations, and each reason of theirs points at the docs.
  const tables: [readonly NotSupportedOperation[], readonly string[]][] = [[NOT_SUPPORTED_ENVELOPE_OPERATIONS, ['EnvelopesApi']], [NOT_SUPPORTED_TEMPLATE_OPERATIONS, ['TemplatesApi']], [NOT_SUPPORTED_OTHER_OPERATIONS, PAGES['esign-other-operations.md']]];
  for (const [table, apis] of tables) {
    for (const op of table) {
      assert.ok(apis.includes(op.operation.split('.')[0] ?? ''), op.operation);
      assert.match(op.why, /docs\/[\w-]+\.md/, op.operation);
    }
  }
});

test('a refusal asks what a served route asks: a valid token, membership of the account, and the rights the route table names for its path', async () => {
  const url = (op: NotSupportedOperation, given: Record<string, string> = {}) => fill(op.url, given);
  // Without a token, or with a bad one: the answer any /restapi route gives, nothing about the operation.
  const served = `${ACCOUNT}/envelopes/:envelopeId`;
  for (const authorization of [undefined, 'Bearer not-a-token']) {
    const baseline = await send('GET', fill(served), authorization);
    assert.equal(baseline.status, 401);
    for (const op of NOT_SUPPORTED_OPERATIONS) assert.deepEqual(await send(op.method, url(op), authorization), baseline, `${op.operation} ${authorization ?? 'without a token'}`);
  }
  // Another account's user: not a member, as for the served route.
  const strangerSeed = await seedUserAndApp(h);
  const stranger = `Bearer ${await accessTokenFor(h, strangerSeed)}`;
  const foreign = await send('GET', fill(served), stranger);
  assert.equal(foreign.body.errorCode, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  for (const op of NOT_SUPPORTED_OPERATIONS) {
    const answer = await send(op.method, url(op), stranger);
    // Outside an account there is no account to belong to: a valid token is all a path asks.
    if (op.url.startsWith(ACCOUNT)) assert.deepEqual(answer, foreign, op.operation);
    else assert.ok(answer.status === 400 && refusalOf(op.operation, answer.body), `${op.operation}: ${answer.body.message ?? ''}`);
  }
  // Nor does anyone act on another's behalf there: the guard refuses the header before the route.
  const onBehalf = { authorization: `Bearer ${admin.token}`, 'x-docusign-act-on-behalf': strangerSeed.userId, 'content-type': 'application/json' };
  for (const op of NOT_SUPPORTED_OPERATIONS) {
    if (op.url.startsWith(ACCOUNT)) continue;
    const res = await h.app.inject({ method: op.method as 'GET', url: url(op), headers: onBehalf, ...(op.method === 'GET' ? {} : { payload: '{}' }) });
    assert.deepEqual({ status: res.statusCode, errorCode: res.json<Answer['body']>().errorCode }, { status: 400, errorCode: 'USER_LACKS_PERMISSIONS' }, op.operation);
  }

  // A member: the rights of their profile for the path, then (without account-wide envelope
  // access) the envelope of the path, then the refusal; exactly as the served routes.
  const bobSeed = await seedUserAndApp(h);
  await h.store.accounts.addMembership(bobSeed.userId, admin.accountId, h.clock.now());
  const bob = `Bearer ${await accessTokenFor(h, bobSeed)}`;
  const adminCall = (method: string, path: string, body: unknown) => h.app.inject({ method: method as 'POST', url: `/restapi/v2.1/accounts/${admin.accountId}${path}`, headers: { authorization: `Bearer ${admin.token}` }, payload: body as Record<string, unknown> });
  const adminsEnvelope = (await adminCall('POST', '/envelopes', { emailSubject: 'Admin\'s', status: 'created', recipients: { signers: [{ recipientId: '1', name: 'S', email: 's@example.com' }] } })).json<{ envelopeId: string }>().envelopeId;
  const othersEnvelope = await send('GET', fill(served, { envelopeId: adminsEnvelope }), bob);
  assert.equal(othersEnvelope.body.errorCode, 'USER_LACKS_PERMISSIONS');
  const asGuard = async (who: string, rights: Rights, envelopeId: string | undefined) => {
    for (const op of NOT_SUPPORTED_OPERATIONS) {
      const answer = await send(op.method, url(op, envelopeId ? { envelopeId } : {}), who);
      // Outside an account no profile applies: any valid token reads the refusal.
      if (!op.url.startsWith(ACCOUNT)) {
        assert.ok(answer.status === 400 && refusalOf(op.operation, answer.body), `${op.operation}: ${answer.body.message ?? ''}`);
        continue;
      }
      const denied = deniedBecause(rights, routeNeed({ method: op.method, route: op.url.slice(ACCOUNT.length), userId: admin.userId, actorId: bobSeed.userId }));
      if (denied) assert.deepEqual(answer.body, { errorCode: 'USER_LACKS_PERMISSIONS', message: `${ESIGN_ERRORS.USER_LACKS_PERMISSIONS.message} ${denied}` }, op.operation);
      else if (envelopeId && op.url.startsWith(served)) assert.deepEqual(answer, othersEnvelope, op.operation);
      else assert.ok(answer.status === 400 && refusalOf(op.operation, answer.body), `${op.operation}: ${answer.body.message ?? ''}`);
    }
  };
  await asGuard(bob, rightsOf(DEFAULT_PROFILES.sender.settings), adminsEnvelope);
  // A profile without sending or templates: writes under /envelopes and every template call are its rights' to refuse.
  const settings = { allowEnvelopeSending: 'false', allowedTemplateAccess: 'none', allowApiAccess: 'true', allowApiAccessToAccount: 'true' };
  const profile = (await adminCall('POST', '/permission_profiles', { permissionProfileName: 'Reader', settings })).json<{ permissionProfileId: string }>();
  assert.equal((await adminCall('PUT', `/users/${bobSeed.userId}`, { permissionProfileId: profile.permissionProfileId })).statusCode, 200);
  await asGuard(bob, rightsOf(settings), undefined);
});

test('each docs page has a row for every operation of its apis, and says refused for each the tables refuse', () => {
  const refused = new Map(NOT_SUPPORTED_OPERATIONS.map((o) => [o.operation, o]));
  for (const [page, apis] of Object.entries(PAGES)) {
    const doc = readFileSync(new URL(`../../../../docs/${page}`, import.meta.url), 'utf8');
    const rows = new Map<string, string>();
    let api = '';
    for (const line of doc.split('\n')) {
      const heading = /^## (\w+)$/.exec(line);
      if (heading?.[1]) api = heading[1];
      const row = /^\| `(\w+)` \| `[A-Z]+ [^`]+` \| (.+) \|$/.exec(line);
      if (row?.[1] && row[2]) rows.set(`${api}.${row[1]}`, row[2]);
    }
    const operations = apis.flatMap((a) => sdkRoutes(a)).map((r) => `${r.api}.${r.name}`);
    assert.deepEqual(operations.filter((name) => !rows.has(name)), [], page);
    for (const name of operations) {
      const op = refused.get(name);
      if (op) assert.match(rows.get(name) ?? '', /^refused by name/, `${page}: ${name}`);
      // The envelope page and the page of the other apis say what each refusal says.
      if (op && page !== 'esign-account-operations.md') assert.equal(rows.get(name), `refused by name: ${op.why}`, `${page}: ${name}`);
      if (OAUTH.has(name)) assert.match(rows.get(name) ?? '', /^OAuth, not REST: /, `${page}: ${name}`);
      // Every other row says built (or, inside a built area, refused by its routes).
      if (!op && !OAUTH.has(name)) assert.match(rows.get(name) ?? '', /^(built|refused by name)/, `${page}: ${name}`);
    }
  }
});
