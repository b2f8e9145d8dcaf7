import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import { buildConverter, type Converter } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

// The official SDK, unmodified: only what this test calls is typed.
type WireTab = Record<string, unknown> & { tabId?: string; tabLabel?: string; value?: string; selected?: string; locked?: string; xPosition?: string; pageNumber?: string; radios?: { tabId: string; value: string; selected: string }[]; listItems?: unknown[] };
type WireTabs = Record<string, WireTab[] | undefined>;
type FormData = { envelopeId: string; status: string; formData: { name: string; value: string; listSelectedValue?: string }[]; recipientFormData: { recipientId: string; name: string; formData: { name: string; value: string }[] }[] };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }>;
  listRecipients(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<{ signers: { recipientId: string; tabs?: WireTabs }[]; carbonCopies: { tabs?: WireTabs }[] }>;
  listTabs(accountId: string, envelopeId: string, recipientId: string): Promise<WireTabs>;
  createTabs(accountId: string, envelopeId: string, recipientId: string, opts: { tabs: unknown }): Promise<WireTabs>;
  updateTabs(accountId: string, envelopeId: string, recipientId: string, opts: { tabs: unknown }): Promise<WireTabs>;
  deleteTabs(accountId: string, envelopeId: string, recipientId: string, opts: { tabs: unknown }): Promise<WireTabs>;
  getFormData(accountId: string, envelopeId: string): Promise<FormData>;
  update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<unknown>;
  listStatusChanges(accountId: string, opts: Record<string, string>): Promise<{ envelopes?: unknown[] }>;
};
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi } & Record<'Document' | 'Signer' | 'SignHere' | 'Text' | 'Tabs' | 'Recipients' | 'EnvelopeDefinition' | 'RecipientViewRequest' | 'TextCustomField' | 'CustomFields', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function envelopesApi(h: { origin: string }, token: string): EnvelopesApi {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return new docusign.EnvelopesApi(client);
}

/** The salary letter setTabValues signs: its anchors /sn1/, /legal/, /familiar/ and /salary/ in white text. */
async function salaryDocx(): Promise<Buffer> {
  const line = (label: string, anchor: string) => new Paragraph({ children: [new TextRun(`${label} `), new TextRun({ text: anchor, color: 'FFFFFF' })] });
  return Packer.toBuffer(new DocxDocument({ sections: [{ children: [
    new Paragraph({ children: [new TextRun({ text: 'World Wide Corp salary letter', bold: true, size: 32 })] }),
    line('Legal name:', '/legal/'), line('Familiar name:', '/familiar/'), line('Yearly salary:', '/salary/'), new Paragraph(''), line('Signature:', '/sn1/'),
  ] }] }));
}

const ARGS = { signerEmail: 'signer@example.com', signerName: 'Sam Signer', signerClientId: '1000', dsReturnUrl: 'https://app.example/ds-return' };

/** setTabValues' makeEnvelope as published, but its envelope custom field (not a tab) left out. */
async function setTabValuesEnvelope() {
  const document = docusign.Document.constructFromObject({ documentBase64: b64(await salaryDocx()), name: 'Lorem Ipsum', fileExtension: 'docx', documentId: '1' });
  const signer = docusign.Signer.constructFromObject({ email: ARGS.signerEmail, name: ARGS.signerName, clientUserId: ARGS.signerClientId, recipientId: 1 });
  const signHere = docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorUnits: 'pixels', anchorYOffset: '10', anchorXOffset: '20' });
  const text = (anchorString: string, value: string, locked: string, tabId: string, tabLabel: string) => docusign.Text.constructFromObject({ anchorString, anchorUnits: 'pixels', anchorYOffset: '-9', anchorXOffset: '5', font: 'helvetica', fontSize: 'size11', bold: 'true', value, locked, tabId, tabLabel });
  const salaryReadable = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0 }).format(123000);
  signer.tabs = docusign.Tabs.constructFromObject({
    signHereTabs: [signHere],
    textTabs: [text('/legal/', ARGS.signerName, 'false', 'legal_name', 'Legal name'), text('/familiar/', ARGS.signerName, 'false', 'familiar_name', 'Familiar name'), text('/salary/', salaryReadable, 'true', 'salary', 'Salary')],
  });
  return docusign.EnvelopeDefinition.constructFromObject({ emailSubject: 'Please sign this salary document', documents: [document], recipients: docusign.Recipients.constructFromObject({ signers: [signer] }), status: 'sent' });
}

test('setTabValues and envelopeTabData driven as DocuSign’s examples drive the SDK', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const api = envelopesApi(h, h.token);
  const results = await api.createEnvelope(h.accountId, { envelopeDefinition: await setTabValuesEnvelope() });
  const viewRequest = docusign.RecipientViewRequest.constructFromObject({ returnUrl: ARGS.dsReturnUrl, authenticationMethod: 'none', email: ARGS.signerEmail, userName: ARGS.signerName, clientUserId: ARGS.signerClientId });
  const view = await api.createRecipientView(h.accountId, results.envelopeId, { recipientViewRequest: viewRequest });
  assert.ok(view.url.startsWith(h.origin), view.url);

  const tabs = await api.listTabs(h.accountId, results.envelopeId, '1');
  assert.deepEqual(tabs.textTabs?.map((x) => [x.tabLabel, x.value, x.locked, x.bold, x.font, x.fontSize, x.anchorString]), [
    ['Legal name', ARGS.signerName, 'false', 'true', 'helvetica', 'Size11', '/legal/'],
    ['Familiar name', ARGS.signerName, 'false', 'true', 'helvetica', 'Size11', '/familiar/'],
    ['Salary', '$123,000', 'true', 'true', 'helvetica', 'Size11', '/salary/'],
  ]);
  // The tabIds are the service's own (DocuSign's tabId is an output field).
  assert.ok(tabs.textTabs?.every((x) => typeof x.tabId === 'string' && /^[0-9a-f-]{36}$/.test(x.tabId)));
  assert.equal(tabs.signHereTabs?.length, 1);

  // envelopeTabData: EnvelopeFormData::get.
  const formData = await api.getFormData(h.accountId, results.envelopeId);
  assert.equal(formData.envelopeId, results.envelopeId);
  assert.equal(formData.status, 'sent');
  assert.deepEqual(formData.formData.map((f) => [f.name, f.value]), [['Legal name', ARGS.signerName], ['Familiar name', ARGS.signerName], ['Salary', '$123,000']]);
  assert.deepEqual(formData.recipientFormData.map((r) => [r.recipientId, r.name, r.formData.length]), [['1', ARGS.signerName, 3]]);
});

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });
/** One tab of every type on a one-page PDF. */
const EVERY_TYPE = {
  signHereTabs: [{ ...at(72, 600), optional: 'false' }], initialHereTabs: [{ ...at(300, 600), optional: 'true' }],
  dateSignedTabs: [at(72, 80)], fullNameTabs: [at(72, 100)], firstNameTabs: [at(72, 120)], lastNameTabs: [at(72, 140)], emailAddressTabs: [at(72, 160)],
  companyTabs: [{ ...at(300, 80), value: 'Acme' }], titleTabs: [{ ...at(300, 100), required: 'false' }],
  textTabs: [{ ...at(300, 120), tabLabel: 'Code', value: 'AB12', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$' }],
  numberTabs: [{ ...at(300, 140), tabLabel: 'Qty', value: '3' }],
  numericalTabs: [{ ...at(300, 160), tabLabel: 'Price', numericalValue: '19.5', validationType: 'Currency' }],
  dateTabs: [{ ...at(300, 180), value: '2026-11-21' }], emailTabs: [{ ...at(300, 200), value: 'ada@example.com' }], zipTabs: [{ ...at(300, 220), value: '12345' }], ssnTabs: [{ ...at(300, 240), value: '123-45-6789' }],
  checkboxTabs: [{ ...at(72, 300), tabLabel: 'Terms', selected: 'true' }],
  radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [{ pageNumber: '1', xPosition: '72', yPosition: '330', value: 'basic' }, { pageNumber: '1', xPosition: '120', yPosition: '330', value: 'pro', selected: 'true' }] }],
  listTabs: [{ ...at(72, 360), tabLabel: 'Colour', listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue', value: 'blue', selected: 'true' }] }],
  noteTabs: [{ ...at(72, 390), value: 'Read section 4' }],
  formulaTabs: [{ ...at(72, 420), tabLabel: 'Total', formula: '[Qty] * [Price]', roundDecimalPlaces: '2' }],
  approveTabs: [at(72, 450)], declineTabs: [{ ...at(150, 450), declineReason: 'Wrong price' }],
  signerAttachmentTabs: [{ ...at(72, 480), optional: 'true' }], viewTabs: [at(72, 510)],
};

async function definition(tabs: Record<string, unknown>, status = 'sent') {
  return {
    status, emailSubject: 'Every tab',
    documents: [{ documentId: '1', name: 'Form.pdf', documentBase64: b64(await samplePdf(1, 'Order form')) }],
    recipients: { signers: [{ recipientId: '1', email: 'ada@example.com', name: 'Ada Lovelace', tabs }], carbonCopies: [{ recipientId: '2', email: 'cc@example.com', name: 'Cy Copy', routingOrder: '2' }] },
  };
}

async function otherAccount(h: SigningHarness): Promise<{ api: EnvelopesApi; accountId: string }> {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  return { api: envelopesApi(h, token), accountId: seed.accountId };
}

test('every tab type through the SDK: create, listTabs, include_tabs, getFormData, createTabs, updateTabs, deleteTabs; bad input refused whole', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const api = envelopesApi(h, h.token);
  const acc = h.accountId;
  const { envelopeId } = await api.createEnvelope(acc, { envelopeDefinition: await definition(EVERY_TYPE) });

  const tabs = await api.listTabs(acc, envelopeId, '1');
  assert.deepEqual(Object.keys(tabs).sort(), Object.keys(EVERY_TYPE).sort());
  assert.deepEqual(Object.entries(tabs).map(([k, v]) => [k, v?.length]).filter(([, n]) => n !== 1), []);
  assert.deepEqual([tabs.checkboxTabs?.[0]?.selected, tabs.listTabs?.[0]?.value, tabs.numericalTabs?.[0]?.value, tabs.noteTabs?.[0]?.value], ['true', 'blue', '19.5', 'Read section 4']);
  assert.deepEqual(tabs.radioGroupTabs?.[0]?.radios?.map((r) => [r.value, r.selected]), [['basic', 'false'], ['pro', 'true']]);
  assert.deepEqual(tabs.formulaTabs?.[0] && [tabs.formulaTabs[0].formula, tabs.formulaTabs[0].tabType], ['[Qty] * [Price]', 'formula']);
  const recipients = await api.listRecipients(acc, envelopeId, { includeTabs: 'true' });
  assert.deepEqual(recipients.signers[0]?.tabs, tabs);
  assert.equal(recipients.carbonCopies[0]?.tabs, undefined);

  const before = await api.getFormData(acc, envelopeId);
  const value = (data: FormData, name: string) => data.formData.find((f) => f.name === name)?.value;
  assert.deepEqual(['Code', 'Qty', 'Terms', 'Plan', 'Colour'].map((n) => value(before, n)), ['AB12', '3', 'true', 'pro', 'blue']);
  assert.equal(before.formData.find((f) => f.name === 'Colour')?.listSelectedValue, 'Blue');

  // updateTabs: values and fields change; the rest of the tab stays.
  const code = tabs.textTabs?.[0];
  const terms = tabs.checkboxTabs?.[0];
  const proRadio = tabs.radioGroupTabs?.[0]?.radios?.[0];
  const updated = await api.updateTabs(acc, envelopeId, '1', { tabs: {
    textTabs: [{ tabId: code?.tabId, value: 'ZZ99' }],
    checkboxTabs: [{ tabId: terms?.tabId, selected: 'false' }],
    radioGroupTabs: [{ groupName: 'Plan', value: 'basic' }],
    listTabs: [{ tabId: tabs.listTabs?.[0]?.tabId, value: 'red', xPosition: '90' }],
  } });
  assert.deepEqual([updated.textTabs?.[0]?.value, updated.textTabs?.[0]?.tabId, updated.textTabs?.[0]?.maxLength], ['ZZ99', code?.tabId, '4']);
  assert.equal(updated.checkboxTabs?.[0]?.selected, 'false');
  assert.deepEqual(updated.radioGroupTabs?.[0]?.radios?.map((r) => [r.value, r.selected]), [['basic', 'true'], ['pro', 'false']]);
  assert.deepEqual([updated.listTabs?.[0]?.value, updated.listTabs?.[0]?.xPosition, updated.listTabs?.[0]?.yPosition], ['red', '90', '360']);
  const after1 = await api.getFormData(acc, envelopeId);
  assert.deepEqual(['Code', 'Terms', 'Plan', 'Colour'].map((n) => value(after1, n)), ['ZZ99', 'false', 'basic', 'red']);
  assert.ok(proRadio);

  // createTabs: a new tab of any type; deleteTabs removes it.
  const created = await api.createTabs(acc, envelopeId, '1', { tabs: { textTabs: [{ ...at(400, 400), tabLabel: 'Extra', value: 'more' }] } });
  const extraId = created.textTabs?.[0]?.tabId;
  assert.equal(created.textTabs?.length, 1);
  assert.equal((await api.listTabs(acc, envelopeId, '1')).textTabs?.length, 2);
  await api.deleteTabs(acc, envelopeId, '1', { tabs: { textTabs: [{ tabId: extraId }] } });
  assert.deepEqual((await api.listTabs(acc, envelopeId, '1')).textTabs?.map((x) => x.tabLabel), ['Code']);

  // Refused, each a 4xx that changes nothing.
  const unchanged = JSON.stringify(await api.listTabs(acc, envelopeId, '1'));
  assert.deepEqual(await sdkFailure(api.updateTabs(acc, envelopeId, '1', { tabs: { textTabs: [{ tabId: code?.tabId, value: 'too long' }] } })), [400, 'INVALID_TAB_VALUE']);
  assert.deepEqual(await sdkFailure(api.updateTabs(acc, envelopeId, '1', { tabs: { listTabs: [{ tabId: tabs.listTabs?.[0]?.tabId, value: 'green' }] } })), [400, 'INVALID_TAB_VALUE']);
  assert.deepEqual(await sdkFailure(api.updateTabs(acc, envelopeId, '1', { tabs: { textTabs: [{ tabId: 'nope', value: 'x' }] } })), [400, 'INVALID_TAB_OPERATION']);
  assert.deepEqual(await sdkFailure(api.updateTabs(acc, envelopeId, '1', { tabs: { checkboxTabs: [{ tabId: code?.tabId, selected: 'true' }] } })), [400, 'INVALID_TAB_OPERATION']);
  assert.deepEqual(await sdkFailure(api.updateTabs(acc, envelopeId, '1', { tabs: {} })), [400, 'INVALID_REQUEST_BODY']);
  // A tab another one reads (Qty, in the formula) cannot go.
  assert.deepEqual(await sdkFailure(api.deleteTabs(acc, envelopeId, '1', { tabs: { numberTabs: [{ tabId: tabs.numberTabs?.[0]?.tabId }] } })), [400, 'INVALID_FORMULA']);
  assert.deepEqual(await sdkFailure(api.createTabs(acc, envelopeId, '1', { tabs: { formulaTabs: [{ ...at(400, 420), tabLabel: 'Loop', formula: '[Loop] + 1' }] } })), [400, 'INVALID_FORMULA']);
  assert.deepEqual(await sdkFailure(api.createTabs(acc, envelopeId, '2', { tabs: { textTabs: [at(400, 400)] } })), [400, 'INVALID_TAB_OPERATION']);
  // createTabs adds to what the recipient has: past 200 tabs in all it is refused, however it is split into calls.
  const count = Object.values(await api.listTabs(acc, envelopeId, '1')).reduce((n, list) => n + (list?.length ?? 0), 0);
  const fill = (n: number) => Array.from({ length: n }, (_, i) => ({ ...at(400, 20 + (i % 30) * 20), tabLabel: `Fill ${i}` }));
  assert.deepEqual(await sdkFailure(api.createTabs(acc, envelopeId, '1', { tabs: { textTabs: fill(201 - count) } })), [400, 'INVALID_REQUEST_BODY']);
  assert.equal(JSON.stringify(await api.listTabs(acc, envelopeId, '1')), unchanged);

  assert.equal(JSON.stringify(await api.listTabs(acc, envelopeId, '1')), unchanged);

  // Another account neither reads nor edits them.
  const other = await otherAccount(h);
  assert.deepEqual(await sdkFailure(other.api.listTabs(other.accountId, envelopeId, '1')), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(other.api.updateTabs(other.accountId, envelopeId, '1', { tabs: { textTabs: [{ tabId: code?.tabId, value: 'HACK' }] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(other.api.getFormData(other.accountId, envelopeId)), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.equal(JSON.stringify(await api.listTabs(acc, envelopeId, '1')), unchanged);

  // A voided envelope's tabs no longer change.
  await api.update(acc, envelopeId, { envelope: { status: 'voided', voidedReason: 'test' } });
  assert.deepEqual(await sdkFailure(api.updateTabs(acc, envelopeId, '1', { tabs: { textTabs: [{ tabId: code?.tabId, value: 'AA11' }] } })), [400, 'INVALID_TAB_OPERATION']);
});

test('bad tabs on create: DocuSign error codes, 400, no envelope stored', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const api = envelopesApi(h, h.token);
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown tab list', { tickBoxTabs: [at(72, 72)] }, 'INVALID_REQUEST_BODY'],
    ['a list DocuSign has and this service does not', { notarizeTabs: [at(72, 72)] }, 'INVALID_REQUEST_BODY'],
    ['a radio group without radios', { radioGroupTabs: [{ groupName: 'g', documentId: '1', radios: [] }] }, 'INVALID_REQUEST_BODY'],
    ['a list value not among its items', { listTabs: [{ ...at(72, 72), listItems: [{ text: 'A' }], value: 'B' }] }, 'INVALID_TAB_VALUE'],
    ['a formula over an unknown label', { formulaTabs: [{ ...at(72, 72), tabLabel: 'T', formula: '[Nope] * 2' }] }, 'INVALID_FORMULA'],
    ['formulas in a cycle', { formulaTabs: [{ ...at(72, 72), tabLabel: 'A', formula: '[B] + 1' }, { ...at(72, 100), tabLabel: 'B', formula: '[A] + 1' }] }, 'INVALID_FORMULA'],
    ['a validation pattern that is not a regex', { textTabs: [{ ...at(72, 72), validationPattern: '([a-z' }] }, 'INVALID_VALIDATION_PATTERN'],
    ['a pattern that backtracks catastrophically', { textTabs: [{ ...at(72, 72), validationPattern: '^(a+)+$' }] }, 'INVALID_VALIDATION_PATTERN'],
    ['a value over maxLength', { textTabs: [{ ...at(72, 72), maxLength: '3', value: 'abcd' }] }, 'INVALID_TAB_VALUE'],
    ['a field the model lacks', { textTabs: [{ ...at(72, 72), colour: 'red' }] }, 'INVALID_REQUEST_BODY'],
    ['a tab on a page the document lacks', { textTabs: [{ ...at(72, 72), pageNumber: '3' }] }, 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT'],
    ['a radio off its page', { radioGroupTabs: [{ groupName: 'g', documentId: '1', radios: [{ pageNumber: '1', xPosition: '9000', yPosition: '1', value: 'a' }] }] }, 'TAB_OUT_OF_BOUNDS'],
    ['a tab of a missing document', { checkboxTabs: [{ ...at(72, 72), documentId: '7' }] }, 'TAB_REFERS_TO_MISSING_DOCUMENT'],
    ['an anchor in no document', { textTabs: [{ anchorString: '/nowhere/' }] }, 'ANCHOR_TAB_STRING_NOT_FOUND'],
  ];
  for (const [what, tabs, code] of cases) {
    assert.deepEqual(await sdkFailure(api.createEnvelope(h.accountId, { envelopeDefinition: await definition(tabs) })), [400, code], what);
  }
  const carbonCopyTabs = await definition({});
  (carbonCopyTabs.recipients.carbonCopies[0] as Record<string, unknown>).tabs = { textTabs: [at(72, 72)] };
  assert.deepEqual(await sdkFailure(api.createEnvelope(h.accountId, { envelopeDefinition: carbonCopyTabs })), [400, 'INVALID_REQUEST_BODY']);
  const listed = (await api.listStatusChanges(h.accountId, { fromDate: '2000-01-01' })).envelopes ?? [];
  assert.equal(listed.length, 0);
});
