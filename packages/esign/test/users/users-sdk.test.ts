import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { accessTokenFor, logIn } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, suiteContext, type Harness } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { toAddress } from '../support/mail-parts.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
// DocuSign's public examples createPermission, permissionSetUserGroup,
// permissionChangeSingleSetting and deletePermission (github docusign/code-examples-node,
// lib/eSignature/examples) are driven below with the same calls and arguments; nothing of them is copied.
type Json = Record<string, unknown>;
type Profile = { permissionProfileId: string; permissionProfileName: string; userCount?: string; settings: Record<string, string> };
type User = { userId: string; email: string; userName: string; userStatus: string; permissionProfileId?: string; permissionProfileName?: string; isAdmin: string; groupList: { groupId: string }[] };
type Group = { groupId: string; groupName: string; permissionProfileId?: string; usersCount: string };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (c: unknown) => {
    createPermissionProfile(accountId: string, opts: unknown): Promise<Profile>;
    listPermissions(accountId: string, opts?: unknown): Promise<{ permissionProfiles: Profile[] }>;
    getPermissionProfile(accountId: string, id: string): Promise<Profile>;
    updatePermissionProfile(accountId: string, id: string, opts: unknown): Promise<Profile>;
    deletePermissionProfile(accountId: string, id: string, opts?: unknown): Promise<unknown>;
    getAccountInformation(accountId: string): Promise<Json>;
    updateSettings(accountId: string, opts: unknown): Promise<unknown>;
    createBrand(accountId: string, opts: unknown): Promise<unknown>;
    getSupportedLanguages(accountId: string): Promise<{ languages: { name: string; value: string }[] }>;
  };
  GroupsApi: new (c: unknown) => {
    createGroups(accountId: string, opts: unknown): Promise<{ groups: Group[] }>;
    updateGroups(accountId: string, opts: unknown): Promise<{ groups: Group[] }>;
    listGroups(accountId: string, opts?: unknown): Promise<{ groups: Group[] }>;
    deleteGroups(accountId: string, opts: unknown): Promise<{ groups: Group[] }>;
    listGroupUsers(accountId: string, groupId: string): Promise<{ users: { userId: string }[] }>;
    updateGroupUsers(accountId: string, groupId: string, opts: unknown): Promise<{ users: { userId: string }[] }>;
    deleteGroupUsers(accountId: string, groupId: string, opts: unknown): Promise<{ users: { userId: string }[] }>;
  };
  UsersApi: new (c: unknown) => {
    create(accountId: string, opts: unknown): Promise<{ newUsers: User[] }>;
    list(accountId: string, opts?: unknown): Promise<{ users: User[]; totalSetSize: string }>;
    getInformation(accountId: string, userId: string): Promise<User>;
    updateUser(accountId: string, userId: string, opts: unknown): Promise<User>;
    _delete(accountId: string, opts: unknown): Promise<{ users: User[] }>;
    updateUsers(accountId: string, opts: unknown): Promise<{ users: User[] }>;
    getProfile(accountId: string, userId: string): Promise<{ userDetails: User }>;
    updateProfile(accountId: string, userId: string, opts: unknown): Promise<unknown>;
    getSettings(accountId: string, userId: string): Promise<Record<string, string>>;
    updateSettings(accountId: string, userId: string, opts: unknown): Promise<unknown>;
  };
  EnvelopesApi: new (c: unknown) => { createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }> };
  TemplatesApi: new (c: unknown) => { listTemplates(accountId: string): Promise<unknown>; createTemplate(accountId: string, opts: unknown): Promise<{ templateId: string }>; get(accountId: string, templateId: string): Promise<{ templateId: string }> };
  FoldersApi: new (c: unknown) => { moveEnvelopes(accountId: string, folderId: string, opts: unknown): Promise<unknown> };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

function client(token: string) {
  const api = new docusign.ApiClient();
  api.setBasePath(`${h.origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${token}`);
  return api;
}
const accounts = (token = admin.token) => new docusign.AccountsApi(client(token));
const groups = (token = admin.token) => new docusign.GroupsApi(client(token));
const users = (token = admin.token) => new docusign.UsersApi(client(token));

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

/** A token for a user through the admin's app, as an integration would get one (code grant). */
function tokenFor(email: string, password: string): Promise<string> {
  return accessTokenFor(h, { ...admin, email, password });
}

/** Invites through UsersApi.create, follows the mailed link, sets the password: the member's id and token. */
async function inviteAndJoin(email: string, extra: Json = {}): Promise<{ userId: string; token: string }> {
  const { newUsers } = await users().create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'Grace Hopper', email, ...extra }] } });
  const created = newUsers[0];
  assert.ok(created);
  assert.equal(created.userStatus, 'ActivationSent');
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === email), { timeoutMs: 15_000, intervalMs: 20, what: 'the invitation mail' });
  const link = /https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  assert.ok(link, mail.text);
  const browser = new FormClient(h.origin);
  const page = await browser.get(new URL(link).pathname);
  assert.equal(page.status, 200);
  const joined = await browser.post(new URL(link).pathname, { _csrf: hiddenField(page.text, '_csrf'), password: 'a long enough password' });
  assert.deepEqual([joined.status, joined.headers.location], [303, '/console']);
  // Single use.
  assert.equal((await new FormClient(h.origin).get(new URL(link).pathname)).status, 404);
  return { userId: created.userId, token: await tokenFor(email, 'a long enough password') };
}

test('the default profiles, and DocuSign\'s createPermission, permissionSetUserGroup, permissionChangeSingleSetting and deletePermission examples', async () => {
  const defaults = (await accounts().listPermissions(admin.accountId)).permissionProfiles;
  assert.deepEqual(defaults.map((p) => p.permissionProfileName), ['Account Administrator', 'DocuSign Sender', 'DocuSign Viewer']);
  assert.equal(defaults[0]?.userCount, '1');

  // createPermission: the example's whole settings object, a number among the strings.
  const settings = {
    useNewDocuSignExperienceInterface: 0, allowBulkSending: 'true', allowEnvelopeSending: 'true', allowSignerAttachments: 'true',
    allowTaggingInSendAndCorrect: 'true', allowWetSigningOverride: 'true', allowedAddressBookAccess: 'personalAndShared', allowedTemplateAccess: 'share',
    enableRecipientViewingNotifications: 'true', enableSequentialSigningInterface: 'true', receiveCompletedSelfSignedDocumentsAsEmailLinks: 'false',
    signingUiVersion: 'v2', useNewSendingInterface: 'true', allowApiAccess: 'true', allowApiAccessToAccount: 'true', allowApiSendingOnBehalfOfOthers: 'true',
    allowApiSequentialSigning: 'true', enableApiRequestLogging: 'true', allowDocuSignDesktopClient: 'false', allowSendersToSetRecipientEmailLanguage: 'true',
    allowVaulting: 'false', allowedToBeEnvelopeTransferRecipient: 'true', enableTransactionPointIntegration: 'false', powerFormRole: 'admin', vaultingMode: 'none',
  };
  const created = await accounts().createPermissionProfile(admin.accountId, { permissionProfile: { permissionProfileName: 'Example profile', settings } });
  assert.equal(created.permissionProfileName, 'Example profile');
  const stored = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, String(v)]));
  // The SDK's model has no signingUiVersion property (only its …Metadata twin), so it drops it on reading; the wire carries it.
  const { signingUiVersion, ...modelled } = stored;
  assert.deepEqual({ ...created.settings }, modelled);
  const raw = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/permission_profiles/${created.permissionProfileId}`, { headers: { authorization: `Bearer ${admin.token}` } });
  assert.equal(((await raw.json()) as Profile).settings.signingUiVersion, signingUiVersion);

  // permissionSetUserGroup: the form lists profiles and groups, then updateGroups gives a group the profile.
  const { groups: [group] } = await groups().createGroups(admin.accountId, { groupInformation: { groups: [{ groupName: 'Example group' }] } });
  assert.ok(group);
  assert.deepEqual((await accounts().listPermissions(admin.accountId)).permissionProfiles.map((p) => p.permissionProfileName).at(-1), 'Example profile');
  assert.deepEqual((await groups().listGroups(admin.accountId)).groups.map((g) => g.groupName), ['Example group']);
  const set = await groups().updateGroups(admin.accountId, { groupInformation: { groups: [{ permissionProfileId: created.permissionProfileId, groupId: group.groupId }] } });
  assert.equal(set.groups[0]?.permissionProfileId, created.permissionProfileId);

  // permissionChangeSingleSetting: a new name alone; the settings stay.
  const renamed = await accounts().updatePermissionProfile(admin.accountId, created.permissionProfileId, { permissionProfile: { permissionProfileName: 'Renamed profile' } });
  assert.equal(renamed.permissionProfileName, 'Renamed profile');
  assert.equal(renamed.settings.powerFormRole, 'admin');

  // deletePermission: refused while the group has it (DocuSign refuses a profile in use), then deleted.
  assert.deepEqual(await sdkFailure(accounts().deletePermissionProfile(admin.accountId, created.permissionProfileId)), [400, 'PERMISSION_PROFILE_IN_USE']);
  await groups().deleteGroups(admin.accountId, { groupInformation: { groups: [{ groupId: group.groupId }] } });
  await accounts().deletePermissionProfile(admin.accountId, created.permissionProfileId);
  assert.equal((await accounts().listPermissions(admin.accountId)).permissionProfiles.length, 3);

  // Never stored in silence: a setting neither enforced nor stored, by name.
  const refused = await fetch(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}/permission_profiles`, {
    method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ permissionProfileName: 'x', settings: { accountManagementGranular: { allowManageUsers: 'true' }, allowApiAccess: 'true' } }),
  });
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as { message: string }).message, /accountManagementGranular/);
  // The defaults stay: the administrator profile cannot change, none can be deleted.
  const [adminProfile, senderProfile] = defaults;
  assert.ok(adminProfile && senderProfile);
  assert.deepEqual(await sdkFailure(accounts().updatePermissionProfile(admin.accountId, adminProfile.permissionProfileId, { permissionProfile: { settings: { allowApiAccess: 'false' } } })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await sdkFailure(accounts().deletePermissionProfile(admin.accountId, senderProfile.permissionProfileId)), [400, 'INVALID_REQUEST_PARAMETER']);
});

test('an invited member: the mail\'s single-use link, userinfo, each enforced setting denied as a user without it, the console lists members and invitations', async () => {
  const member = await inviteAndJoin('grace@example.com');
  const info = (await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${member.token}` } })).json()) as { accounts: { account_id: string; is_default: boolean }[] };
  assert.deepEqual(info.accounts.map((a) => [a.account_id, a.is_default]), [[admin.accountId, true]]);
  const me = await users(member.token).getInformation(admin.accountId, member.userId);
  assert.deepEqual([me.userStatus, me.permissionProfileName, me.isAdmin], ['Active', 'DocuSign Sender', 'False']);

  // One profile per enforced setting, given to the member in turn; the same token follows at once.
  const profileWithout = async (name: string, denied: Record<string, string>) => (await accounts().createPermissionProfile(admin.accountId, { permissionProfile: {
    permissionProfileName: name, settings: { allowEnvelopeSending: 'true', allowedTemplateAccess: 'share', allowAccountManagement: 'false', allowApiAccess: 'true', ...denied },
  } })).permissionProfileId;
  const give = (profileId: string) => users().updateUser(admin.accountId, member.userId, { userInformation: { permissionProfileId: profileId } });
  const draft = () => new docusign.EnvelopesApi(client(member.token)).createEnvelope(admin.accountId, { envelopeDefinition: { emailSubject: 'Draft', status: 'created' } });
  const template = () => new docusign.TemplatesApi(client(member.token)).createTemplate(admin.accountId, { envelopeTemplate: { name: 'T', emailSubject: 'T' } });
  const templates = () => new docusign.TemplatesApi(client(member.token)).listTemplates(admin.accountId);

  // As a sender: sends and makes templates, does not manage the account.
  await draft();
  await template();
  assert.deepEqual(await sdkFailure(accounts(member.token).updateSettings(admin.accountId, { accountSettingsInformation: { accountName: 'Mine now' } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(accounts(member.token).createBrand(admin.accountId, { brand: { brandName: 'Mine' } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users(member.token).list(admin.accountId)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(accounts(member.token).createPermissionProfile(admin.accountId, { permissionProfile: { permissionProfileName: 'Root', settings: { allowAccountManagement: 'true' } } })), [400, 'USER_LACKS_PERMISSIONS']);

  await give(await profileWithout('No sending', { allowEnvelopeSending: 'false' }));
  assert.deepEqual(await sdkFailure(draft()), [400, 'USER_LACKS_PERMISSIONS']);
  await templates();

  // The administrator's template, which the body of other areas' calls can name (a review found
  // both open to a member with no template rights: the envelope route needs sending, the folder
  // route sending, and neither looked at the body's templates).
  const adminsTemplate = await new docusign.TemplatesApi(client(admin.token)).createTemplate(admin.accountId, { envelopeTemplate: { name: 'Confidential', emailSubject: 'Confidential' } });
  const fromTemplate = () => new docusign.EnvelopesApi(client(member.token)).createEnvelope(admin.accountId, { envelopeDefinition: { templateId: adminsTemplate.templateId, status: 'created' } });
  const binTemplate = () => new docusign.FoldersApi(client(member.token)).moveEnvelopes(admin.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [adminsTemplate.templateId] } });

  await give(await profileWithout('Templates: use', { allowedTemplateAccess: 'use' }));
  await templates();
  assert.deepEqual(await sdkFailure(template()), [400, 'USER_LACKS_PERMISSIONS']);
  // Past the rights check: the template (no documents) is the only thing wrong with the call.
  assert.deepEqual(await sdkFailure(fromTemplate()), [400, 'ENVELOPE_IS_INCOMPLETE']);
  assert.deepEqual(await sdkFailure(binTemplate()), [400, 'USER_LACKS_PERMISSIONS']);
  // The console's pages follow the same profile.
  const pages = new FormClient(h.origin);
  await logIn(pages, (await pages.get('/login')).text, 'grace@example.com', 'a long enough password');
  assert.equal((await pages.get('/console/templates')).status, 200);
  assert.equal((await pages.get('/console/connect')).status, 400);
  await give(await profileWithout('No templates', { allowedTemplateAccess: 'none' }));
  assert.deepEqual(await sdkFailure(templates()), [400, 'USER_LACKS_PERMISSIONS']);
  assert.equal((await pages.get('/console/templates')).status, 400);
  await draft();
  assert.deepEqual(await sdkFailure(fromTemplate()), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(binTemplate()), [400, 'USER_LACKS_PERMISSIONS']);
  assert.equal((await new docusign.TemplatesApi(client(admin.token)).get(admin.accountId, adminsTemplate.templateId)).templateId, adminsTemplate.templateId, 'the template is still there');

  await give(await profileWithout('No API', { allowApiAccess: 'false' }));
  assert.deepEqual(await sdkFailure(accounts(member.token).getAccountInformation(admin.accountId)), [400, 'USER_LACKS_PERMISSIONS']);

  // Attack: a member without account management raises their own profile.
  await give(await profileWithout('Plain', {}));
  const adminProfile = (await accounts().listPermissions(admin.accountId)).permissionProfiles.find((p) => p.permissionProfileName === 'Account Administrator');
  assert.ok(adminProfile);
  assert.deepEqual(await sdkFailure(users(member.token).updateUser(admin.accountId, member.userId, { userInformation: { permissionProfileId: adminProfile.permissionProfileId } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users(member.token).updateUser(admin.accountId, admin.userId, { userInformation: { userName: 'Pwned' } })), [400, 'USER_LACKS_PERMISSIONS']);
  // …nor through a group that has the administrator profile.
  assert.deepEqual(await sdkFailure(groups(member.token).createGroups(admin.accountId, { groupInformation: { groups: [{ groupName: 'Admins', permissionProfileId: adminProfile.permissionProfileId }] } })), [400, 'USER_LACKS_PERMISSIONS']);
  // Renaming themselves is theirs.
  assert.equal((await users(member.token).updateUser(admin.accountId, member.userId, { userInformation: { userName: 'Grace B. Hopper' } })).userName, 'Grace B. Hopper');
  assert.equal((await users().getInformation(admin.accountId, member.userId)).isAdmin, 'False');

  // A pending invitation and the members, on the console's members page.
  await users().create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'Pending Person', email: 'pending@example.com' }] } });
  const browser = new FormClient(h.origin);
  await logIn(browser, (await browser.get('/login')).text, admin.email, admin.password);
  const page = await browser.get('/console/members');
  assert.equal(page.status, 200);
  const [membersPart, invitationsPart] = page.text.split('Pending invitations');
  assert.match(membersPart ?? '', /grace@example\.com/);
  assert.match(invitationsPart ?? '', /pending@example\.com/);
  assert.doesNotMatch(membersPart ?? '', /pending@example\.com/);
  // The pending user cannot log in before using their link.
  const tryPending = new FormClient(h.origin);
  assert.equal((await logIn(tryPending, (await tryPending.get('/login')).text, 'pending@example.com', '')).status, 401);
});

test('a user\'s profile and settings, updateUsers, the supported languages; nobody renames a member of another account', async () => {
  const member = await inviteAndJoin('lin@example.com');
  const sender = (await accounts().listPermissions(admin.accountId)).permissionProfiles.find((p) => p.permissionProfileName === 'DocuSign Sender');
  const viewer = (await accounts().listPermissions(admin.accountId)).permissionProfiles.find((p) => p.permissionProfileName === 'DocuSign Viewer');
  assert.ok(sender && viewer);

  // getProfile and getSettings: a member reads their own; another member's are the administrators'.
  const profile = await users(member.token).getProfile(admin.accountId, member.userId);
  assert.deepEqual([profile.userDetails.userId, profile.userDetails.email, profile.userDetails.permissionProfileName], [member.userId, 'lin@example.com', 'DocuSign Sender']);
  const settings = await users(member.token).getSettings(admin.accountId, member.userId);
  assert.deepEqual([settings.canSendEnvelope, settings.canManageTemplates, settings.canManageAccount, settings.canSendAPIRequests], ['true', 'share', 'false', 'true']);
  assert.deepEqual(await sdkFailure(users(member.token).getProfile(admin.accountId, admin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users(member.token).getSettings(admin.accountId, admin.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  assert.equal((await users().getSettings(admin.accountId, admin.userId)).canManageAccount, 'true');

  // updateProfile: the userDetails' name, as updateUser takes it; profile data and a raised profile are refused.
  await users(member.token).updateProfile(admin.accountId, member.userId, { userProfile: { userDetails: { userName: 'Lin Renamed' } } });
  assert.equal((await users().getInformation(admin.accountId, member.userId)).userName, 'Lin Renamed');
  assert.deepEqual(await sdkFailure(users(member.token).updateProfile(admin.accountId, member.userId, { userProfile: { companyName: 'ACME', userDetails: { userName: 'Lin' } } })), [400, 'INVALID_REQUEST_BODY']);
  const adminProfile = (await accounts().listPermissions(admin.accountId)).permissionProfiles.find((p) => p.permissionProfileName === 'Account Administrator');
  assert.deepEqual(await sdkFailure(users(member.token).updateProfile(admin.accountId, member.userId, { userProfile: { userDetails: { permissionProfileId: adminProfile?.permissionProfileId } } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users(member.token).updateProfile(admin.accountId, admin.userId, { userProfile: { userDetails: { userName: 'Pwned' } } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.equal((await users().getInformation(admin.accountId, member.userId)).userName, 'Lin Renamed');
  // updateSettings is refused by name: a user's settings are their permission profile's.
  const [status, code] = await sdkFailure(users().updateSettings(admin.accountId, member.userId, { userSettingsInformation: { canSendEnvelope: 'false' } }));
  assert.deepEqual([status, code], [400, 'INVALID_REQUEST_PARAMETER']);

  // updateUsers: all or none. One unknown user, and nobody changed; then both at once.
  const second = await inviteAndJoin('mo@example.com');
  assert.deepEqual(await sdkFailure(users().updateUsers(admin.accountId, { userInformationList: { users: [
    { userId: member.userId, permissionProfileId: viewer.permissionProfileId }, { userId: 'no-such-user', userName: 'Ghost' },
  ] } })), [400, 'INVALID_USERID']);
  assert.equal((await users().getInformation(admin.accountId, member.userId)).permissionProfileName, 'DocuSign Sender');
  const both = await users().updateUsers(admin.accountId, { userInformationList: { users: [
    { userId: member.userId, permissionProfileId: viewer.permissionProfileId }, { userId: second.userId, userName: 'Mo Updated' },
  ] } });
  assert.deepEqual(both.users.map((u) => [u.userId, u.userName, u.permissionProfileName]), [[member.userId, 'Lin Renamed', 'DocuSign Viewer'], [second.userId, 'Mo Updated', 'DocuSign Sender']]);
  assert.deepEqual(await sdkFailure(users(second.token).updateUsers(admin.accountId, { userInformationList: { users: [{ userId: second.userId, userName: 'Mo' }] } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users().updateUsers(admin.accountId, { userInformationList: { users: [{ userId: second.userId, email: 'new@example.com' }] } })), [400, 'INVALID_REQUEST_BODY']);

  // Attack: an administrator invites the address of another account's owner, who never accepts,
  // and renames them: their name everywhere (their own account, its envelopes) would change.
  const victim = await seedUserAndApp(h, { email: 'owner-elsewhere@example.com' });
  await users().create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'Whoever', email: 'owner-elsewhere@example.com' }] } });
  assert.deepEqual(await sdkFailure(users().updateUser(admin.accountId, victim.userId, { userInformation: { userName: 'Renamed by a stranger' } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users().updateProfile(admin.accountId, victim.userId, { userProfile: { userDetails: { userName: 'Renamed by a stranger' } } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(users().updateUsers(admin.accountId, { userInformationList: { users: [{ userId: victim.userId, userName: 'Renamed by a stranger' }] } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.equal((await users().getInformation(admin.accountId, victim.userId)).userName, 'Ada Lovelace');
  // Their profile in this account is still the administrator's to set.
  await users().updateUser(admin.accountId, victim.userId, { userInformation: { permissionProfileId: sender.permissionProfileId } });
  // When they accept (a login of theirs: the link only confirms), userinfo names both accounts, theirs the default.
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'owner-elsewhere@example.com'), { timeoutMs: 15_000, intervalMs: 20, what: 'the invitation mail' });
  const path = new URL(/https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0] ?? assert.fail('a link')).pathname;
  const browser = new FormClient(h.origin);
  const confirm = await browser.get(path);
  assert.doesNotMatch(confirm.text, /type="password"/);
  assert.deepEqual([(await browser.post(path, { _csrf: hiddenField(confirm.text, '_csrf') })).status], [303]);
  const victimToken = await tokenFor(victim.email, victim.password);
  const info = (await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${victimToken}` } })).json()) as { accounts: { account_id: string; is_default: boolean }[] };
  assert.deepEqual(info.accounts.map((a) => [a.account_id, a.is_default]).sort(), [[admin.accountId, false], [victim.accountId, true]].sort());
  assert.equal((await users(victimToken).getInformation(admin.accountId, victim.userId)).userStatus, 'Active');
  assert.deepEqual(await sdkFailure(users().updateUser(admin.accountId, victim.userId, { userInformation: { userName: 'Renamed by a stranger' } })), [400, 'USER_LACKS_PERMISSIONS']);
  // They rename themselves, in every account they belong to.
  await users(victimToken).updateProfile(admin.accountId, victim.userId, { userProfile: { userDetails: { userName: 'Ada King' } } });
  assert.equal((await users().getInformation(admin.accountId, victim.userId)).userName, 'Ada King');

  // getSupportedLanguages: the languages recipients read in, by the codes supportedLanguage takes.
  const { languages } = await accounts(second.token).getSupportedLanguages(admin.accountId);
  assert.deepEqual(languages.map((l) => l.value), ['en', 'de', 'fr', 'es', 'pt_BR', 'it', 'nl', 'ja']);
  assert.deepEqual(languages.slice(0, 2).map((l) => l.name), ['English', 'German']);
});

test('groups and their users; a group\'s profile goes to its members; a removed member\'s token stops at once; another account stays out', async () => {
  const member = await inviteAndJoin('ada2@example.com');
  const viewer = (await accounts().listPermissions(admin.accountId)).permissionProfiles.find((p) => p.permissionProfileName === 'DocuSign Viewer');
  assert.ok(viewer);
  const { groups: [group] } = await groups().createGroups(admin.accountId, { groupInformation: { groups: [{ groupName: 'Viewers', permissionProfileId: viewer.permissionProfileId }] } });
  assert.ok(group);
  await groups().updateGroupUsers(admin.accountId, group.groupId, { userInfoList: { users: [{ userId: member.userId }] } });
  assert.deepEqual((await groups().listGroupUsers(admin.accountId, group.groupId)).users.map((u) => u.userId), [member.userId]);
  const joined = await users().getInformation(admin.accountId, member.userId);
  assert.deepEqual([joined.permissionProfileName, joined.groupList.map((g) => g.groupId)], ['DocuSign Viewer', [group.groupId]]);
  assert.equal((await groups().listGroups(admin.accountId)).groups.find((g) => g.groupId === group.groupId)?.usersCount, '1');
  // Invited straight into the group (named twice, one membership): the group's profile, not the default Sender's.
  const invited = (await users().create(admin.accountId, { newUsersDefinition: { newUsers: [{ email: 'grouped@example.com', userName: 'Grouped', groupList: [{ groupId: group.groupId }, { groupId: group.groupId }] }] } })).newUsers[0]!;
  const grouped = await users().getInformation(admin.accountId, invited.userId);
  assert.deepEqual([grouped.permissionProfileName, grouped.groupList.map((g) => g.groupId)], ['DocuSign Viewer', [group.groupId]]);
  await users()._delete(admin.accountId, { userInfoList: { users: [{ userId: invited.userId }] } });
  await groups().deleteGroupUsers(admin.accountId, group.groupId, { userInfoList: { users: [{ userId: member.userId }] } });
  assert.deepEqual((await groups().listGroupUsers(admin.accountId, group.groupId)).users, []);

  // The last administrator can neither demote nor remove themselves.
  assert.deepEqual(await sdkFailure(users().updateUser(admin.accountId, admin.userId, { userInformation: { permissionProfileId: viewer.permissionProfileId } })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await sdkFailure(users()._delete(admin.accountId, { userInfoList: { users: [{ userId: admin.userId }] } })), [400, 'INVALID_REQUEST_PARAMETER']);

  // Another account: its token stays out of this account, and this account's ids mean nothing in it.
  const other = await secondAccount(h);
  assert.deepEqual(await sdkFailure(users(other.token).list(admin.accountId)), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  assert.deepEqual(await sdkFailure(users(other.token).getInformation(other.accountId, member.userId)), [400, 'INVALID_USERID']);
  assert.deepEqual(await sdkFailure(users(other.token).updateUser(other.accountId, other.accountId, { userInformation: { permissionProfileId: viewer.permissionProfileId } })), [400, 'INVALID_USERID']);
  assert.deepEqual(await sdkFailure(groups(other.token).updateGroupUsers(other.accountId, group.groupId, { userInfoList: { users: [{ userId: member.userId }] } })), [400, 'INVALID_GROUP_ID']);
  const otherProfile = (await accounts(other.token).listPermissions(other.accountId)).permissionProfiles[0];
  assert.ok(otherProfile);
  assert.deepEqual(await sdkFailure(users().updateUser(admin.accountId, member.userId, { userInformation: { permissionProfileId: otherProfile.permissionProfileId } })), [400, 'INVALID_PERMISSION_PROFILE_ID']);

  // Removal: the membership closes and the member's token stops working for this account at once.
  // (Leaving the group kept the Viewer profile, which has no API access: the sender profile back first.)
  assert.deepEqual(await sdkFailure(users(member.token).getInformation(admin.accountId, member.userId)), [400, 'USER_LACKS_PERMISSIONS']);
  const sender = (await accounts().listPermissions(admin.accountId)).permissionProfiles.find((p) => p.permissionProfileName === 'DocuSign Sender');
  await users().updateUser(admin.accountId, member.userId, { userInformation: { permissionProfileId: sender?.permissionProfileId } });
  await users(member.token).getInformation(admin.accountId, member.userId);
  const removed = await users()._delete(admin.accountId, { userInfoList: { users: [{ userId: member.userId }] } });
  assert.equal(removed.users[0]?.userStatus, 'Closed');
  assert.deepEqual(await sdkFailure(users(member.token).getInformation(admin.accountId, member.userId)), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  const info = (await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${member.token}` } })).json()) as { accounts: unknown[] };
  assert.deepEqual(info.accounts, []);
  assert.deepEqual((await users().list(admin.accountId, { status: 'Closed' })).users.map((u) => u.email).sort(), ['ada2@example.com', 'grouped@example.com']);
  // Unsupported query parameters and fields are refused by name.
  assert.deepEqual(await sdkFailure(users().list(admin.accountId, { loginStatus: 'true' })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await sdkFailure(users().create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'X', email: 'x@example.com', password: 'chosen by admin' }] } })), [400, 'INVALID_REQUEST_BODY']);

  // The invitation's link expires: 72 hours later it no longer works and the user stays pending.
  await users().create(admin.accountId, { newUsersDefinition: { newUsers: [{ userName: 'Late Larry', email: 'late@example.com' }] } });
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'late@example.com'), { timeoutMs: 15_000, intervalMs: 20, what: 'the invitation mail' });
  const path = new URL(/https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0] ?? assert.fail('a link')).pathname;
  assert.equal((await new FormClient(h.origin).get(path)).status, 200);
  h.clock.advance(72 * 3600 + 1);
  assert.equal((await new FormClient(h.origin).get(path)).status, 404);
});
