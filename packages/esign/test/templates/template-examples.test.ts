import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

// DocuSign's public examples (github docusign/code-examples-node, lib/eSignature/examples) call the
// SDK with its model constructors and a callback as the last argument, then read `results.data`.
// These tests make the same calls with the same arguments; nothing of the examples is copied.
type Callback = (error: unknown, data: unknown, response: unknown) => void;
type Response<T> = { data: T };
type WireTab = { tabId?: string; tabLabel?: string; groupName?: string; value?: string; selected?: string; documentId?: string; xPosition?: string; yPosition?: string; bold?: string; radios?: { value: string; selected: string }[] };
type WireTabs = Record<string, WireTab[] | undefined> & { signHereTabs: WireTab[] };
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> } & (new () => Record<string, unknown>);
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  TemplatesApi: new (c: unknown) => {
    listTemplates(accountId: string, opts: unknown, cb: Callback): Promise<Response<{ resultSetSize: string; envelopeTemplates?: { templateId: string; name: string }[] }>>;
    createTemplate(accountId: string, opts: unknown, cb: Callback): Promise<Response<{ templateId: string; name: string }>>;
  };
  EnvelopesApi: new (c: unknown) => {
    createEnvelope(accountId: string, opts: unknown, cb: Callback): Promise<Response<{ envelopeId: string; status: string }>>;
    createRecipientView(accountId: string, envelopeId: string, opts: unknown, cb: Callback): Promise<Response<{ url: string }>>;
    listRecipients(accountId: string, envelopeId: string, opts: unknown): Promise<{ signers: { name: string; email: string; roleName?: string; clientUserId?: string; tabs?: WireTabs }[]; carbonCopies: { name: string }[] }>;
    getFormData(accountId: string, envelopeId: string): Promise<{ envelopeId: string; formData: { name: string; value: string }[]; recipientFormData: { recipientId: string; formData: { name: string; value: string }[] }[] }>;
    listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string }[] }>;
  };
} & Record<'EnvelopeTemplate' | 'Document' | 'Signer' | 'CarbonCopy' | 'SignHere' | 'Checkbox' | 'List' | 'ListItem' | 'Text' | 'RadioGroup' | 'Radio' | 'TextCustomField' | 'CustomFields' | 'Tabs' | 'Recipients' | 'EnvelopeDefinition' | 'TemplateRole' | 'CompositeTemplate' | 'ServerTemplate' | 'InlineTemplate' | 'RecipientViewRequest', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const noop: Callback = () => undefined;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function client(h: SigningHarness) {
  const api = new docusign.ApiClient();
  api.setBasePath(`${h.origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return api;
}

/** The documented arguments of the examples (their launcher's defaults, with our addresses). */
const ARGS = { signerEmail: 'signer@example.com', signerName: 'Sam Signer', ccEmail: 'cc@example.com', ccName: 'Carl Copy', signerClientId: '1000', templateName: 'Example Signer and CC template v2', item: 'Widget', quantity: '5', dsReturnUrl: 'https://app.example/ds-return' };

/** createTemplate's request: a signHere, four checkboxes, a list, two text tabs and a radio group, placed absolutely. */
async function exampleTemplate() {
  const doc = new docusign.Document();
  doc.documentBase64 = b64(await samplePdf(1, 'World Wide Corp'));
  doc.name = 'Lorem Ipsum';
  doc.fileExtension = 'pdf';
  doc.documentId = '1';
  const signer1 = docusign.Signer.constructFromObject({ roleName: 'signer', recipientId: '1', routingOrder: '1' });
  const cc1 = new docusign.CarbonCopy();
  cc1.roleName = 'cc';
  cc1.routingOrder = '2';
  cc1.recipientId = '2';
  const at = (x: string, y: string) => ({ documentId: '1', pageNumber: '1', xPosition: x, yPosition: y });
  const signHere = docusign.SignHere.constructFromObject(at('191', '148'));
  const checks = [['417', 'ckAuthorization'], ['447', 'ckAuthentication'], ['478', 'ckAgreement'], ['508', 'ckAcknowledgement']].map(([y, tabLabel]) => docusign.Checkbox.constructFromObject({ ...at('75', y!), tabLabel }));
  const list1 = docusign.List.constructFromObject({
    ...at('142', '291'), font: 'helvetica', fontSize: 'size14', tabLabel: 'list', required: 'false',
    listItems: ['Red', 'Orange', 'Yellow', 'Green', 'Blue', 'Indigo', 'Violet'].map((text) => docusign.ListItem.constructFromObject({ text, value: text.toLowerCase() })),
  });
  const textInsteadOfNumber = docusign.Text.constructFromObject({ ...at('153', '260'), font: 'helvetica', fontSize: 'size14', tabLabel: 'numbersOnly', height: '23', width: '84', required: 'false' });
  const radioGroup = docusign.RadioGroup.constructFromObject({
    documentId: '1', groupName: 'radio1',
    radios: [['white', '142'], ['red', '74'], ['blue', '220']].map(([value, xPosition]) => docusign.Radio.constructFromObject({ font: 'helvetica', fontSize: 'size14', pageNumber: '1', value, xPosition, yPosition: '384', required: 'false' })),
  });
  const text = docusign.Text.constructFromObject({ ...at('153', '230'), font: 'helvetica', fontSize: 'size14', tabLabel: 'text', height: '23', width: '84', required: 'false' });
  signer1.tabs = docusign.Tabs.constructFromObject({ checkboxTabs: checks, listTabs: [list1], radioGroupTabs: [radioGroup], signHereTabs: [signHere], textTabs: [text, textInsteadOfNumber] });
  const recipients = docusign.Recipients.constructFromObject({ signers: [signer1], carbonCopies: [cc1] });
  return docusign.EnvelopeTemplate.constructFromObject({ documents: [doc], emailSubject: 'Please sign this document', description: 'Example template created via the API', name: ARGS.templateName, shared: 'false', recipients, status: 'created' });
}

/** createTemplate's flow: look the template up by name, create it when absent. */
async function createTemplateFlow(h: SigningHarness) {
  const templatesApi = new docusign.TemplatesApi(client(h));
  let results = await templatesApi.listTemplates(h.accountId, { searchText: ARGS.templateName }, noop);
  if (Number(results.data.resultSetSize) > 0) return { templateId: results.data.envelopeTemplates?.[0]?.templateId ?? '', createdNewTemplate: false };
  const created = await templatesApi.createTemplate(h.accountId, { envelopeTemplate: await exampleTemplate() }, noop);
  results = { data: { resultSetSize: '1', envelopeTemplates: [created.data] } };
  return { templateId: created.data.templateId, templateName: created.data.name, createdNewTemplate: true };
}

test('createTemplate, useTemplate and addDocToTemplate driven as DocuSign’s examples drive the SDK', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });

  // createTemplate as published, every tab type it uses: created the first time, found by name the second.
  const first = await createTemplateFlow(h);
  assert.equal(first.createdNewTemplate, true);
  assert.equal(first.templateName, ARGS.templateName);
  const again = await createTemplateFlow(h);
  assert.deepEqual(again, { templateId: first.templateId, createdNewTemplate: false });
  const envelopesApi = new docusign.EnvelopesApi(client(h));

  // useTemplate's makeEnvelope.
  const env = new docusign.EnvelopeDefinition();
  env.templateId = first.templateId;
  const signer1 = docusign.TemplateRole.constructFromObject({ email: ARGS.signerEmail, name: ARGS.signerName, roleName: 'signer' });
  const cc1 = new docusign.TemplateRole();
  cc1.email = ARGS.ccEmail;
  cc1.name = ARGS.ccName;
  cc1.roleName = 'cc';
  env.templateRoles = [signer1, cc1];
  env.status = 'sent';
  const used = (await envelopesApi.createEnvelope(h.accountId, { envelopeDefinition: env }, noop)).data;
  assert.equal(used.status, 'sent');
  const usedRecipients = await envelopesApi.listRecipients(h.accountId, used.envelopeId, { includeTabs: 'true' });
  assert.deepEqual(usedRecipients.signers.map((s) => [s.name, s.email, ...['signHereTabs', 'checkboxTabs', 'listTabs', 'radioGroupTabs', 'textTabs'].map((k) => s.tabs?.[k]?.length)]), [[ARGS.signerName, ARGS.signerEmail, 1, 4, 1, 1, 2]]);
  assert.deepEqual(usedRecipients.carbonCopies.map((c) => c.name), [ARGS.ccName]);

  // addDocToTemplate's makeEnvelope and recipient view.
  const signer = docusign.Signer.constructFromObject({ email: ARGS.signerEmail, name: ARGS.signerName, roleName: 'signer', recipientId: '1', clientUserId: ARGS.signerClientId });
  const cc = docusign.CarbonCopy.constructFromObject({ email: ARGS.ccEmail, name: ARGS.ccName, roleName: 'cc', recipientId: '2' });
  const compTemplate1 = docusign.CompositeTemplate.constructFromObject({
    compositeTemplateId: '1',
    serverTemplates: [docusign.ServerTemplate.constructFromObject({ sequence: '1', templateId: first.templateId })],
    inlineTemplates: [docusign.InlineTemplate.constructFromObject({ sequence: '2', recipients: docusign.Recipients.constructFromObject({ carbonCopies: [cc], signers: [signer] }) })],
  });
  const signHere1 = docusign.SignHere.constructFromObject({ anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' });
  const signerAddedDoc = docusign.Signer.constructFromObject({ email: ARGS.signerEmail, name: ARGS.signerName, clientId: ARGS.signerClientId, roleName: 'signer', recipientId: '1', tabs: docusign.Tabs.constructFromObject({ signHereTabs: [signHere1] }) });
  const doc1 = new docusign.Document();
  doc1.documentBase64 = Buffer.from(`<!DOCTYPE html><html><body><h1>World Wide Corp</h1><h4>Ordered by ${ARGS.signerName}</h4><p>Item: <b>${ARGS.item}</b>, quantity: <b>${ARGS.quantity}</b>.</p><h3>Agreed: <span style="color:white;">**signature_1**/</span></h3></body></html>`).toString('base64');
  doc1.name = 'Appendix 1--Sales order';
  doc1.fileExtension = 'html';
  doc1.documentId = '1';
  const compTemplate2 = docusign.CompositeTemplate.constructFromObject({
    compositeTemplateId: '2',
    inlineTemplates: [docusign.InlineTemplate.constructFromObject({ sequence: '1', recipients: docusign.Recipients.constructFromObject({ carbonCopies: [cc], signers: [signerAddedDoc] }) })],
    document: doc1,
  });
  const envelope = docusign.EnvelopeDefinition.constructFromObject({ status: 'sent', compositeTemplates: [compTemplate1, compTemplate2] });
  const added = (await envelopesApi.createEnvelope(h.accountId, { envelopeDefinition: envelope }, noop)).data;
  const viewRequest = new docusign.RecipientViewRequest();
  viewRequest.returnUrl = ARGS.dsReturnUrl;
  viewRequest.authenticationMethod = 'none';
  viewRequest.email = ARGS.signerEmail;
  viewRequest.userName = ARGS.signerName;
  viewRequest.clientUserId = ARGS.signerClientId;
  const view = (await envelopesApi.createRecipientView(h.accountId, added.envelopeId, { recipientViewRequest: viewRequest }, noop)).data;
  assert.ok(view.url.startsWith(h.origin), view.url);
  const docs = await envelopesApi.listDocuments(h.accountId, added.envelopeId);
  assert.deepEqual(docs.envelopeDocuments.map((d) => [d.documentId, d.name]), [['1', 'Lorem Ipsum'], ['2', 'Appendix 1--Sales order']]);
  const addedRecipients = await envelopesApi.listRecipients(h.accountId, added.envelopeId, { includeTabs: 'true' });
  assert.deepEqual(addedRecipients.signers.map((s) => [s.name, s.clientUserId, s.tabs?.signHereTabs.map((tab) => tab.documentId)]), [[ARGS.signerName, ARGS.signerClientId, ['1', '2']]]);
});

test('setTemplateTabValues driven as DocuSign’s example drives the SDK: templateRoles tabs set the template’s tab values by label', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const { templateId } = await createTemplateFlow(h);
  const envelopesApi = new docusign.EnvelopesApi(client(h));

  // makeEnvelope as published (the example's second text tab is written with snake_case keys,
  // which the SDK's constructFromObject drops: it names no tab and adds none).
  const envelopeDefinition = docusign.EnvelopeDefinition.constructFromObject({ templateId, status: 'sent' });
  const list1 = docusign.List.constructFromObject({ value: 'green', documentId: '1', pageNumber: '1', tabLabel: 'list' });
  const check1 = docusign.Checkbox.constructFromObject({ tabLabel: 'ckAuthorization', selected: 'true' });
  const check3 = docusign.Checkbox.constructFromObject({ tabLabel: 'ckAgreement', selected: 'true' });
  const radioGroup = docusign.RadioGroup.constructFromObject({ groupName: 'radio1', radios: [docusign.Radio.constructFromObject({ value: 'white', selected: 'true' })] });
  const text = docusign.Text.constructFromObject({ tabLabel: 'text', value: 'Jabberwocky!' });
  const textExtra = docusign.Text.constructFromObject({ document_id: '1', page_number: '1', x_position: '280', y_position: '172', font: 'helvetica', font_size: 'size14', tab_label: 'added text field', height: '23', width: '84', required: 'false', bold: 'true', value: ARGS.signerName, locked: 'false', tab_id: 'name' });
  const tabs = docusign.Tabs.constructFromObject({ checkboxTabs: [check1, check3], radioGroupTabs: [radioGroup], textTabs: [text, textExtra], listTabs: [list1] });
  const signer = docusign.TemplateRole.constructFromObject({ email: ARGS.signerEmail, name: ARGS.signerName, roleName: 'signer', clientUserId: ARGS.signerClientId, tabs });
  const cc = docusign.TemplateRole.constructFromObject({ email: ARGS.ccEmail, name: ARGS.ccName, roleName: 'cc' });
  envelopeDefinition.templateRoles = [signer, cc];
  const results = (await envelopesApi.createEnvelope(h.accountId, { envelopeDefinition }, noop)).data;
  const viewRequest = docusign.RecipientViewRequest.constructFromObject({ returnUrl: ARGS.dsReturnUrl, authenticationMethod: 'none', email: ARGS.signerEmail, userName: ARGS.signerName, clientUserId: ARGS.signerClientId });
  const view = (await envelopesApi.createRecipientView(h.accountId, results.envelopeId, { recipientViewRequest: viewRequest }, noop)).data;
  assert.ok(view.url.startsWith(h.origin), view.url);

  // The values are the envelope's; the template keeps its own.
  const recipients = await envelopesApi.listRecipients(h.accountId, results.envelopeId, { includeTabs: 'true' });
  const got = recipients.signers[0]?.tabs;
  assert.deepEqual(got?.checkboxTabs?.map((c) => [c.tabLabel, c.selected]), [['ckAuthorization', 'true'], ['ckAuthentication', 'false'], ['ckAgreement', 'true'], ['ckAcknowledgement', 'false']]);
  assert.deepEqual(got?.listTabs?.map((l) => l.value), ['green']);
  assert.deepEqual(got?.radioGroupTabs?.[0]?.radios?.map((r) => [r.value, r.selected]), [['white', 'true'], ['red', 'false'], ['blue', 'false']]);
  assert.deepEqual(got?.textTabs?.map((x) => [x.tabLabel, x.value]), [['text', 'Jabberwocky!'], ['numbersOnly', '']]);
  const form = await envelopesApi.getFormData(h.accountId, results.envelopeId);
  assert.equal(form.envelopeId, results.envelopeId);
  assert.deepEqual(new Map(form.formData.map((f) => [f.name, f.value])).get('list'), 'green');

  // A value naming no template tab, or one its tab refuses, is a 400 and makes no envelope.
  const refusal = async (roleTabs: Record<string, unknown>) => {
    const bad = docusign.EnvelopeDefinition.constructFromObject({ templateId, status: 'sent', templateRoles: [docusign.TemplateRole.constructFromObject({ email: ARGS.signerEmail, name: ARGS.signerName, roleName: 'signer', tabs: docusign.Tabs.constructFromObject(roleTabs) })] });
    return envelopesApi.createEnvelope(h.accountId, { envelopeDefinition: bad }, noop).then(() => undefined, (err: { response?: { status: number; data: { errorCode: string; message: string } } }) => err.response && [err.response.status, err.response.data.errorCode, err.response.data.message]);
  };
  const unknownLabel = await refusal({ textTabs: [docusign.Text.constructFromObject({ tabLabel: 'nope', value: 'x' })] });
  assert.deepEqual(unknownLabel?.slice(0, 2), [400, 'INVALID_REQUEST_BODY']);
  assert.match(String(unknownLabel?.[2]), /no text tab labelled "nope"/);
  assert.deepEqual((await refusal({ listTabs: [docusign.List.constructFromObject({ tabLabel: 'list', value: 'black' })] }))?.slice(0, 2), [400, 'INVALID_TAB_VALUE']);
  const listed = await h.api('GET', '/envelopes?from_date=2000-01-01');
  assert.equal(((await listed.json()) as { envelopes?: unknown[] }).envelopes?.length, 1);
});
