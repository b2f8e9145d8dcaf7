import { sdkFailure } from '../support/sdk-failure.ts';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';

// The official SDK, unmodified: only what this test calls is typed.
type Tab = { tabId: string; documentId: string; pageNumber: string; xPosition: string; yPosition: string; tabLabel?: string; anchorString?: string };
type Role = { recipientId: string; roleName?: string; name?: string; routingOrder?: string; tabs?: { signHereTabs?: Tab[] } };
type Recipients = { signers: Role[]; carbonCopies: Role[]; recipientCount?: string };
type TemplatesApi = {
  createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }>;
  createRecipients(accountId: string, templateId: string, opts: { templateRecipients: unknown }): Promise<Recipients>;
  updateRecipients(accountId: string, templateId: string, opts: { templateRecipients: unknown }): Promise<{ recipientUpdateResults: { recipientId: string }[] }>;
  deleteRecipient(accountId: string, templateId: string, recipientId: string): Promise<Recipients>;
  deleteRecipients(accountId: string, templateId: string, opts: { templateRecipients: unknown }): Promise<Recipients>;
  listRecipients(accountId: string, templateId: string, opts?: Record<string, string>): Promise<Recipients>;
  listTabs(accountId: string, templateId: string, recipientId: string): Promise<{ signHereTabs?: Tab[] }>;
  createTabs(accountId: string, templateId: string, recipientId: string, opts: { templateTabs: unknown }): Promise<{ signHereTabs?: Tab[] }>;
  updateTabs(accountId: string, templateId: string, recipientId: string, opts: { templateTabs: unknown }): Promise<{ signHereTabs?: Tab[] }>;
  deleteTabs(accountId: string, templateId: string, recipientId: string, opts: { templateTabs: unknown }): Promise<{ signHereTabs?: Tab[] }>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listRecipients(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<Recipients>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; TemplatesApi: new (c: unknown) => TemplatesApi; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());


const place = (tabs: Tab[] | undefined) => tabs?.map((x) => [x.documentId, x.pageNumber, x.xPosition, x.yPosition]);

test('template recipients and tabs through the SDK: create, update, list, delete; tabs placed on the stored PDF; an envelope takes the edited template', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  const templates = new docusign.TemplatesApi(client);
  const envelopes = new docusign.EnvelopesApi(client);
  const acc = h.accountId;
  const { templateId } = await templates.createTemplate(acc, { envelopeTemplate: {
    name: 'Lease',
    documents: [{ documentBase64: b64(await samplePdf(2, 'Lease')), documentId: '1', name: 'Lease.pdf' }],
    recipients: { signers: [{ roleName: 'tenant', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] },
  } });

  // createRecipients: a role whose anchored tab is found in the stored PDF (both pages), and a carbon copy.
  const added = await templates.createRecipients(acc, templateId, { templateRecipients: { signers: [{ roleName: 'landlord', recipientId: '2', routingOrder: '2', tabs: { signHereTabs: [{ anchorString: 'Signature:', anchorXOffset: '80' }] } }], carbonCopies: [{ roleName: 'agent', recipientId: '3' }] } });
  assert.deepEqual(added.signers.map((s) => [s.recipientId, s.roleName, s.tabs?.signHereTabs?.length]), [['2', 'landlord', 2]]);
  assert.deepEqual(added.carbonCopies.map((c) => c.roleName), ['agent']);
  assert.equal((await templates.listRecipients(acc, templateId)).recipientCount, '3');

  // updateRecipients: the role's own fields.
  const updated = await templates.updateRecipients(acc, templateId, { templateRecipients: { signers: [{ recipientId: '2', roleName: 'owner', routingOrder: '3' }] } });
  assert.deepEqual(updated.recipientUpdateResults.map((r) => r.recipientId), ['2']);
  assert.deepEqual((await templates.listRecipients(acc, templateId)).signers.map((s) => [s.roleName, s.routingOrder]), [['tenant', '1'], ['owner', '3']]);

  // Tabs: create (absolute), update (moved, its tabId kept), delete.
  const created = await templates.createTabs(acc, templateId, '1', { templateTabs: { signHereTabs: [{ documentId: '1', pageNumber: '2', xPosition: '200', yPosition: '300', tabLabel: 'second' }] } });
  assert.deepEqual(place(created.signHereTabs), [['1', '2', '200', '300']]);
  const newTab = created.signHereTabs?.[0]?.tabId ?? '';
  const moved = await templates.updateTabs(acc, templateId, '1', { templateTabs: { signHereTabs: [{ tabId: newTab, xPosition: '250' }] } });
  assert.deepEqual(moved.signHereTabs?.map((x) => [x.tabId === newTab, x.pageNumber, x.xPosition, x.yPosition, x.tabLabel]).at(-1), [true, '2', '250', '300', 'second']);
  const listed = await templates.listTabs(acc, templateId, '1');
  assert.equal(listed.signHereTabs?.length, 2);
  const first = listed.signHereTabs?.[0]?.tabId ?? '';
  const left = await templates.deleteTabs(acc, templateId, '1', { templateTabs: { signHereTabs: [{ tabId: first }] } });
  assert.deepEqual(left.signHereTabs?.map((x) => x.tabId), [newTab]);

  // Bad edits: DocuSign-style 400s, nothing changed.
  assert.deepEqual(await sdkFailure(templates.updateTabs(acc, templateId, '1', { templateTabs: { signHereTabs: [{ tabId: 'nope', xPosition: '1' }] } })), [400, 'INVALID_TAB_OPERATION']);
  assert.deepEqual(await sdkFailure(templates.createTabs(acc, templateId, '1', { templateTabs: { signHereTabs: [{ documentId: '1', pageNumber: '9', xPosition: '1', yPosition: '1' }] } })), [400, 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT']);
  assert.deepEqual(await sdkFailure(templates.createTabs(acc, templateId, '1', { templateTabs: { textTabs: [{ documentId: '1', xPosition: '1', yPosition: '1', maxLength: '2', value: 'abc' }] } })), [400, 'INVALID_TAB_VALUE']);
  assert.deepEqual(await sdkFailure(templates.createTabs(acc, templateId, '1', { templateTabs: { drawTabs: [{ documentId: '1', xPosition: '1', yPosition: '1' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(templates.createRecipients(acc, templateId, { templateRecipients: { signers: [{ roleName: 'TENANT', recipientId: '9' }] } })), [400, 'TEMPLATE_ROLE_NAME_DUPLICATE']);
  assert.deepEqual(await sdkFailure(templates.createRecipients(acc, templateId, { templateRecipients: { signers: [{ roleName: 'x', recipientId: '1' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(templates.updateRecipients(acc, templateId, { templateRecipients: { signers: [{ recipientId: '1', email: 'nope' }] } })), [400, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT']);
  assert.deepEqual(await sdkFailure(templates.deleteRecipient(acc, templateId, '42')), [400, 'UNKNOWN_ENVELOPE_RECIPIENT']);
  assert.deepEqual(place((await templates.listTabs(acc, templateId, '1')).signHereTabs), [['1', '2', '250', '300']]);

  // Another account never edits it.
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const otherClient = new docusign.ApiClient();
  otherClient.setBasePath(`${h.origin}/restapi`);
  otherClient.addDefaultHeader('Authorization', `Bearer ${token}`);
  const theirs = new docusign.TemplatesApi(otherClient);
  assert.deepEqual(await sdkFailure(theirs.deleteRecipient(seed.accountId, templateId, '1')), [400, 'TEMPLATE_ID_INVALID']);
  assert.deepEqual(await sdkFailure(theirs.createTabs(seed.accountId, templateId, '1', { templateTabs: { signHereTabs: [{ documentId: '1', xPosition: '1', yPosition: '1' }] } })), [400, 'TEMPLATE_ID_INVALID']);

  // deleteRecipient and deleteRecipients.
  const afterOne = await templates.deleteRecipient(acc, templateId, '3');
  assert.deepEqual(afterOne.carbonCopies, []);
  const envelope = await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, status: 'sent', templateRoles: [{ roleName: 'tenant', name: 'Tina Tenant', email: 'tina@example.com' }, { roleName: 'owner', name: 'Olga Owner', email: 'olga@example.com' }] } });
  const envelopeTabs = (await envelopes.listRecipients(acc, envelope.envelopeId, { includeTabs: 'true' })).signers.map((s) => place(s.tabs?.signHereTabs));
  assert.deepEqual(envelopeTabs[0], [['1', '2', '250', '300']]);
  assert.equal(envelopeTabs[1]?.length, 2);
  const none = await templates.deleteRecipients(acc, templateId, { templateRecipients: { signers: [{ recipientId: '1' }, { recipientId: '2' }] } });
  assert.deepEqual([none.signers, none.recipientCount], [[], '0']);
});
