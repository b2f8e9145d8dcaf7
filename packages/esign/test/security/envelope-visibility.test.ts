// A review found every envelope of an account open to every member with API access: a DocuSign
// Sender read, voided and corrected the administrator's envelopes, opened signing sessions for
// their embedded signers and binned them. DocuSign's members reach only their own envelopes
// (sent, or received to read) unless their profile has "view and manage envelope rights through
// API" (allowApiAccessToAccount); shared access is the way to another user's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { authorizeViaForms, logIn, tokenRequest } from '../support/authorize.ts';
import { FormClient } from '../support/form-client.ts';
import { startEnvelopeEsign } from '../support/envelope-harness.ts';
import { seedUserAndApp, type Harness } from '../support/esign-harness.ts';

type Who = { token: string; userId: string; email: string };

async function userWithToken(h: Harness): Promise<Who & { accountId: string; password: string }> {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  return { token, userId: seed.userId, email: seed.email, accountId: seed.accountId, password: seed.password };
}

test('members reach the envelopes they sent or received, administrators and allowApiAccessToAccount every envelope; the API, folders, bulk send and console agree', async (t) => {
  const h = await startEnvelopeEsign(t, { converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields } });
  const admin = await userWithToken(h);
  const bob = await userWithToken(h);
  const carol = await userWithToken(h);
  for (const member of [bob, carol]) await h.store.accounts.addMembership(member.userId, admin.accountId, h.clock.now());
  const call = async (who: Who, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${admin.accountId}${path}`, { method, headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.body.text();
    const json = String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(text) as Record<string, unknown> : {};
    return { status: res.statusCode, json };
  };
  const refused = async (answer: Promise<{ status: number; json: Record<string, unknown> }>, why: RegExp) => {
    const { status, json } = await answer;
    assert.equal(status, 400, JSON.stringify(json));
    assert.equal(json.errorCode, 'USER_LACKS_PERMISSIONS');
    assert.match(String(json.message), why);
  };
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const documents = [{ documentId: '1', name: 'One.pdf', documentBase64: Buffer.from(await pdf.save()).toString('base64') }];
  const signer = (email: string, extra: Record<string, unknown> = {}) => ({ email, name: 'Signer', recipientId: '1', ...extra, tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '20' }] } });
  // The administrator's envelope, sent to Carol (and an embedded signer), and Bob's own draft.
  const adminsId = String((await call(admin, 'POST', '/envelopes', { emailSubject: 'Admin', status: 'sent', documents, recipients: { signers: [signer(carol.email.toUpperCase()), { ...signer('embedded@example.com', { clientUserId: 'c1' }), recipientId: '2' }] } })).json.envelopeId);
  const bobsId = String((await call(bob, 'POST', '/envelopes', { emailSubject: 'Bob', status: 'created', documents, recipients: { signers: [signer('x@example.com')] } })).json.envelopeId);
  const listed = async (who: Who) => ((await call(who, 'GET', '/envelopes?from_date=2000-01-01')).json.envelopes as { envelopeId: string }[]).map((e) => e.envelopeId).sort();

  // Bob, a DocuSign Sender: none of the administrator's envelope, by path or by listing.
  const other = /another user's, and the user's permission profile does not reach the account's envelopes \(allowApiAccessToAccount\)/;
  await refused(call(bob, 'GET', `/envelopes/${adminsId}`), other);
  await refused(call(bob, 'GET', `/envelopes/${adminsId}/documents/1`), other);
  await refused(call(bob, 'PUT', `/envelopes/${adminsId}`, { status: 'voided', voidedReason: 'mine now' }), other);
  await refused(call(bob, 'PUT', `/envelopes/${adminsId}/recipients`, { signers: [{ recipientId: '1', email: 'bob@evil.example', name: 'Bob' }] }), other);
  await refused(call(bob, 'POST', `/envelopes/${adminsId}/views/recipient`, { returnUrl: 'https://example.com/', authenticationMethod: 'none', email: 'embedded@example.com', userName: 'Signer', clientUserId: 'c1' }), other);
  await refused(call(bob, 'PUT', '/folders/recyclebin', { envelopeIds: [adminsId] }), other);
  assert.deepEqual(await listed(bob), [bobsId]);
  const bobsFolders = (await call(bob, 'GET', '/folders')).json.folders as { type: string; itemCount: string }[];
  assert.equal(bobsFolders.find((f) => f.type === 'sentitems')?.itemCount, '0');
  const sentItems = (await call(bob, 'GET', '/folders/sentitems?from_date=2000-01-01')).json.folderItems as unknown[] | undefined;
  assert.equal(sentItems?.length ?? 0, 0);
  // Bulk sending copies a draft as one's own: not another's.
  const list = (await call(bob, 'POST', '/bulk_send_lists', { name: 'rows', bulkCopies: [{ recipients: [{ recipientId: '1', name: 'Row', email: 'row@example.com' }] }] })).json;
  await refused(call(bob, 'POST', `/bulk_send_lists/${String(list.listId)}/test`, { envelopeOrTemplateId: adminsId }), other);
  // His own: all of it.
  assert.equal((await call(bob, 'GET', `/envelopes/${bobsId}`)).status, 200);

  // Carol received the administrator's envelope: she reads it, and changes nothing of it.
  assert.equal((await call(carol, 'GET', `/envelopes/${adminsId}`)).status, 200);
  assert.equal((await call(carol, 'GET', `/envelopes/${adminsId}/documents/1`)).status, 200);
  assert.deepEqual(await listed(carol), [adminsId]);
  await refused(call(carol, 'PUT', `/envelopes/${adminsId}`, { status: 'voided', voidedReason: 'no' }), /sent to this user by another, who alone may change it/);
  await refused(call(carol, 'PUT', '/folders/recyclebin', { envelopeIds: [adminsId] }), /sent to this user by another/);

  // The console's envelope pages follow the same rule.
  const consoleOf = async (who: Who & { password: string }) => {
    const browser = new FormClient(h.origin);
    await logIn(browser, (await browser.get('/login')).text, who.email, who.password);
    return browser;
  };
  const bobsConsole = await consoleOf(bob);
  assert.equal((await bobsConsole.get(`/console/envelopes/${adminsId}`)).status, 400);
  assert.equal((await bobsConsole.get(`/console/envelopes/${adminsId}/documents/1/pages/1`)).status, 400);
  assert.equal((await bobsConsole.get(`/console/envelopes/${bobsId}`)).status, 200);
  assert.equal((await (await consoleOf(carol)).get(`/console/envelopes/${adminsId}`)).status, 200);

  // The administrator reaches every envelope; so does a member whose profile has allowApiAccessToAccount.
  assert.equal((await call(admin, 'GET', `/envelopes/${bobsId}`)).status, 200);
  assert.deepEqual(await listed(admin), [adminsId, bobsId].sort());
  const profile = await call(admin, 'POST', '/permission_profiles', { permissionProfileName: 'Account-wide sender', settings: { allowEnvelopeSending: 'true', allowedTemplateAccess: 'none', allowApiAccess: 'true', allowApiAccessToAccount: 'true' } });
  assert.equal((await call(admin, 'PUT', `/users/${bob.userId}`, { permissionProfileId: profile.json.permissionProfileId })).status, 200);
  assert.equal((await call(bob, 'GET', `/envelopes/${adminsId}`)).status, 200);
  assert.deepEqual(await listed(bob), [adminsId, bobsId].sort());
  assert.equal((await call(admin, 'GET', `/envelopes/${adminsId}`)).json.status, 'sent', 'nothing refused changed it');
});
