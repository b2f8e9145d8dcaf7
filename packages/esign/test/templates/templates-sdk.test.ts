import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
type Json = Record<string, unknown>;
type SdkError = { response?: { status: number; data: { errorCode: string; message: string } } };
type Role = { recipientId: string; roleName?: string; name?: string; email?: string; routingOrder?: string; tabs?: { signHereTabs?: Json[] } };
type TemplatesApi = {
  createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string; name: string; uri: string }>;
  listTemplates(accountId: string, opts?: Json): Promise<{ resultSetSize: string; totalSetSize: string; startPosition: string; envelopeTemplates?: (Json & { templateId: string; name: string })[] }>;
  get(accountId: string, templateId: string, opts?: Json): Promise<Json & { templateId: string; name: string; shared: string; emailSubject: string; emailBlurb: string; documents?: { documentId: string; name: string; pages: string }[]; recipients?: { signers: Role[]; carbonCopies: Role[] } }>;
  update(accountId: string, templateId: string, opts: { envelopeTemplate: unknown }): Promise<{ envelopeId?: string }>;
  listDocuments(accountId: string, templateId: string): Promise<{ templateDocuments: { documentId: string; name: string; pages: unknown[] }[] }>;
  getDocument(accountId: string, templateId: string, documentId: string): Promise<Buffer>;
  listRecipients(accountId: string, templateId: string, opts?: Json): Promise<{ recipientCount: string; signers: Role[]; carbonCopies: Role[] }>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string; status: string }>;
  getEnvelope(accountId: string, envelopeId: string, opts?: Json): Promise<Json & { status: string; emailSubject: string }>;
  update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<{ envelopeId: string }>;
  listRecipients(accountId: string, envelopeId: string, opts?: Json): Promise<{ signers: (Role & { status: string; clientUserId?: string; tabs?: { signHereTabs: { tabId: string; documentId: string; pageNumber: string; xPosition: string; yPosition: string }[] } })[]; carbonCopies: Role[] }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string }[] }>;
  getDocument(accountId: string, envelopeId: string, documentId: string): Promise<Buffer>;
  listStatusChanges(accountId: string, opts: Json): Promise<{ totalSetSize: string }>;
};
type FoldersApi = { moveEnvelopes(accountId: string, folderId: string, opts: { foldersRequest: unknown }): Promise<unknown> };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  TemplatesApi: new (client: unknown) => TemplatesApi;
  EnvelopesApi: new (client: unknown) => EnvelopesApi;
  FoldersApi: new (client: unknown) => FoldersApi;
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const run = promisify(execFile);

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function apis(h: SigningHarness, token = h.token) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return { templates: new docusign.TemplatesApi(client), envelopes: new docusign.EnvelopesApi(client), folders: new docusign.FoldersApi(client) };
}

async function sdkError(promise: Promise<unknown>): Promise<{ status: number; errorCode: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    const response = (err as SdkError).response;
    assert.ok(response, `expected an HTTP error, got ${String(err)}`);
    return { status: response.status, errorCode: response.data.errorCode, message: response.data.message };
  }
  assert.fail('expected the SDK call to fail');
}

/** A token of a second user, who has an account of their own. */
async function otherAccountToken(h: SigningHarness): Promise<{ token: string; accountId: string }> {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  return { token, accountId: seed.accountId };
}

/** Two pages; "Signature:" on each page (samplePdf), so an anchor on it matches twice. */
async function ndaTemplate(name: string): Promise<Json> {
  return {
    name,
    description: 'A mutual NDA',
    emailSubject: 'Please sign the NDA',
    emailBlurb: 'Thank you.',
    shared: 'false',
    status: 'created',
    documents: [{ documentBase64: b64(await samplePdf(2, 'Mutual NDA')), documentId: '1', fileExtension: 'pdf', name: 'NDA.pdf' }],
    recipients: {
      signers: [
        { roleName: 'signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: 'Signature:', anchorUnits: 'pixels', anchorXOffset: '80', anchorYOffset: '-10' }] } },
        { roleName: 'witness', recipientId: '2', routingOrder: '2', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '600' }] } },
      ],
      carbonCopies: [{ roleName: 'cc', recipientId: '3', routingOrder: '3' }],
    },
  };
}

async function envelopeCount(api: EnvelopesApi, accountId: string): Promise<number> {
  return Number((await api.listStatusChanges(accountId, { fromDate: '2000-01-01' })).totalSetSize);
}

test('TemplatesApi through the SDK: create, list (search_text, count/start_position), get with includes, update, documents, recipients, delete; account-scoped', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates, folders } = apis(h);
  const acc = h.accountId;

  const created = await templates.createTemplate(acc, { envelopeTemplate: await ndaTemplate('NDA template') });
  assert.match(created.templateId, /^[0-9a-f-]{36}$/);
  assert.equal(created.name, 'NDA template');
  assert.equal(created.uri, `/templates/${created.templateId}`);
  await templates.createTemplate(acc, { envelopeTemplate: { ...(await ndaTemplate('Lease template')), emailSubject: 'Lease' } });

  // list: all, by search_text (case-folded), paged.
  const all = await templates.listTemplates(acc);
  assert.deepEqual([all.resultSetSize, all.totalSetSize], ['2', '2']);
  assert.deepEqual(all.envelopeTemplates?.map((x) => x.name), ['Lease template', 'NDA template']);
  const found = await templates.listTemplates(acc, { searchText: 'nda' });
  assert.deepEqual(found.envelopeTemplates?.map((x) => x.templateId), [created.templateId]);
  const page = await templates.listTemplates(acc, { count: '1', startPosition: '1' });
  assert.deepEqual([page.resultSetSize, page.totalSetSize, page.startPosition, page.envelopeTemplates?.[0]?.name], ['1', '2', '1', 'NDA template']);
  assert.equal((await templates.listTemplates(acc, { searchText: 'nothing like it' })).resultSetSize, '0');

  // get with recipients, documents and tabs: the anchor matched on both pages, the absolute tab where it was put.
  const full = await templates.get(acc, created.templateId, { include: 'recipients,documents,tabs' });
  assert.deepEqual([full.name, full.shared, full.emailSubject, full.emailBlurb, full.description], ['NDA template', 'false', 'Please sign the NDA', 'Thank you.', 'A mutual NDA']);
  assert.deepEqual(full.documents?.map((d) => [d.documentId, d.name, d.pages]), [['1', 'NDA.pdf', '2']]);
  assert.deepEqual(full.recipients?.signers.map((s) => [s.roleName, s.recipientId, s.name, s.email]), [['signer', '1', '', ''], ['witness', '2', '', '']]);
  assert.deepEqual(full.recipients?.carbonCopies.map((s) => s.roleName), ['cc']);
  const signerTabs = full.recipients?.signers[0]?.tabs?.signHereTabs ?? [];
  assert.deepEqual(signerTabs.map((tab) => [tab.documentId, tab.pageNumber]), [['1', '1'], ['1', '2']]);
  assert.ok(signerTabs.every((tab) => Math.abs(Number(tab.xPosition) - 152) < 2), JSON.stringify(signerTabs));
  assert.deepEqual(full.recipients?.signers[1]?.tabs?.signHereTabs?.map((tab) => [tab.pageNumber, tab.xPosition, tab.yPosition]), [['1', '300', '600']]);
  const bare = await templates.get(acc, created.templateId);
  assert.equal(bare.recipients, undefined);

  // update: the template's own fields.
  const updated = await templates.update(acc, created.templateId, { envelopeTemplate: { name: 'NDA (v2)', emailSubject: 'Sign the NDA, v2', shared: 'true' } });
  assert.equal(updated.envelopeId, created.templateId);
  const after = await templates.get(acc, created.templateId);
  assert.deepEqual([after.name, after.emailSubject, after.shared, after.description], ['NDA (v2)', 'Sign the NDA, v2', 'true', 'A mutual NDA']);

  // documents and recipients.
  const documents = await templates.listDocuments(acc, created.templateId);
  assert.deepEqual(documents.templateDocuments.map((d) => [d.documentId, d.name, d.pages.length]), [['1', 'NDA.pdf', 2]]);
  const pdf = await templates.getDocument(acc, created.templateId, '1');
  assert.equal(Buffer.from(pdf).subarray(0, 5).toString(), '%PDF-');
  // The SDK reads getDocument's body as bytes, errors included: the code is checked over plain HTTP.
  assert.equal((await sdkError(templates.getDocument(acc, created.templateId, '9'))).status, 400);
  assert.equal(((await (await h.api('GET', `/templates/${created.templateId}/documents/9`)).json()) as { errorCode: string }).errorCode, 'DOCUMENT_DOES_NOT_EXIST');
  const recipients = await templates.listRecipients(acc, created.templateId, { includeTabs: 'true' });
  assert.equal(recipients.recipientCount, '3');
  assert.equal(recipients.signers[0]?.tabs?.signHereTabs?.length, 2);

  // Another account's token: never sees, reads, changes or uses the template.
  const other = await otherAccountToken(h);
  const theirs = apis(h, other.token);
  assert.equal((await theirs.templates.listTemplates(other.accountId)).resultSetSize, '0');
  for (const call of [
    () => theirs.templates.get(other.accountId, created.templateId),
    () => theirs.templates.update(other.accountId, created.templateId, { envelopeTemplate: { name: 'stolen' } }),
    () => theirs.envelopes.createEnvelope(other.accountId, { envelopeDefinition: { templateId: created.templateId, templateRoles: [{ roleName: 'signer', name: 'Eve', email: 'eve@example.com' }], status: 'sent' } }),
  ]) {
    assert.deepEqual(await sdkError(call()).then((e) => [e.status, e.errorCode]), [400, 'TEMPLATE_ID_INVALID']);
  }
  // The recycle bin takes envelopes and templates alike: an id of neither in this account is DocuSign's envelope error.
  assert.deepEqual(await sdkError(theirs.folders.moveEnvelopes(other.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [created.templateId] } })).then((e) => [e.status, e.errorCode]), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  const stolen = await fetch(`${h.origin}/restapi/v2.1/accounts/${other.accountId}/templates/${created.templateId}/documents/1`, { headers: { authorization: `Bearer ${other.token}` } });
  assert.deepEqual([stolen.status, ((await stolen.json()) as { errorCode: string }).errorCode], [400, 'TEMPLATE_ID_INVALID']);
  // Nor through the owner's account id (the API guard checks membership first).
  assert.equal((await sdkError(theirs.templates.get(acc, created.templateId))).status, 400);
  assert.equal((await templates.get(acc, created.templateId)).name, 'NDA (v2)');

  // delete, as the SDK does it: move to the recycle bin.
  await folders.moveEnvelopes(acc, 'recyclebin', { foldersRequest: { envelopeIds: [created.templateId] } });
  assert.equal((await sdkError(templates.get(acc, created.templateId))).errorCode, 'TEMPLATE_ID_INVALID');
  assert.equal((await templates.listTemplates(acc)).totalSetSize, '1');
});

test('an envelope from a template (templateId + templateRoles, as useTemplate does): roles filled, tabs copied, created then sent, a copy; bad input refused whole', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates, envelopes } = apis(h);
  const acc = h.accountId;
  const { templateId } = await templates.createTemplate(acc, { envelopeTemplate: await ndaTemplate('NDA template') });
  const templateTabs = (await templates.listRecipients(acc, templateId, { includeTabs: 'true' })).signers.map((s) => s.tabs?.signHereTabs?.map((tab) => [tab.documentId, tab.pageNumber, tab.xPosition, tab.yPosition]));

  // useTemplate's makeEnvelope: TemplateRole {email, name, roleName} per role, status sent. The witness is left out: dropped.
  const sent = await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, templateRoles: [{ email: 'sam@example.com', name: 'Sam Signer', roleName: 'signer' }, { email: 'carl@example.com', name: 'Carl Copy', roleName: 'cc' }], status: 'sent' } });
  assert.equal(sent.status, 'sent');
  const got = await envelopes.getEnvelope(acc, sent.envelopeId);
  assert.equal(got.emailSubject, 'Please sign the NDA');
  const sentRecipients = await envelopes.listRecipients(acc, sent.envelopeId, { includeTabs: 'true' });
  assert.deepEqual(sentRecipients.signers.map((s) => [s.recipientId, s.name, s.email, s.status]), [['1', 'Sam Signer', 'sam@example.com', 'sent']]);
  assert.deepEqual(sentRecipients.carbonCopies.map((s) => [s.recipientId, s.name]), [['3', 'Carl Copy']]);
  assert.deepEqual(sentRecipients.signers[0]?.tabs?.signHereTabs.map((tab) => [tab.documentId, tab.pageNumber, tab.xPosition, tab.yPosition]), templateTabs[0]);

  // status created, then sent; clientUserId and routingOrder from the role entry.
  const draft = await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, emailSubject: 'Our NDA', templateRoles: [{ email: 'sam@example.com', name: 'Sam Signer', roleName: 'SIGNER', clientUserId: 'sam-1' }, { email: 'wes@example.com', name: 'Wes Witness', roleName: 'witness', routingOrder: '5' }], status: 'created' } });
  assert.equal(draft.status, 'created');
  await envelopes.update(acc, draft.envelopeId, { envelope: { status: 'sent' } });
  const draftRecipients = await envelopes.listRecipients(acc, draft.envelopeId, { includeTabs: 'true' });
  assert.deepEqual(draftRecipients.signers.map((s) => [s.recipientId, s.name, s.clientUserId, s.routingOrder, s.status]), [['1', 'Sam Signer', 'sam-1', '1', 'sent'], ['2', 'Wes Witness', undefined, '5', 'created']]);
  assert.equal((await envelopes.getEnvelope(acc, draft.envelopeId)).emailSubject, 'Our NDA');
  const draftPdf = await envelopes.getDocument(acc, draft.envelopeId, '1');

  // A copy: editing and deleting the template later changes neither envelope.
  await templates.update(acc, templateId, { envelopeTemplate: { name: 'Renamed', emailSubject: 'Changed subject' } });
  await h.api('DELETE', `/templates/${templateId}`);
  assert.equal((await sdkError(templates.get(acc, templateId))).errorCode, 'TEMPLATE_ID_INVALID');
  assert.equal((await envelopes.getEnvelope(acc, sent.envelopeId)).emailSubject, 'Please sign the NDA');
  assert.deepEqual(Buffer.compare(await envelopes.getDocument(acc, draft.envelopeId, '1'), draftPdf), 0);
  assert.deepEqual((await envelopes.listRecipients(acc, draft.envelopeId, { includeTabs: 'true' })).signers.map((s) => s.tabs?.signHereTabs.length), [2, 1]);

  // Bad input: DocuSign's code, a 4xx, and no envelope written.
  const fresh = await templates.createTemplate(acc, { envelopeTemplate: await ndaTemplate('NDA again') });
  const empty = await templates.createTemplate(acc, { envelopeTemplate: { name: 'No documents', recipients: { signers: [{ roleName: 'signer', recipientId: '1' }] } } });
  const before = await envelopeCount(envelopes, acc);
  const role = { email: 'sam@example.com', name: 'Sam Signer', roleName: 'signer' };
  const cases: [unknown, string][] = [
    [{ templateId: '00000000-0000-0000-0000-000000000000', templateRoles: [role], status: 'sent' }, 'TEMPLATE_ID_INVALID'],
    [{ templateId: fresh.templateId, templateRoles: [role, { ...role, roleName: 'buyer' }], status: 'sent' }, 'TEMPLATE_ROLE_NOT_FOUND'],
    [{ templateId: fresh.templateId, templateRoles: [{ ...role, email: 'not-an-email' }], status: 'sent' }, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT'],
    [{ templateId: fresh.templateId, templateRoles: [{ roleName: 'signer', name: 'No Mail' }], status: 'sent' }, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT'],
    [{ templateId: empty.templateId, templateRoles: [role], status: 'sent' }, 'ENVELOPE_IS_INCOMPLETE'],
    [{ templateId: fresh.templateId, templateRoles: [], status: 'sent' }, 'ENVELOPE_IS_INCOMPLETE'],
    [{ templateId: fresh.templateId, templateRoles: [role], documents: [{ documentId: '1', name: 'x.pdf', documentBase64: 'JVBERg==' }], status: 'sent' }, 'INVALID_REQUEST_BODY'],
    [{ templateId: fresh.templateId, templateRoles: [{ ...role, tabs: { textTabs: [{ tabLabel: 'company', value: 'ACME' }] } }], status: 'sent' }, 'INVALID_REQUEST_BODY'],
    // A brand the account does not have (docs/esign-brands.md).
    [{ templateId: fresh.templateId, brandId: 'b-1', templateRoles: [role], status: 'sent' }, 'BRAND_ID_INVALID'],
    // What is not done is refused by name, never dropped: a role's access code, an inline signer's.
    [{ templateId: fresh.templateId, templateRoles: [{ ...role, accessCode: '1234' }], status: 'sent' }, 'INVALID_REQUEST_BODY'],
    [{ compositeTemplates: [{ serverTemplates: [{ sequence: '1', templateId: fresh.templateId }], inlineTemplates: [{ sequence: '2', recipients: { signers: [{ ...role, recipientId: '1', accessCode: '1234' }] } }] }], status: 'sent' }, 'INVALID_REQUEST_BODY'],
  ];
  for (const [definition, code] of cases) {
    const e = await sdkError(envelopes.createEnvelope(acc, { envelopeDefinition: definition }));
    assert.deepEqual([e.status, e.errorCode], [400, code], `${JSON.stringify(definition).slice(0, 120)}: ${e.message}`);
  }
  assert.equal(await envelopeCount(envelopes, acc), before, 'no envelope was written by a refused request');
  // Duplicate role names and bad template input: refused, no template written.
  const templatesBefore = (await templates.listTemplates(acc)).totalSetSize;
  const duplicate = await ndaTemplate('Duplicate roles');
  (duplicate.recipients as { carbonCopies: Role[] }).carbonCopies[0] = { roleName: 'Signer', recipientId: '3' };
  assert.deepEqual(await sdkError(templates.createTemplate(acc, { envelopeTemplate: duplicate })).then((e) => [e.status, e.errorCode]), [400, 'TEMPLATE_ROLE_NAME_DUPLICATE']);
  assert.equal((await sdkError(templates.createTemplate(acc, { envelopeTemplate: { ...(await ndaTemplate('Folder')), folderId: 'abc' } }))).errorCode, 'INVALID_REQUEST_BODY');
  assert.equal((await sdkError(templates.createTemplate(acc, { envelopeTemplate: { ...(await ndaTemplate('Bad anchor')), recipients: { signers: [{ roleName: 's', recipientId: '1', tabs: { signHereTabs: [{ anchorString: 'nowhere-to-be-found' }] } }] } } }))).errorCode, 'ANCHOR_TAB_STRING_NOT_FOUND');
  assert.equal((await templates.listTemplates(acc)).totalSetSize, templatesBefore);
});

test('compositeTemplates as addDocToTemplate does: a server template with roles inline, plus an HTML document with its own anchored tabs; a composite document replaces the template’s', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates, envelopes } = apis(h);
  const acc = h.accountId;
  const { templateId } = await templates.createTemplate(acc, { envelopeTemplate: await ndaTemplate('NDA template') });
  const signer = { email: 'sam@example.com', name: 'Sam Signer', roleName: 'signer', recipientId: '1', clientUserId: '1000' };
  const cc = { email: 'carl@example.com', name: 'Carl Copy', roleName: 'cc', recipientId: '2' };
  const html = '<!doctype html><html><body><h1>Order form</h1><p>Agreed: <span style="color:white">**signature_1**</span></p></body></html>';
  const definition = {
    status: 'sent',
    compositeTemplates: [
      { compositeTemplateId: '1', serverTemplates: [{ sequence: '1', templateId }], inlineTemplates: [{ sequence: '2', recipients: { signers: [signer], carbonCopies: [cc] } }] },
      {
        compositeTemplateId: '2',
        inlineTemplates: [{ sequence: '1', recipients: { signers: [{ ...signer, tabs: { signHereTabs: [{ anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' }] } }], carbonCopies: [cc] } }],
        document: { documentBase64: Buffer.from(html).toString('base64'), name: 'Appendix 1--Sales order', fileExtension: 'html', documentId: '1' },
      },
    ],
  };
  const made = await envelopes.createEnvelope(acc, { envelopeDefinition: definition });
  assert.equal(made.status, 'sent');
  const docs = await envelopes.listDocuments(acc, made.envelopeId);
  assert.deepEqual(docs.envelopeDocuments.map((d) => [d.documentId, d.name]), [['1', 'NDA.pdf'], ['2', 'Appendix 1--Sales order']]);
  const recipients = await envelopes.listRecipients(acc, made.envelopeId, { includeTabs: 'true' });
  assert.deepEqual(recipients.signers.map((s) => [s.recipientId, s.name, s.clientUserId]), [['1', 'Sam Signer', '1000']]);
  assert.deepEqual(recipients.carbonCopies.map((s) => s.name), ['Carl Copy']);
  assert.deepEqual(recipients.signers[0]?.tabs?.signHereTabs.map((tab) => tab.documentId), ['1', '1', '2']);

  // A composite document replaces the template's; its tabs are placed again on it (the anchor is found there too).
  const replaced = await envelopes.createEnvelope(acc, { envelopeDefinition: {
    status: 'created',
    compositeTemplates: [{
      serverTemplates: [{ sequence: '1', templateId }],
      inlineTemplates: [{ sequence: '2', recipients: { signers: [signer, { email: 'wes@example.com', name: 'Wes Witness', roleName: 'witness', recipientId: '2' }] } }],
      document: { documentBase64: b64(await samplePdf(1, 'Replacement')), name: 'Replacement.pdf', documentId: '7' },
    }],
  } });
  assert.deepEqual((await envelopes.listDocuments(acc, replaced.envelopeId)).envelopeDocuments.map((d) => [d.documentId, d.name]), [['7', 'Replacement.pdf']]);
  const placed = (await envelopes.listRecipients(acc, replaced.envelopeId, { includeTabs: 'true' })).signers.map((s) => s.tabs?.signHereTabs.map((tab) => [tab.documentId, tab.pageNumber, tab.xPosition, tab.yPosition]));
  assert.equal(placed[0]?.length, 1, 'one page: the anchor matches once');
  assert.deepEqual(placed[1], [['7', '1', '300', '600']]);
});

test('an envelope made from a template is signed to a sealed PDF', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templates, envelopes } = apis(h);
  const acc = h.accountId;
  const { templateId } = await templates.createTemplate(acc, { envelopeTemplate: await ndaTemplate('NDA template') });
  const made = await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, templateRoles: [{ email: 'sam@example.com', name: 'Sam Signer', roleName: 'signer', clientUserId: 'sam-1' }], status: 'sent' } });
  const envelopeId = made.envelopeId;
  const view = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'sam@example.com', userName: 'Sam Signer', clientUserId: 'sam-1' });
  assert.equal(view.status, 201, await view.clone().text());
  const signer = new FormClient(h.origin);
  const redeemed = await signer.get(new URL(((await view.json()) as { url: string }).url).pathname);
  assert.equal(redeemed.status, 303);
  const ceremony = await signer.get(String(redeemed.headers.location));
  assert.equal(ceremony.status, 200);
  const tabs = (await envelopes.listRecipients(acc, envelopeId, { includeTabs: 'true' })).signers[0]?.tabs?.signHereTabs ?? [];
  assert.equal(tabs.length, 2);
  const finished = await signer.post(`${String(redeemed.headers.location)}/finish`, { _csrf: hiddenField(ceremony.text, '_csrf'), signatureKind: 'typed', signatureText: 'Sam Signer', signedTabs: tabs.map((tab) => tab.tabId).join(',') });
  assert.equal(finished.status, 303, finished.text);
  await pollUntil(async () => (await envelopes.getEnvelope(acc, envelopeId)).status === 'completed', { timeoutMs: 30_000, intervalMs: 100, what: 'the envelope completed' });
  const combined = await h.api('GET', `/envelopes/${envelopeId}/documents/combined`);
  assert.equal(combined.headers.get('content-type'), 'application/pdf');
  // Sealed: poppler's pdfsig (an independent verifier) finds a valid signature.
  const dir = mkdtempSync(join(tmpdir(), 'signet-template-seal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'combined.pdf'), Buffer.from(await combined.arrayBuffer()));
  const report = await run('pdfsig', [join(dir, 'combined.pdf')]).then((r) => r.stdout, (err: { stdout?: string }) => err.stdout ?? '');
  assert.match(report, /Signature is Valid/);
});
