import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';

// The official SDK, unmodified: only what this test calls is typed.
type Json = Record<string, unknown>;
type Entry = Json & { recipientId: string; roleName?: string; name?: string; email?: string; routingOrder?: string; hostName?: string; hostEmail?: string; signerName?: string; witnessFor?: string; excludedDocuments?: string[]; agentCanEditName?: string; tabs?: { signHereTabs?: Json[] } };
type Lists = Record<'signers' | 'carbonCopies' | 'inPersonSigners' | 'certifiedDeliveries' | 'agents' | 'editors' | 'intermediaries' | 'witnesses', Entry[]> & { recipientCount?: string };
type TemplatesApi = {
  createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }>;
  get(accountId: string, templateId: string, opts?: Json): Promise<Json & { enforceSignerVisibility?: string; recipients?: Lists }>;
  update(accountId: string, templateId: string, opts: { envelopeTemplate: unknown }): Promise<unknown>;
  listRecipients(accountId: string, templateId: string, opts?: Json): Promise<Lists>;
  createRecipients(accountId: string, templateId: string, opts: { templateRecipients: unknown }): Promise<Lists>;
  updateRecipients(accountId: string, templateId: string, opts: { templateRecipients: unknown }): Promise<unknown>;
  deleteRecipient(accountId: string, templateId: string, recipientId: string): Promise<Lists>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<Json & { enforceSignerVisibility?: string }>;
  listRecipients(accountId: string, envelopeId: string, opts?: Json): Promise<Lists>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; TemplatesApi: new (c: unknown) => TemplatesApi; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

const sign = (documentId: string) => ({ signHereTabs: [{ documentId, pageNumber: '1', xPosition: '100', yPosition: '100' }] });
const summary = (l: Lists) => Object.fromEntries(Object.entries(l).filter(([, v]) => Array.isArray(v) && v.length > 0).map(([k, v]) => [k, (v as Entry[]).map((e) => e.recipientId)]));

test('templates carry every recipient type and document visibility; templateRoles and compositeTemplates fill them; template recipient edits keep witnesses and visibility whole', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  const templates = new docusign.TemplatesApi(client);
  const envelopes = new docusign.EnvelopesApi(client);
  const acc = h.accountId;
  const documents = [
    { documentBase64: b64(await samplePdf(1, 'Contract')), documentId: '1', name: 'Contract.pdf' },
    { documentBase64: b64(await samplePdf(1, 'Price list')), documentId: '2', name: 'Prices.pdf' },
  ];
  const { templateId } = await templates.createTemplate(acc, { envelopeTemplate: {
    name: 'Every type', documents, enforceSignerVisibility: 'true',
    recipients: {
      agents: [{ roleName: 'agent', recipientId: '1', routingOrder: '1' }],
      signers: [{ roleName: 'buyer', recipientId: '2', routingOrder: '2', agentCanEditName: 'true', tabs: sign('1') }],
      witnesses: [{ roleName: 'witness', recipientId: '3', witnessFor: '2', tabs: sign('1') }],
      inPersonSigners: [{ roleName: 'walk-in', recipientId: '4', routingOrder: '4', tabs: sign('1') }],
      certifiedDeliveries: [{ roleName: 'auditor', recipientId: '5', routingOrder: '5' }],
      editors: [{ roleName: 'editor', recipientId: '6', routingOrder: '6' }],
      intermediaries: [{ roleName: 'broker', recipientId: '7', routingOrder: '7' }],
      carbonCopies: [{ roleName: 'archive', recipientId: '8', routingOrder: '8', excludedDocuments: ['2'] }],
    },
  } });

  // Read back in every list, with what each type carries; the witness comes after its signer.
  const read = await templates.get(acc, templateId, { include: 'recipients' });
  assert.equal(read.enforceSignerVisibility, 'true');
  const lists = read.recipients as Lists;
  assert.deepEqual(summary(lists), { signers: ['2'], carbonCopies: ['8'], agents: ['1'], editors: ['6'], intermediaries: ['7'], certifiedDeliveries: ['5'], inPersonSigners: ['4'], witnesses: ['3'] });
  assert.deepEqual([lists.witnesses[0]?.witnessFor, lists.witnesses[0]?.routingOrder], ['2', '3']);
  assert.deepEqual([lists.signers[0]?.agentCanEditName, lists.carbonCopies[0]?.excludedDocuments], ['true', ['2']]);
  assert.deepEqual([lists.inPersonSigners[0]?.hostName, lists.inPersonSigners[0]?.hostEmail], ['', '']);

  // templateRoles fill them: an in-person role by its host (name, email) and inPersonSignerName, as DocuSign's TemplateRole says;
  // the buyer is left for the agent to name (a placeholder after an agent stays, unnamed).
  const { envelopeId } = await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, status: 'sent', templateRoles: [
    { roleName: 'agent', name: 'Ada Agent', email: 'ada@example.com' },
    { roleName: 'witness', name: 'Wes Witness', email: 'wes@example.com' },
    { roleName: 'walk-in', name: 'Hal Host', email: 'hal@example.com', inPersonSignerName: 'Pat Walkin' },
    { roleName: 'auditor', name: 'Aud Itor', email: 'aud@example.com' },
    { roleName: 'editor', name: 'Ed Itor', email: 'ed@example.com' },
    { roleName: 'broker', name: 'Bo Broker', email: 'bo@example.com' },
    { roleName: 'archive', name: 'Archie', email: 'archie@example.com' },
  ] } });
  assert.equal((await envelopes.getEnvelope(acc, envelopeId)).enforceSignerVisibility, 'true');
  const got = await envelopes.listRecipients(acc, envelopeId, { includeTabs: 'true' });
  assert.deepEqual(summary(got), { signers: ['2'], carbonCopies: ['8'], agents: ['1'], editors: ['6'], intermediaries: ['7'], certifiedDeliveries: ['5'], inPersonSigners: ['4'], witnesses: ['3'] });
  assert.deepEqual([got.signers[0]?.name, got.signers[0]?.email, got.signers[0]?.agentCanEditName], ['', '', 'true']);
  const walkIn = got.inPersonSigners[0];
  assert.deepEqual([walkIn?.hostName, walkIn?.hostEmail, walkIn?.signerName, walkIn?.tabs?.signHereTabs?.length], ['Hal Host', 'hal@example.com', 'Pat Walkin', 1]);
  assert.deepEqual([got.witnesses[0]?.witnessFor, got.witnesses[0]?.tabs?.signHereTabs?.length, got.carbonCopies[0]?.excludedDocuments], ['2', 1, ['2']]);
  assert.equal(got.agents[0]?.status, 'sent');

  // compositeTemplates: inline recipients of any type fill roles or are added; the roles left
  // unfilled are all routed after the agent, who names them, so they stay as placeholders.
  const composite = await envelopes.createEnvelope(acc, { envelopeDefinition: { status: 'created', compositeTemplates: [{
    serverTemplates: [{ sequence: '1', templateId }],
    inlineTemplates: [{ sequence: '2', recipients: {
      agents: [{ roleName: 'agent', recipientId: '1', name: 'Ada Agent', email: 'ada@example.com' }],
      inPersonSigners: [{ roleName: 'walk-in', recipientId: '4', hostName: 'Hal Host', hostEmail: 'hal@example.com', signerName: 'Pat Walkin', signerEmail: 'pat@example.com' }],
      witnesses: [{ roleName: 'witness', recipientId: '3', name: 'Wes Witness', email: 'wes@example.com' }],
      certifiedDeliveries: [{ recipientId: '9', name: 'New Cd', email: 'cd@example.com', routingOrder: '9' }],
    } }],
  }] } });
  const compositeLists = await envelopes.listRecipients(acc, composite.envelopeId);
  assert.deepEqual(summary(compositeLists), { signers: ['2'], carbonCopies: ['8'], agents: ['1'], editors: ['6'], intermediaries: ['7'], certifiedDeliveries: ['5', '9'], inPersonSigners: ['4'], witnesses: ['3'] });
  assert.deepEqual(compositeLists.certifiedDeliveries.map((c) => c.email), ['', 'cd@example.com']);
  assert.deepEqual([compositeLists.inPersonSigners[0]?.signerName, compositeLists.inPersonSigners[0]?.email], ['Pat Walkin', 'pat@example.com']);

  // Template recipient calls: a witness added for an existing signer; an update of the host and the hidden documents.
  const added = await templates.createRecipients(acc, templateId, { templateRecipients: { witnesses: [{ roleName: 'second witness', recipientId: '10', witnessFor: '4', routingOrder: '9' }] } });
  assert.deepEqual(summary(added), { witnesses: ['10'] });
  await templates.updateRecipients(acc, templateId, { templateRecipients: { inPersonSigners: [{ recipientId: '4', hostName: 'Default Host', hostEmail: 'desk@example.com' }], carbonCopies: [{ recipientId: '8', excludedDocuments: ['1', '2'] }] } });
  const edited = await templates.listRecipients(acc, templateId);
  assert.deepEqual([edited.inPersonSigners[0]?.hostName, edited.inPersonSigners[0]?.hostEmail, edited.carbonCopies[0]?.excludedDocuments], ['Default Host', 'desk@example.com', ['1', '2']]);

  // Refused, nothing changed: a witness of a signer that does not exist, or of one who signs nothing;
  // deleting the signer a witness watches; a tab hidden from its own signer; visibility turned off under an exclusion.
  const failures = [
    await sdkFailure(templates.createRecipients(acc, templateId, { templateRecipients: { witnesses: [{ roleName: 'ghost witness', recipientId: '11', witnessFor: '99', routingOrder: '9' }] } })),
    await sdkFailure(templates.createRecipients(acc, templateId, { templateRecipients: { witnesses: [{ roleName: 'cc witness', recipientId: '11', witnessFor: '8', routingOrder: '9' }] } })),
    await sdkFailure(templates.deleteRecipient(acc, templateId, '2')),
    await sdkFailure(templates.updateRecipients(acc, templateId, { templateRecipients: { signers: [{ recipientId: '2', excludedDocuments: ['1'] }] } })),
    await sdkFailure(templates.update(acc, templateId, { envelopeTemplate: { enforceSignerVisibility: 'false' } })),
    await sdkFailure(templates.updateRecipients(acc, templateId, { templateRecipients: { signers: [{ recipientId: '2', hostName: 'Nobody' }] } })),
  ];
  assert.deepEqual(failures.map((f) => f[1]), ['INVALID_REQUEST_BODY', 'INVALID_REQUEST_BODY', 'INVALID_REQUEST_BODY', 'CANNOT_EXCLUDE_DOCUMENT', 'INVALID_REQUEST_BODY', 'INVALID_REQUEST_BODY']);
  assert.equal((await templates.listRecipients(acc, templateId)).recipientCount, '9');

  // Still refused by name at create: what templates keep none of yet, and lists the service does not have.
  const refused = async (recipients: Json, extra: Json = {}) => (await sdkFailure(templates.createTemplate(acc, { envelopeTemplate: { name: 'x', documents, recipients, ...extra } })))[1];
  assert.equal(await refused({ inPersonSigners: [{ roleName: 'r', recipientId: '1', accessCode: '1234' }] }), 'INVALID_REQUEST_BODY');
  assert.equal(await refused({ agents: [{ roleName: 'r', recipientId: '1', emailNotification: { supportedLanguage: 'fr' } }] }), 'INVALID_REQUEST_BODY');
  assert.equal(await refused({ seals: [{ recipientId: '1' }] }), 'INVALID_REQUEST_BODY');
  assert.equal(await refused({ carbonCopies: [{ roleName: 'r', recipientId: '1', excludedDocuments: ['2'] }] }), 'INVALID_REQUEST_BODY');
  assert.equal(await refused({ signers: [{ roleName: 'r', recipientId: '1', excludedDocuments: ['1'], tabs: sign('1') }] }, { enforceSignerVisibility: 'true' }), 'CANNOT_EXCLUDE_DOCUMENT');
  assert.equal(await refused({ witnesses: [{ roleName: 'r', recipientId: '1', witnessFor: '1' }] }), 'INVALID_REQUEST_BODY');
  // An envelope made from it: inPersonSignerName on a role that is not an in-person signer.
  assert.deepEqual(await sdkFailure(envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, status: 'created', templateRoles: [{ roleName: 'editor', name: 'E', email: 'e@example.com', inPersonSignerName: 'X' }] } })), [400, 'INVALID_REQUEST_BODY']);

  // Another account's template: never read or changed.
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const otherClient = new docusign.ApiClient();
  otherClient.setBasePath(`${h.origin}/restapi`);
  otherClient.addDefaultHeader('Authorization', `Bearer ${token}`);
  const theirs = new docusign.TemplatesApi(otherClient);
  assert.deepEqual(await sdkFailure(theirs.createRecipients(seed.accountId, templateId, { templateRecipients: { agents: [{ roleName: 'spy', recipientId: '20' }] } })), [400, 'TEMPLATE_ID_INVALID']);
  assert.deepEqual(await sdkFailure(theirs.updateRecipients(seed.accountId, templateId, { templateRecipients: { inPersonSigners: [{ recipientId: '4', hostEmail: 'spy@example.com' }] } })), [400, 'TEMPLATE_ID_INVALID']);
  assert.equal((await templates.listRecipients(acc, templateId)).inPersonSigners[0]?.hostEmail, 'desk@example.com');
});
