import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { extractText, validatePdf } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';

// AccountsApi's custom field calls (docusign-esign src/api/AccountsApi.js: listCustomFields,
// createCustomField, updateCustomField, deleteCustomField) and what new envelopes inherit.
type Field = { fieldId: string; name: string; value: string; show: string; required: string; listItems?: string[] };
type CustomFields = { textCustomFields: Field[]; listCustomFields: Field[] };
type AccountsApi = {
  listCustomFields(accountId: string): Promise<CustomFields>;
  createCustomField(accountId: string, opts: { customField: unknown; applyToTemplates?: string }): Promise<CustomFields>;
  updateCustomField(accountId: string, fieldId: string, opts: { customField: unknown; applyToTemplates?: string }): Promise<CustomFields>;
  deleteCustomField(accountId: string, fieldId: string, opts?: { applyToTemplates?: string }): Promise<unknown>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listCustomFields(accountId: string, envelopeId: string): Promise<CustomFields>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; AccountsApi: new (c: unknown) => AccountsApi; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const PASSTHROUGH = { convert: async ({ bytes }: { bytes: Uint8Array }) => { await validatePdf(bytes); return bytes; }, extractText, close: () => Promise.resolve() } as never;

function apis(h: SigningHarness, token = h.token) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return { accounts: new docusign.AccountsApi(client), envelopes: new docusign.EnvelopesApi(client) };
}

const rows = (f: CustomFields) => [...f.textCustomFields, ...f.listCustomFields].map((x) => [x.fieldId, x.name, x.value, x.required, x.show, ...(x.listItems ? [x.listItems.join('|')] : [])]);

test('account custom fields: created, listed, updated, deleted by the administrator; new envelopes inherit them (required and show as set); members and other accounts change nothing', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter: PASSTHROUGH });
  const { accounts, envelopes } = apis(h);
  const acc = h.accountId;
  await accounts.createCustomField(acc, { customField: { name: 'Cost centre', customFieldType: 'text', value: 'CC-0', show: 'true', required: 'false' } });
  const created = await accounts.createCustomField(acc, { customField: { name: 'Region', customFieldType: 'list', listItems: ['EU', 'US'], value: 'EU', required: 'true', show: 'false' } });
  assert.deepEqual(rows(created), [['1', 'Cost centre', 'CC-0', 'false', 'true'], ['2', 'Region', 'EU', 'true', 'false', 'EU|US']]);
  assert.deepEqual(rows(await accounts.listCustomFields(acc)), rows(created));

  const pdf = b64(await samplePdf(1));
  const definition = (customFields: unknown, status = 'created') => ({
    emailSubject: 'Inherits', status, ...(customFields ? { customFields } : {}),
    documents: [{ documentBase64: pdf, documentId: '1', fileExtension: 'pdf', name: 'A' }],
    recipients: { signers: [{ email: 's@example.com', name: 'Sam', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
  });
  // A new envelope starts with the account's fields; its own value of one wins, its other fields follow.
  const plainDraft = await envelopes.createEnvelope(acc, { envelopeDefinition: definition(undefined) });
  assert.deepEqual(rows(await envelopes.listCustomFields(acc, plainDraft.envelopeId)), [['1', 'Cost centre', 'CC-0', 'false', 'true'], ['2', 'Region', 'EU', 'true', 'false', 'EU|US']]);
  const own = await envelopes.createEnvelope(acc, { envelopeDefinition: definition({ textCustomFields: [{ name: 'cost centre', value: 'CC-7' }, { name: 'Order', value: '42' }] }, 'sent') });
  assert.deepEqual(rows(await envelopes.listCustomFields(acc, own.envelopeId)).map((r) => r.slice(1, 3)), [['Cost centre', 'CC-7'], ['Order', '42'], ['Region', 'EU']]);
  // A required account field without a value stops the send, as the envelope's own would.
  await accounts.updateCustomField(acc, '2', { customField: { value: '' } });
  assert.deepEqual(await sdkFailure(envelopes.createEnvelope(acc, { envelopeDefinition: definition(undefined, 'sent') })), [400, 'ENVELOPE_IS_INCOMPLETE']);
  // A list value outside its items, a repeated name, a type change, apply_to_templates: refused by name.
  assert.deepEqual(await sdkFailure(accounts.updateCustomField(acc, '2', { customField: { value: 'APAC' } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(accounts.createCustomField(acc, { customField: { name: 'REGION', customFieldType: 'text' } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(accounts.updateCustomField(acc, '1', { customField: { customFieldType: 'list' } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(accounts.createCustomField(acc, { customField: { name: 'T', customFieldType: 'text' }, applyToTemplates: 'true' })), [400, 'INVALID_REQUEST_PARAMETER']);
  // apply_to_templates on the update and the delete too: refused, and the field is as it was (not changed, not deleted).
  assert.deepEqual(await sdkFailure(accounts.updateCustomField(acc, '1', { customField: { value: 'CC-9' }, applyToTemplates: 'true' })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await sdkFailure(accounts.deleteCustomField(acc, '1', { applyToTemplates: 'true' })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(rows(await accounts.listCustomFields(acc)).map((r) => r.slice(1, 3)), [['Cost centre', 'CC-0'], ['Region', '']]);
  assert.deepEqual(await sdkFailure(accounts.updateCustomField(acc, '99', { customField: { value: 'x' } })), [400, 'INVALID_REQUEST_PARAMETER']);

  await accounts.deleteCustomField(acc, '2');
  assert.deepEqual(rows(await accounts.listCustomFields(acc)).map((r) => r[1]), ['Cost centre']);
  // Envelopes made before keep what they had.
  assert.deepEqual(rows(await envelopes.listCustomFields(acc, plainDraft.envelopeId)).map((r) => r[1]), ['Cost centre', 'Region']);

  // A member who is not the administrator reads but changes nothing; another account sees none of them.
  const member = await secondAccount(h);
  const userinfo = (await (await fetch(`${h.origin}/oauth/userinfo`, { headers: { authorization: `Bearer ${member.token}` } })).json()) as { sub: string };
  await h.store.accounts.addMembership(userinfo.sub, acc, h.clock.now());
  const theirs = apis(h, member.token).accounts;
  assert.deepEqual(rows(await theirs.listCustomFields(acc)).map((r) => r[1]), ['Cost centre']);
  assert.deepEqual(await sdkFailure(theirs.createCustomField(acc, { customField: { name: 'Planted', customFieldType: 'text' } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(theirs.updateCustomField(acc, '1', { customField: { value: 'stolen' } })), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(theirs.deleteCustomField(acc, '1')), [400, 'USER_LACKS_PERMISSIONS']);
  assert.deepEqual(rows(await theirs.listCustomFields(member.accountId)), []);
  const other = await secondAccount(h);
  assert.deepEqual(await sdkFailure(apis(h, other.token).accounts.listCustomFields(acc)), [400, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT']);
  assert.deepEqual(rows(await accounts.listCustomFields(acc)), [['1', 'Cost centre', 'CC-0', 'false', 'true']]);
});
