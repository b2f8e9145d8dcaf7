import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { extractText, validatePdf } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';

// DocuSign's envelopeCustomFieldData example (code-examples-node lib/eSignature/examples) reads
// an envelope's custom fields with EnvelopesApi.listCustomFields(accountId, envelopeId, null,
// callback) and returns `results.data`; the same call is made here. The fields themselves are
// set at create as DocuSign's documentation shows (customFields.textCustomFields/listCustomFields).
type Field = { fieldId: string; name: string; value: string; show: string; required: string; listItems?: string[] };
type CustomFields = { textCustomFields: Field[]; listCustomFields: Field[] };
type Callback = (error: unknown, data: unknown, response: unknown) => void;
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string; status: string }>;
  getEnvelope(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<{ customFields?: CustomFields; customFieldsUri?: string }>;
  update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<unknown>;
  listStatusChanges(accountId: string, opts: Record<string, string>): Promise<{ envelopes: { envelopeId: string; customFields?: CustomFields }[] }>;
  listCustomFields(accountId: string, envelopeId: string, callback?: unknown, extra?: Callback): Promise<{ data?: CustomFields } & Partial<CustomFields>>;
  createCustomFields(accountId: string, envelopeId: string, opts: { customFields: unknown }): Promise<CustomFields>;
  updateCustomFields(accountId: string, envelopeId: string, opts: { customFields: unknown }): Promise<CustomFields>;
  deleteCustomFields(accountId: string, envelopeId: string, opts: { customFields: unknown }): Promise<CustomFields>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

function envelopesApi(origin: string, token: string): EnvelopesApi {
  const api = new docusign.ApiClient();
  api.setBasePath(`${origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${token}`);
  return new docusign.EnvelopesApi(api);
}

test('envelope custom fields: set at create, read as the example reads them, in getEnvelope and listStatusChanges with include=custom_fields, created, updated, deleted; refusals named; another account sees none', async (t: TestContext) => {
  // PDFs pass through as they are: no conversion engine is needed for custom fields.
  const h = await startSigningEsign(t, { converter: { convert: async ({ bytes }: { bytes: Uint8Array }) => { await validatePdf(bytes); return bytes; }, extractText, close: () => Promise.resolve() } as never });
  const api = envelopesApi(h.origin, h.token);
  const acc = h.accountId;
  const base = async (customFields: unknown, status = 'sent') => ({
    emailSubject: 'With metadata', status, customFields,
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Agreement' }],
    recipients: { signers: [{ email: 's@example.com', name: 'Sam', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
  });
  const { envelopeId } = await api.createEnvelope(acc, { envelopeDefinition: await base({
    textCustomFields: [{ name: 'app metadata item', required: 'false', show: 'true', value: '1234567' }],
    listCustomFields: [{ name: 'Region', listItems: ['EU', 'US'], value: 'EU', show: true, required: true }],
  }) });

  // The example: listCustomFields(accountId, envelopeId, null, callback), then results.data: with
  // a null third argument the SDK resolves with {data, response}, which is what the example reads.
  const results = await api.listCustomFields(acc, envelopeId, null, () => undefined);
  const listed = results.data ?? assert.fail('the example reads results.data');
  assert.deepEqual(listed.textCustomFields.map((f) => [f.fieldId, f.name, f.value, f.show, f.required]), [['1', 'app metadata item', '1234567', 'true', 'false']]);
  assert.deepEqual(listed.listCustomFields.map((f) => [f.fieldId, f.name, f.value, f.listItems, f.required]), [['2', 'Region', 'EU', ['EU', 'US'], 'true']]);

  const envelope = await api.getEnvelope(acc, envelopeId, { include: 'custom_fields' });
  assert.equal(envelope.customFieldsUri, `/envelopes/${envelopeId}/custom_fields`);
  assert.equal(envelope.customFields?.textCustomFields[0]?.value, '1234567');
  assert.equal((await api.getEnvelope(acc, envelopeId)).customFields, undefined, 'only when asked for');
  const inList = await api.listStatusChanges(acc, { envelopeIds: envelopeId, include: 'custom_fields' });
  assert.equal(inList.envelopes[0]?.customFields?.listCustomFields[0]?.value, 'EU');

  // createCustomFields, updateCustomFields (by fieldId, only what is given), deleteCustomFields.
  const created = await api.createCustomFields(acc, envelopeId, { customFields: { textCustomFields: [{ name: 'Case', value: 'C-9', show: 'true' }] } });
  assert.deepEqual(created.textCustomFields.map((f) => [f.fieldId, f.name]), [['3', 'Case']]);
  const updated = await api.updateCustomFields(acc, envelopeId, { customFields: { textCustomFields: [{ fieldId: '1', value: '7654321' }], listCustomFields: [{ name: 'region', value: 'US' }] } });
  assert.deepEqual(updated.textCustomFields.map((f) => [f.fieldId, f.name, f.value, f.show]), [['1', 'app metadata item', '7654321', 'true']]);
  assert.deepEqual(updated.listCustomFields.map((f) => [f.fieldId, f.value]), [['2', 'US']]);
  await api.deleteCustomFields(acc, envelopeId, { customFields: { textCustomFields: [{ fieldId: '3' }] } });
  const after = await api.listCustomFields(acc, envelopeId);
  assert.deepEqual([...after.textCustomFields ?? [], ...after.listCustomFields ?? []].map((f) => [f.fieldId, f.value]), [['1', '7654321'], ['2', 'US']]);

  // Refused, named: a value outside the list, a required field without value on send, an
  // account configuration, a repeated name, fields through Envelopes::update, an unknown field.
  assert.deepEqual(await sdkFailure(api.updateCustomFields(acc, envelopeId, { customFields: { listCustomFields: [{ fieldId: '2', value: 'APAC' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.createEnvelope(acc, { envelopeDefinition: await base({ textCustomFields: [{ name: 'PO', required: 'true', value: '' }] }) })), [400, 'ENVELOPE_IS_INCOMPLETE']);
  const draft = await api.createEnvelope(acc, { envelopeDefinition: await base({ textCustomFields: [{ name: 'PO', required: 'true' }] }, 'created') });
  assert.deepEqual(await sdkFailure(api.update(acc, draft.envelopeId, { envelope: { status: 'sent' } })), [400, 'ENVELOPE_IS_INCOMPLETE']);
  await api.updateCustomFields(acc, draft.envelopeId, { customFields: { textCustomFields: [{ name: 'PO', value: 'PO-1' }] } });
  await api.update(acc, draft.envelopeId, { envelope: { status: 'sent' } });
  assert.deepEqual(await sdkFailure(api.createEnvelope(acc, { envelopeDefinition: await base({ textCustomFields: [{ name: 'X', value: '1', configurationType: 'salesforce' }] }) })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.createCustomFields(acc, envelopeId, { customFields: { textCustomFields: [{ name: 'REGION', value: 'x' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.update(acc, envelopeId, { envelope: { customFields: { textCustomFields: [{ name: 'Z', value: '1' }] } } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.deleteCustomFields(acc, envelopeId, { customFields: { textCustomFields: [{ fieldId: '99' }] } })), [400, 'INVALID_REQUEST_BODY']);

  // Another account's token naming this envelope: nothing read, nothing changed.
  const other = await secondAccount(h);
  const theirs = envelopesApi(h.origin, other.token);
  for (const call of [
    () => theirs.listCustomFields(other.accountId, envelopeId),
    () => theirs.createCustomFields(other.accountId, envelopeId, { customFields: { textCustomFields: [{ name: 'Planted', value: '1' }] } }),
    () => theirs.updateCustomFields(other.accountId, envelopeId, { customFields: { textCustomFields: [{ fieldId: '1', value: 'stolen' }] } }),
    () => theirs.deleteCustomFields(other.accountId, envelopeId, { customFields: { textCustomFields: [{ fieldId: '1' }] } }),
  ]) assert.deepEqual(await sdkFailure(call()), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.equal((await api.listCustomFields(acc, envelopeId)).textCustomFields?.[0]?.value, '7654321');
});
