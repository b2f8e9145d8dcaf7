import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { HONOURED_ACCOUNT_SETTINGS } from '../../src/wire/parse-account-settings.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, type Harness } from '../support/esign-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
type Json = Record<string, unknown>;
type AccountsApi = {
  listSettings(accountId: string): Promise<Json>;
  updateSettings(accountId: string, opts: { accountSettingsInformation: unknown }): Promise<unknown>;
  getAccountInformation(accountId: string, opts?: { includeAccountSettings?: string }): Promise<{ accountName?: string }>;
};
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (client: unknown) => AccountsApi;
  AccountSettingsInformation: { new (): Json; prototype: object; constructFromObject(data: unknown): Json };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

let h: Harness;
let admin: { accountId: string; userId: string; token: string };
let other: { accountId: string; token: string };
const cleanups: (() => unknown)[] = [];
before(async () => {
  const ctx = { after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as Parameters<typeof startEsign>[0];
  h = await startEsign(ctx);
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  admin = { accountId: seed.accountId, userId: seed.userId, token };
  other = await secondAccount(h);
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

function accounts(token = admin.token): AccountsApi {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return new docusign.AccountsApi(client);
}

const put = (body: unknown, token = admin.token, accountId = admin.accountId) =>
  fetch(`${h.origin}/restapi/v2.1/accounts/${accountId}/settings`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

// What a fresh account reads: today's behaviour, each setting with DocuSign's metadata beside it.
test('listSettings: a new account reads English, DocuSign\'s default date format and hidden IPs, as strings with metadata', async () => {
  const settings = plain(await accounts().listSettings(admin.accountId));
  assert.equal(settings.accountName, 'Ada Lovelace');
  assert.equal(settings.accountDefaultLanguage, 'en');
  assert.equal(settings.signDateFormat, 'MM/dd/yyyy');
  assert.equal(settings.signTimeFormat, undefined);
  assert.deepEqual(settings.additionalSettings, [{ name: 'signetVerifyAuditIps', value: 'hidden', metadata: { rights: 'editable', uiHint: 'available', uiType: 'list', options: ['hidden', 'hashed'] } }]);
  assert.deepEqual((settings.accountDefaultLanguageMetadata as Json).options, ['en', 'de', 'fr', 'es', 'pt_BR', 'it', 'nl', 'ja']);
  assert.ok(((settings.signDateFormatMetadata as Json).options as string[]).includes('dd.MM.yyyy'));
  assert.equal((settings.signTimeFormatMetadata as Json).rights, 'editable');
  // Every key is a property of the SDK's model: nothing the SDK would drop.
  const model = Object.keys(docusign.AccountSettingsInformation.prototype);
  for (const key of Object.keys(settings)) assert.ok(model.includes(key), key);
});

test('updateSettings through the SDK: honoured settings are stored and read back; the account name is the account\'s', async () => {
  const info = docusign.AccountSettingsInformation.constructFromObject({
    accountDefaultLanguage: 'de', signDateFormat: 'dd.MM.yyyy', signTimeFormat: 'HH:mm', accountName: 'Muster GmbH',
    additionalSettings: [{ name: 'signetVerifyAuditIps', value: 'hashed' }],
  });
  await accounts().updateSettings(admin.accountId, { accountSettingsInformation: info });
  const settings = plain(await accounts().listSettings(admin.accountId));
  assert.deepEqual([settings.accountDefaultLanguage, settings.signDateFormat, settings.signTimeFormat, settings.accountName], ['de', 'dd.MM.yyyy', 'HH:mm', 'Muster GmbH']);
  assert.equal((settings.additionalSettings as Json[])[0]?.value, 'hashed');
  assert.equal((await accounts().getAccountInformation(admin.accountId)).accountName, 'Muster GmbH');
  // getAccountInformation with include_account_settings carries the same settings.
  const withSettings = plain(await accounts().getAccountInformation(admin.accountId, { includeAccountSettings: 'true' })) as { accountSettings?: Json };
  assert.deepEqual(withSettings.accountSettings, settings);
  assert.equal((plain(await accounts().getAccountInformation(admin.accountId)) as { accountSettings?: Json }).accountSettings, undefined);
  // A partial update changes only what it names.
  await accounts().updateSettings(admin.accountId, { accountSettingsInformation: { signTimeFormat: 'h:mm tt' } });
  const next = plain(await accounts().listSettings(admin.accountId));
  assert.deepEqual([next.accountDefaultLanguage, next.signDateFormat, next.signTimeFormat], ['de', 'dd.MM.yyyy', 'h:mm tt']);
  // Back to the defaults for the tests that follow.
  await accounts().updateSettings(admin.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'en', signDateFormat: 'MM/dd/yyyy', accountName: 'Ada Lovelace', additionalSettings: [{ name: 'signetVerifyAuditIps', value: 'hidden' }] } });
});

test('a setting this service does not honour is refused by name, with nothing stored; bad values name the setting', async () => {
  const before = plain(await accounts().listSettings(admin.accountId));
  const refused = await put({ accountDefaultLanguage: 'fr', enableSequentialSigningAPI: 'true', allowBulkSend: 'false' });
  assert.equal(refused.status, 400);
  const body = (await refused.json()) as { errorCode: string; message: string };
  assert.equal(body.errorCode, 'INVALID_REQUEST_BODY');
  assert.match(body.message, /not supported: enableSequentialSigningAPI, allowBulkSend /);
  for (const [patch, named] of [
    [{ signDateFormat: 'yyyy.dd.MM' }, /signDateFormat "yyyy.dd.MM" is not supported; use one of MM\/dd\/yyyy, /],
    [{ signTimeFormat: 'HH:mm:ss.fff' }, /signTimeFormat "HH:mm:ss.fff" is not supported/],
    [{ accountDefaultLanguage: 'zh_CN' }, /accountDefaultLanguage "zh_CN" is not supported; use one of en, de/],
    [{ accountName: 'x'.repeat(101) }, /accountName must be at most 100 characters long/],
    [{ additionalSettings: [{ name: 'somethingElse', value: '1' }] }, /additional setting "somethingElse"/],
    [{ additionalSettings: [{ name: 'signetVerifyAuditIps', value: 'plain' }] }, /additionalSettings\[0\]\.value "plain" is not supported; use one of hidden, hashed/],
    [{ accountDefaultLanguageMetadata: { rights: 'read_only' } }, /not supported: accountDefaultLanguageMetadata/],
  ] as const) {
    // The good setting beside the bad one is not written either: all or nothing.
    const res = await put({ signDateFormat: 'yyyy-MM-dd', ...patch });
    assert.equal(res.status, 400, JSON.stringify(patch));
    assert.match(((await res.json()) as { message: string }).message, named);
  }
  assert.deepEqual(await sdkFailure(accounts().updateSettings(admin.accountId, { accountSettingsInformation: { enableSMSAuthentication: 'true' } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(plain(await accounts().listSettings(admin.accountId)), before);
});

test('every property of the SDK\'s AccountSettingsInformation is either honoured or refused by name', async () => {
  const properties = Object.keys(docusign.AccountSettingsInformation.prototype).filter((k) => k !== 'constructor');
  assert.ok(properties.length > 800, `the model has ${properties.length} properties`);
  const honoured = new Set<string>(HONOURED_ACCOUNT_SETTINGS);
  for (const name of honoured) assert.ok(properties.includes(name), `${name} is a property of the model`);
  const samples: Record<string, unknown> = { accountName: 'Ada Lovelace', accountDefaultLanguage: 'en', signDateFormat: 'MM/dd/yyyy', signTimeFormat: 'HH:mm:ss', additionalSettings: [{ name: 'signetVerifyAuditIps', value: 'hidden' }] };
  for (const name of honoured) {
    const res = await put({ [name]: samples[name] });
    assert.equal(res.status, 200, `${name}: ${await res.text()}`);
  }
  // The refused ones in one request (the API's rate limit would not take 900): each named.
  const others = properties.filter((p) => !honoured.has(p));
  const res = await put(Object.fromEntries(others.map((p) => [p, p.endsWith('Metadata') ? { rights: 'editable' } : 'true'])));
  assert.equal(res.status, 400);
  const message = ((await res.json()) as { message: string }).message;
  const named = new Set(message.slice(message.indexOf('not supported: ') + 15, message.indexOf(' (this service honours')).split(', '));
  for (const p of others) assert.ok(named.has(p), `${p} is refused by name`);
  // Names are matched as DocuSign matches them, case-insensitively.
  assert.equal((await put({ SignDateFormat: 'MM/dd/yyyy' })).status, 200);
});

test('attack: a member who is not the administrator, another account\'s id, and a token of another account change nothing', async () => {
  const before = plain(await accounts().listSettings(admin.accountId));
  // A member of the account (not its administrator) reads, but may not change.
  const member = await secondAccount(h);
  await h.store.accounts.addMembership(await memberUserId(member.token), admin.accountId, h.clock.now());
  assert.equal(plain(await accounts(member.token).listSettings(admin.accountId)).accountName, before.accountName);
  const denied = await put({ accountDefaultLanguage: 'fr' }, member.token);
  assert.equal(denied.status, 400);
  assert.deepEqual(await denied.json(), { errorCode: 'USER_LACKS_PERMISSIONS', message: 'This user lacks sufficient permissions to access this resource. The user\'s permission profile does not allow managing the account (allowAccountManagement).' });
  // The member administers their own account, though.
  assert.equal((await put({ accountDefaultLanguage: 'nl' }, member.token, member.accountId)).status, 200);
  // Another tenant's id with this token: DocuSign's membership error, before any body is read.
  assert.deepEqual(await sdkFailure(accounts().listSettings(other.accountId)), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  assert.deepEqual(await sdkFailure(accounts().updateSettings(other.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'fr' } })), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  assert.deepEqual(await sdkFailure(accounts(other.token).updateSettings(admin.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'fr' } })), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  assert.equal(plain(await accounts(other.token).listSettings(other.accountId)).accountDefaultLanguage, 'en');
  assert.deepEqual(await sdkFailure(accounts('not-a-token').listSettings(admin.accountId)), [401, 'AUTHORIZATION_INVALID_TOKEN']);
  assert.deepEqual(plain(await accounts().listSettings(admin.accountId)), before);
});

/** The user behind a token, as /oauth/userinfo answers. */
async function memberUserId(token: string): Promise<string> {
  const res = await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { sub: string }).sub;
}
