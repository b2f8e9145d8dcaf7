import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEnvelopeEsign } from '../support/envelope-harness.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';

// The official SDK, unmodified (CommonJS, no typings): only the parts this test calls are typed.
type SdkError = { response?: { status: number; data: unknown } };
type Listed = { resultSetSize: string; totalSetSize: string; nextUri: string; envelopes?: { envelopeId: string; emailSubject: string }[] };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listStatusChanges(accountId: string, opts: Record<string, string>): Promise<Listed>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

test('the real SDK lists envelopes with orderBy/order and searchText; bad orderBy is INVALID_REQUEST_PARAMETER', async (t) => {
  // PDFs pass through, parsed in-thread: this test is about the listing, not conversion.
  const h = await startEnvelopeEsign(t, { converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields } });
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  const api = new docusign.EnvelopesApi(client);

  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const documentBase64 = Buffer.from(await doc.save()).toString('base64');
  const subjects = ['beta plan', 'Alpha contract', 'gamma renewal'];
  const signers = ['Mia Moss', 'Noor Nash', 'Mia Ortiz'];
  for (const [i, emailSubject] of subjects.entries()) {
    h.clock.advance(60);
    await api.createEnvelope(seed.accountId, { envelopeDefinition: {
      emailSubject,
      status: 'created',
      documents: [{ documentId: '1', name: 'One page.pdf', documentBase64 }],
      recipients: { signers: [{ email: `signer${i}@example.com`, name: signers[i], recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '20' }] } }] },
    } });
  }
  const list = async (opts: Record<string, string>) => (await api.listStatusChanges(seed.accountId, { fromDate: '2020-01-01T00:00:00Z', ...opts })).envelopes?.map((e) => e.emailSubject) ?? [];

  assert.deepEqual(await list({}), subjects, 'status change time, oldest first');
  assert.deepEqual(await list({ orderBy: 'envelope_name' }), ['Alpha contract', 'beta plan', 'gamma renewal']);
  assert.deepEqual(await list({ orderBy: 'subject', order: 'desc' }), ['gamma renewal', 'beta plan', 'Alpha contract']);
  assert.deepEqual(await list({ orderBy: 'created', order: 'desc' }), ['gamma renewal', 'Alpha contract', 'beta plan']);
  assert.deepEqual(await list({ searchText: 'MIA' }), ['beta plan', 'gamma renewal'], 'recipient names');
  assert.deepEqual(await list({ searchText: 'mia', orderBy: 'subject', order: 'desc' }), ['gamma renewal', 'beta plan']);
  assert.deepEqual(await list({ searchText: 'signer1@' }), ['Alpha contract'], 'recipient email');
  assert.deepEqual(await list({ searchText: 'contract' }), ['Alpha contract'], 'subject');
  assert.deepEqual(await list({ searchText: 'nobody' }), []);

  // nextUri repeats the sort and the search, so the next page continues the same listing.
  const page = await api.listStatusChanges(seed.accountId, { fromDate: '2020-01-01T00:00:00Z', orderBy: 'subject', searchText: 'a', count: '1' });
  assert.deepEqual([page.envelopes?.map((e) => e.emailSubject), page.totalSetSize], [['Alpha contract'], '3']);
  const next = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}${page.nextUri}`, { headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual(((await next.body.json()) as Listed).envelopes?.map((e) => e.emailSubject), ['beta plan']);

  const refused = await api.listStatusChanges(seed.accountId, { fromDate: '2020-01-01T00:00:00Z', orderBy: 'newest' }).then(() => undefined, (err: SdkError) => err.response);
  assert.equal(refused?.status, 400);
  assert.deepEqual(refused?.data, { errorCode: 'INVALID_REQUEST_PARAMETER', message: 'The request contained at least one invalid parameter. Query parameter \'order_by\' must be one of status_changed, last_modified, created, sent, completed, expire, subject, envelope_name, status, user_name, got "newest".' });
  const unsupported = await api.listStatusChanges(seed.accountId, { fromDate: '2020-01-01T00:00:00Z', orderBy: 'action_required' }).then(() => undefined, (err: SdkError) => err.response);
  assert.deepEqual([unsupported?.status, (unsupported?.data as { errorCode?: string } | undefined)?.errorCode], [400, 'INVALID_REQUEST_PARAMETER']);
});
