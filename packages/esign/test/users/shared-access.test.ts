import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { UserAuthorizationsRepository } from '../../src/store/user-authorizations-repository.ts';
import { accessTokenFor, logIn } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, suiteContext, type Harness } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { toAddress } from '../support/mail-parts.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';

// DocuSign's public example eg043 sharedAccess (github docusign/code-examples-node,
// lib/eSignature/examples/sharedAccess.js and its controller) is driven below with the same SDK
// calls and arguments: the agent created with an activation code, the principal's `manage`
// authorization, the agent's listStatusChanges under X-DocuSign-Act-On-Behalf. Nothing of it is copied.
type Json = Record<string, unknown>;
type Party = { userId: string; accountId: string; name: string; email: string };
type Authorization = { authorizationId: string; permission: string; startDate: string; endDate?: string; principalUser: Party; agentUser: Party; createdBy: string };
type Authorizations = { authorizations: Authorization[]; resultSetSize: string };
type Api<K extends string> = Record<K, (...args: unknown[]) => Promise<never>>;
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (c: unknown) => Api<'getAgentUserAuthorizations' | 'getPrincipalUserAuthorizations' | 'getUserAuthorization' | 'createUserAuthorization' | 'createUserAuthorizations'
    | 'updateUserAuthorization' | 'deleteUserAuthorization' | 'deleteUserAuthorizations' | 'updateSettings' | 'createPermissionProfile' | 'listPermissions'>;
  UsersApi: new (c: unknown) => Api<'list' | 'create' | 'updateUser' | '_delete'>;
  EnvelopesApi: new (c: unknown) => Api<'createEnvelope' | 'getEnvelope' | 'listStatusChanges' | 'update' | 'createSenderView' | 'createEditView' | 'createCorrectView' | 'createConsoleView'>;
} & Record<'NewUsersDefinition' | 'UserInformation' | 'UserAuthorizationCreateRequest', { constructFromObject(o: Json): Json }>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let h: Harness;
let smtp: SmtpListener;
let admin: Awaited<ReturnType<typeof seedUserAndApp>> & { token: string };
const suite = suiteContext();
before(async () => {
  smtp = await startSmtpListener(suite.ctx);
  h = await startEsign(suite.ctx, { settings: { SMTP_URL: smtp.url }, deps: { mailWorker: { pollIntervalMs: 50 } } });
  const seed = await seedUserAndApp(h);
  admin = { ...seed, token: await accessTokenFor(h, seed) };
});
after(() => suite.close());

function client(token: string, onBehalfOf?: string) {
  const api = new docusign.ApiClient();
  api.setBasePath(`${h.origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${token}`);
  if (onBehalfOf !== undefined) api.addDefaultHeader('X-DocuSign-Act-On-Behalf', onBehalfOf);
  return api;
}
const accounts = (token: string, as?: string) => new docusign.AccountsApi(client(token, as));
const usersApi = (token: string, as?: string) => new docusign.UsersApi(client(token, as));
const envelopes = (token: string, as?: string) => new docusign.EnvelopesApi(client(token, as));

function tokenFor(email: string, password: string): Promise<string> {
  return accessTokenFor(h, { ...admin, email, password });
}

/** The invitation link mailed to an address. */
async function invitationPath(email: string): Promise<string> {
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === email), { timeoutMs: 15_000, intervalMs: 20, what: 'the invitation mail' });
  const link = /https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  assert.ok(link, mail.text);
  return new URL(link).pathname;
}

/** Follows an invitation link with the code given; the answer to the form. */
async function join(path: string, form: Record<string, string>) {
  const browser = new FormClient(h.origin);
  const page = await browser.get(path);
  assert.equal(page.status, 200);
  return browser.post(path, { _csrf: hiddenField(page.text, '_csrf'), ...form });
}

/** A member invited with no code who joined: id and token. */
async function member(email: string): Promise<{ userId: string; token: string }> {
  const { newUsers } = await usersApi(admin.token).create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: email.split('@')[0], email }] } }) as { newUsers: { userId: string }[] };
  const joined = await join(await invitationPath(email), { password: 'a long enough password' });
  assert.equal(joined.status, 303);
  return { userId: newUsers[0]?.userId ?? '', token: await tokenFor(email, 'a long enough password') };
}

const draft = (subject: string) => ({ envelopeDefinition: { emailSubject: subject, status: 'created' } });
const TEN_DAYS_AGO = () => new Date(h.clock.now().getTime() - 10 * 86_400_000).toISOString();

let agent: { userId: string; token: string };

test('DocuSign\'s sharedAccess example: agent invited with an activation code, the principal\'s manage authorization, the principal\'s envelopes under X-DocuSign-Act-On-Behalf', async () => {
  // The principal has envelopes in their inbox, as the example requires.
  const own = await envelopes(admin.token).createEnvelope(admin.accountId, draft('Principal draft')) as { envelopeId: string };
  const args = { basePath: `${h.origin}/restapi`, accessToken: admin.token, accountId: admin.accountId, email: 'agent@example.com', userName: 'Agent Smith', activation: 'open-sesame 42' };

  // createAgent: is there an active user of that address? No: create them with the activation code.
  const existing = await usersApi(args.accessToken).list(args.accountId, { email: args.email, status: 'Active' }) as { resultSetSize: string };
  assert.equal(existing.resultSetSize, '0');
  const newUsersDefinition = docusign.NewUsersDefinition.constructFromObject({
    newUsers: [docusign.UserInformation.constructFromObject({ activationAccessCode: args.activation, userName: args.userName, email: args.email })],
  });
  const created = (await usersApi(args.accessToken).create(args.accountId, { newUsersDefinition }) as { newUsers: { userId: string; userStatus: string }[] }).newUsers[0];
  assert.ok(created);
  assert.equal(created.userStatus, 'ActivationSent');
  const agentUserId = created.userId;

  // createAuthorization, as the principal (the userinfo sub): none with manage yet, so one is made.
  const userInfo = (await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${admin.token}` } })).json()) as { sub: string };
  const before = await accounts(args.accessToken).getAgentUserAuthorizations(args.accountId, agentUserId, { permissions: 'manage' }) as Authorizations;
  assert.equal(before.resultSetSize, '0');
  const request = docusign.UserAuthorizationCreateRequest.constructFromObject({ agentUser: { userId: agentUserId, accountId: args.accountId }, permission: 'manage' });
  const granted = await accounts(args.accessToken).createUserAuthorization(args.accountId, userInfo.sub, { userAuthorizationCreateRequest: request }) as Authorization;
  assert.deepEqual([granted.permission, granted.principalUser.userId, granted.agentUser.userId, granted.agentUser.email, granted.createdBy], ['manage', admin.userId, agentUserId, args.email, admin.userId]);
  const after = await accounts(args.accessToken).getAgentUserAuthorizations(args.accountId, agentUserId, { permissions: 'manage' }) as Authorizations;
  assert.deepEqual(after.authorizations.map((a) => a.authorizationId), [granted.authorizationId]);

  // The agent activates: the link asks for the code; a wrong one is refused and the link stays unused.
  const path = await invitationPath(args.email);
  const wrong = await join(path, { activation_code: 'open-sesame 43', password: 'a long enough password' });
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, /activation code is not correct/);
  const missing = await join(path, { password: 'a long enough password' });
  assert.equal(missing.status, 400);
  const joined = await join(path, { activation_code: args.activation, password: 'a long enough password' });
  assert.deepEqual([joined.status, joined.headers.location], [303, '/console']);
  assert.equal((await new FormClient(h.origin).get(path)).status, 404, 'single use');
  agent = { userId: agentUserId, token: await tokenFor(args.email, 'a long enough password') };

  // getEnvelopes: the agent, logged in as themself, lists the principal's status changes.
  const listed = await envelopes(agent.token, userInfo.sub).listStatusChanges(args.accountId, { fromDate: TEN_DAYS_AGO() }) as { resultSetSize: string; envelopes: { envelopeId: string }[] };
  assert.ok(Number(listed.resultSetSize) > 0);
  assert.ok(listed.envelopes.some((e) => e.envelopeId === own.envelopeId));
  // user_id and folder_ids narrow it to what the principal sent, or to the principal's drafts.
  const mine = await envelopes(agent.token, admin.userId).listStatusChanges(args.accountId, { fromDate: TEN_DAYS_AGO(), userId: admin.userId, folderIds: 'draft' }) as { envelopes: { envelopeId: string }[] };
  assert.deepEqual(mine.envelopes.map((e) => e.envelopeId), [own.envelopeId]);

  // The agent creates an envelope as the principal: its sender is the principal.
  const made = await envelopes(agent.token, admin.userId).createEnvelope(admin.accountId, draft('Made by the agent')) as { envelopeId: string };
  const got = await envelopes(admin.token).getEnvelope(admin.accountId, made.envelopeId) as { sender: { userId: string } };
  assert.equal(got.sender.userId, admin.userId);

  // The audit names both users, for each call made as the principal.
  const uses = await new UserAuthorizationsRepository(h.store.db).uses(admin.accountId);
  assert.deepEqual(uses.map((u) => [u.agentUserId, u.principalUserId, u.authorizationId, u.method, u.route, u.statusCode]), [
    [agentUserId, admin.userId, granted.authorizationId, 'GET', '/envelopes', 200],
    [agentUserId, admin.userId, granted.authorizationId, 'GET', '/envelopes', 200],
    [agentUserId, admin.userId, granted.authorizationId, 'POST', '/envelopes', 201],
  ]);
});

test('an activation code is stored hashed, and five wrong codes retire the link', async () => {
  await usersApi(admin.token).create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'Mallory', email: 'mallory@example.com', activationAccessCode: 'guess me' }] } });
  const stored = await h.store.db.kysely.selectFrom('user_invitations').select('activation_code_hash').where('activation_code_hash', 'is not', null).execute();
  assert.ok(stored.length >= 1 && stored.every((r) => r.activation_code_hash?.startsWith('scrypt$') && !r.activation_code_hash.includes('guess me')));
  const path = await invitationPath('mallory@example.com');
  for (let i = 1; i <= 4; i++) assert.equal((await join(path, { activation_code: `wrong ${i}`, password: 'a long enough password' })).status, 400);
  const browser = new FormClient(h.origin);
  const page = await browser.get(path);
  const fifth = await browser.post(path, { _csrf: hiddenField(page.text, '_csrf'), activation_code: 'wrong 5', password: 'a long enough password' });
  assert.equal(fifth.status, 404);
  assert.equal((await new FormClient(h.origin).get(path)).status, 404, 'the right code comes too late');
  // DocuSign's documented form of the code: at most 50 characters, none of < > & #.
  assert.deepEqual(await sdkFailure(usersApi(admin.token).create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'X', email: 'x@example.com', activationAccessCode: 'a<b' }] } })), [400, 'INVALID_REQUEST_BODY']);
});

test('user authorizations over the SDK: read, re-dated, listed by either side, bulk, deleted; DocuSign\'s other permissions refused by name', async () => {
  const bob = await member('bob@example.com');
  const principalApi = accounts(bob.token);
  const made = await principalApi.createUserAuthorization(admin.accountId, bob.userId, { userAuthorizationCreateRequest: { agentUser: { userId: agent.userId }, permission: 'send', endDate: new Date(h.clock.now().getTime() + 86_400_000).toISOString() } }) as Authorization;
  assert.equal((await principalApi.getUserAuthorization(admin.accountId, bob.userId, made.authorizationId) as Authorization).permission, 'send');
  const later = new Date(h.clock.now().getTime() + 2 * 86_400_000).toISOString();
  const redated = await principalApi.updateUserAuthorization(admin.accountId, bob.userId, made.authorizationId, { userAuthorizationUpdateRequest: { endDate: later } }) as Authorization;
  assert.equal(new Date(redated.endDate ?? '').toISOString(), later);
  assert.deepEqual((await principalApi.getPrincipalUserAuthorizations(admin.accountId, bob.userId) as Authorizations).authorizations.map((a) => a.authorizationId), [made.authorizationId]);
  // The agent sees the authorizations given to them; the administrator sees them all.
  const agentSees = await accounts(agent.token).getAgentUserAuthorizations(admin.accountId, agent.userId, { activeOnly: 'true' }) as Authorizations;
  assert.deepEqual(agentSees.authorizations.map((a) => [a.principalUser.userId, a.permission]).sort((x, y) => x[1]!.localeCompare(y[1]!)), [[admin.userId, 'manage'], [bob.userId, 'send']]);
  // A member who is neither the principal nor an administrator sees none of bob's.
  const carol = await member('carol@example.com');
  assert.equal((await accounts(carol.token).getAgentUserAuthorizations(admin.accountId, agent.userId) as Authorizations).resultSetSize, '0');
  assert.deepEqual(await sdkFailure(accounts(carol.token).getPrincipalUserAuthorizations(admin.accountId, bob.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(accounts(carol.token).createUserAuthorization(admin.accountId, bob.userId, { userAuthorizationCreateRequest: { agentUser: { userId: carol.userId }, permission: 'manage' } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(accounts(carol.token).getUserAuthorization(admin.accountId, bob.userId, made.authorizationId)), [400, 'USER_LACKS_PERMISSIONS']);

  // Bulk: a new one and a date change in one request; a bad item refuses all of it, naming it.
  const bulk = await principalApi.createUserAuthorizations(admin.accountId, bob.userId, { userAuthorizationsRequest: { authorizations: [
    { agentUser: { userId: carol.userId }, permission: 'manage' }, { authorizationId: made.authorizationId, endDate: later },
  ] } }) as { results: { success: string; authorization: Authorization }[] };
  assert.deepEqual(bulk.results.map((r) => [r.success, r.authorization.agentUser.userId]), [['true', carol.userId], ['true', agent.userId]]);
  const refusedBulk = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/users/${bob.userId}/authorizations`, {
    method: 'POST', headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ authorizations: [{ agentUser: { userId: admin.userId }, permission: 'manage' }, { agentUser: { userId: admin.userId }, permission: 'sign' }] }),
  });
  assert.equal(refusedBulk.status, 400);
  assert.match(((await refusedBulk.json()) as { message: string }).message, /authorizations\[1\]: .*permission "sign" is not supported: delegated signing/);
  assert.equal((await principalApi.getPrincipalUserAuthorizations(admin.accountId, bob.userId) as Authorizations).resultSetSize, '2', 'nothing half-written');

  // DocuSign's other permissions, task-scoped ones, a duplicate and a self-grant: refused by name.
  for (const [body, code, message] of [
    [{ agentUser: { userId: agent.userId }, permission: 'edit' }, 'INVALID_REQUEST_BODY', /permission "edit" is not supported/],
    [{ agentUser: { userId: agent.userId }, permission: 'manage', taskType: 'x' }, 'INVALID_REQUEST_BODY', /taskType/],
    [{ agentUser: { userId: agent.userId }, permission: 'send' }, 'INVALID_REQUEST_BODY', /already holds a send authorization/],
    [{ agentUser: { userId: bob.userId }, permission: 'manage' }, 'INVALID_USERID', /own agent/],
    [{ agentUser: { userId: agent.userId }, permission: 'manage', startDate: later, endDate: later }, 'INVALID_REQUEST_BODY', /endDate must be after startDate/],
  ] as const) {
    const res = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/users/${bob.userId}/authorization`, {
      method: 'POST', headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { errorCode: string; message: string };
    assert.equal(res.status, 400);
    assert.equal(answer.errorCode, code);
    assert.match(answer.message, message);
  }

  // Deleting: one, then the rest in bulk; an unknown id refuses the bulk whole.
  await principalApi.deleteUserAuthorization(admin.accountId, bob.userId, made.authorizationId);
  assert.deepEqual(await sdkFailure(principalApi.getUserAuthorization(admin.accountId, bob.userId, made.authorizationId)), [400, 'USER_AUTHORIZATION_NOT_FOUND']);
  const carolGrant = bulk.results[0]?.authorization.authorizationId ?? '';
  assert.deepEqual(await sdkFailure(principalApi.deleteUserAuthorizations(admin.accountId, bob.userId, { userAuthorizationsDeleteRequest: { authorizations: [carolGrant, 'nope'] } })), [400, 'USER_AUTHORIZATION_NOT_FOUND']);
  const deleted = await principalApi.deleteUserAuthorizations(admin.accountId, bob.userId, { userAuthorizationsDeleteRequest: { authorizations: [carolGrant] } }) as { results: { authorizationId: string; success: string }[] };
  assert.deepEqual(deleted.results.map((r) => ({ ...r })), [{ authorizationId: carolGrant, success: 'true' }]);
  assert.equal((await principalApi.getPrincipalUserAuthorizations(admin.accountId, bob.userId) as Authorizations).resultSetSize, '0');
});


test('attacks on X-DocuSign-Act-On-Behalf: other accounts, expired and deleted grants, escalation past the grant, forged headers, OAuth and console routes', async () => {
  const dave = await member('dave@example.com');
  const erin = await member('erin@example.com');
  // (Members join before the test moves the clock on: the mail outbox runs on real time.)
  const fred = await member('fred@example.com');
  const list = (token: string, as: string) => envelopes(token, as).listStatusChanges(admin.accountId, { fromDate: TEN_DAYS_AGO() });

  // A forged header: no authorization from that user, an unknown id, one's own account's admin. Same answer each time.
  assert.deepEqual(await sdkFailure(list(dave.token, admin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(list(dave.token, '00000000-0000-4000-8000-000000000000')), [400, 'USER_LACKS_PERMISSIONS']);
  const forged = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/envelopes?from_date=2000-01-01`, { headers: { authorization: `Bearer ${dave.token}`, 'x-docusign-act-on-behalf': admin.userId } });
  const unknown = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/envelopes?from_date=2000-01-01`, { headers: { authorization: `Bearer ${dave.token}`, 'x-docusign-act-on-behalf': 'someone' } });
  assert.deepEqual(await forged.json(), await unknown.json(), 'no oracle of which users exist');
  // Repeating the header is refused, never resolved by picking one.
  const twice = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/envelopes?from_date=2000-01-01`, { headers: [['authorization', `Bearer ${agent.token}`], ['x-docusign-act-on-behalf', admin.userId], ['x-docusign-act-on-behalf', dave.userId]] });
  assert.equal(twice.status, 400);

  // Another account: its user is named as principal here, or its token calls here with a grant's principal.
  const other = await secondAccount(h);
  const otherUser = ((await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${other.token}` } })).json()) as { sub: string }).sub;
  assert.deepEqual(await sdkFailure(list(agent.token, otherUser)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(list(other.token, admin.userId)), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  // The agent's grant in this account does not reach the principal's... nothing elsewhere: calling the other account as the principal.
  assert.deepEqual(await sdkFailure(envelopes(agent.token, admin.userId).listStatusChanges(other.accountId, { fromDate: TEN_DAYS_AGO() })), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  // Nor can a grant name an agent of another account.
  assert.deepEqual(await sdkFailure(accounts(admin.token).createUserAuthorization(admin.accountId, admin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: otherUser }, permission: 'manage' } })), [400, 'INVALID_USERID']);
  assert.deepEqual(await sdkFailure(accounts(admin.token).createUserAuthorization(admin.accountId, admin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: dave.userId, accountId: other.accountId }, permission: 'manage' } })), [400, 'INVALID_USERID']);
  // Nor may the other account's administrator grant here.
  assert.deepEqual(await sdkFailure(accounts(other.token).createUserAuthorization(admin.accountId, admin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: otherUser }, permission: 'manage' } })), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);

  // Escalation past the grant: a manage agent reaches the principal's envelopes, never their administration.
  for (const call of [
    () => usersApi(agent.token, admin.userId).list(admin.accountId),
    () => accounts(agent.token, admin.userId).updateSettings(admin.accountId, { accountSettingsInformation: { accountName: 'Mine now' } }),
    () => accounts(agent.token, admin.userId).createPermissionProfile(admin.accountId, { permissionProfile: { permissionProfileName: 'Root', settings: { allowAccountManagement: 'true' } } }),
    () => accounts(agent.token, admin.userId).createUserAuthorization(admin.accountId, admin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: dave.userId }, permission: 'manage' } }),
    () => accounts(agent.token, admin.userId).getPrincipalUserAuthorizations(admin.accountId, admin.userId),
    () => usersApi(agent.token, admin.userId).updateUser(admin.accountId, agent.userId, { userInformation: { permissionProfileId: 'x' } }),
  ]) assert.deepEqual(await sdkFailure(call()), [400, 'USER_LACKS_PERMISSIONS']);
  // A review found a manage agent opening the principal's console through a sender view made on
  // behalf (the view signs its opener in as the principal), then adding an app and consenting to
  // it as the administrator: a token of theirs, and Account Administrator for the agent. The
  // console's views are never made on behalf; the agent's own are theirs, as before.
  const principalsDraft = await envelopes(agent.token, admin.userId).createEnvelope(admin.accountId, draft('The principal\'s draft')) as { envelopeId: string };
  for (const call of [
    () => envelopes(agent.token, admin.userId).createSenderView(admin.accountId, principalsDraft.envelopeId, { envelopeViewRequest: { returnUrl: 'https://example.com/back' } }),
    () => envelopes(agent.token, admin.userId).createEditView(admin.accountId, principalsDraft.envelopeId, { envelopeViewRequest: { returnUrl: 'https://example.com/back' } }),
    () => envelopes(agent.token, admin.userId).createCorrectView(admin.accountId, principalsDraft.envelopeId, { envelopeViewRequest: { returnUrl: 'https://example.com/back' } }),
    () => envelopes(agent.token, admin.userId).createConsoleView(admin.accountId, { consoleViewRequest: { returnUrl: 'https://example.com/back' } }),
  ]) assert.deepEqual(await sdkFailure(call()), [400, 'ACT_ON_BEHALF_USER_NOT_ALLOWED']);
  const agentsDraft = await envelopes(agent.token).createEnvelope(admin.accountId, draft('The agent\'s own draft')) as { envelopeId: string };
  assert.match((await envelopes(agent.token).createSenderView(admin.accountId, agentsDraft.envelopeId, { envelopeViewRequest: { returnUrl: 'https://example.com/back' } }) as { url: string }).url, /\/console\/view\//);
  // A send grant creates as the principal, and reads nothing of theirs.
  const erinSends = await accounts(erin.token).createUserAuthorization(admin.accountId, erin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: dave.userId }, permission: 'send' } }) as Authorization;
  const sent = await envelopes(dave.token, erin.userId).createEnvelope(admin.accountId, draft('Sent for Erin')) as { envelopeId: string };
  assert.equal((await envelopes(erin.token).getEnvelope(admin.accountId, sent.envelopeId) as { sender: { userId: string } }).sender.userId, erin.userId);
  assert.deepEqual(await sdkFailure(list(dave.token, erin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(envelopes(dave.token, erin.userId).update(admin.accountId, sent.envelopeId, { envelope: { status: 'voided', voidedReason: 'x' } })), [400, 'USER_LACKS_PERMISSIONS']);
  // The principal's own profile still bounds the agent: a principal who may not send gives no sending.
  const viewer = ((await accounts(admin.token).listPermissions(admin.accountId)) as { permissionProfiles: { permissionProfileId: string; permissionProfileName: string }[] }).permissionProfiles.find((p) => p.permissionProfileName === 'DocuSign Viewer');
  await usersApi(admin.token).updateUser(admin.accountId, erin.userId, { userInformation: { permissionProfileId: viewer?.permissionProfileId } });
  assert.deepEqual(await sdkFailure(envelopes(dave.token, erin.userId).createEnvelope(admin.accountId, draft('No'))), [400, 'USER_LACKS_PERMISSIONS']);

  // Expired: a grant that ended stops at once; one that has not started yet does nothing yet.
  const now = h.clock.now().getTime();
  // (Erin, a viewer now, has no API access; an administrator may change her grants.)
  await accounts(admin.token).updateUserAuthorization(admin.accountId, erin.userId, erinSends.authorizationId, { userAuthorizationUpdateRequest: { endDate: new Date(now + 3_600_000).toISOString() } });
  const daveManages = await accounts(admin.token).createUserAuthorization(admin.accountId, admin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: dave.userId }, permission: 'manage', endDate: new Date(now + 3_600_000).toISOString() } }) as Authorization;
  await list(dave.token, admin.userId);
  h.clock.advance(2 * 3600);
  assert.deepEqual(await sdkFailure(list(dave.token, admin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  const future = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
  await accounts(admin.token).updateUserAuthorization(admin.accountId, admin.userId, daveManages.authorizationId, { userAuthorizationUpdateRequest: { startDate: future, endDate: new Date(h.clock.now().getTime() + 7_200_000).toISOString() } });
  assert.deepEqual(await sdkFailure(list(dave.token, admin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  // Deleted: the agent's manage grant from the example ends with its deletion.
  await list(agent.token, admin.userId);
  const agentGrant = ((await accounts(admin.token).getAgentUserAuthorizations(admin.accountId, agent.userId, { permissions: 'manage' })) as Authorizations).authorizations[0];
  await accounts(admin.token).deleteUserAuthorization(admin.accountId, admin.userId, agentGrant?.authorizationId);
  assert.deepEqual(await sdkFailure(list(agent.token, admin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  // A removed principal's grants end with their membership.
  await accounts(admin.token).createUserAuthorization(admin.accountId, admin.userId, { userAuthorizationCreateRequest: { agentUser: { userId: agent.userId }, permission: 'manage' } });
  await accounts(fred.token).createUserAuthorization(admin.accountId, fred.userId, { userAuthorizationCreateRequest: { agentUser: { userId: agent.userId }, permission: 'manage' } });
  await list(agent.token, fred.userId);
  await usersApi(admin.token)._delete(admin.accountId, { userInfoList: { users: [{ userId: fred.userId }] } });
  assert.deepEqual(await sdkFailure(list(agent.token, fred.userId)), [400, 'USER_LACKS_PERMISSIONS']);

  // OAuth and console routes never read the header: userinfo is the agent's, the console the agent's.
  const info = (await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${agent.token}`, 'x-docusign-act-on-behalf': admin.userId } })).json()) as { sub: string; email: string };
  assert.deepEqual([info.sub, info.email], [agent.userId, 'agent@example.com']);
  const pages = new FormClient(h.origin);
  await logIn(pages, (await pages.get('/login')).text, 'agent@example.com', 'a long enough password');
  const members = await pages.get('/console/members', { 'x-docusign-act-on-behalf': admin.userId });
  assert.equal(members.status, 400, 'the members page stays the administrators\'');
  // The header outside an account is refused, not ignored.
  const outside = await fetch(`${h.origin}/restapi/v2.1/nowhere`, { headers: { authorization: `Bearer ${agent.token}`, 'x-docusign-act-on-behalf': admin.userId } });
  assert.deepEqual([outside.status, ((await outside.json()) as { errorCode: string }).errorCode], [400, 'USER_LACKS_PERMISSIONS']);
});
