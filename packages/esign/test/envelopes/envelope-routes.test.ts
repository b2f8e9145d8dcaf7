import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEnvelopeEsign } from '../support/envelope-harness.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';

test('envelope routes over HTTP: Bearer and account checks, query rules, no-op update, document errors, exact bodies', async (t) => {
  // PDFs pass through, parsed in-thread: these cases are about the HTTP surface.
  const h = await startEnvelopeEsign(t, { converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields } });
  const seed = await seedUserAndApp(h);
  const stranger = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const base = `${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes`;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, auth: string | null = `Bearer ${token}`) => {
    // The SDK sends Content-Type: application/json on every call, GETs included (callApi in docusign-esign src/ApiClient.js).
    const res = await request(url, { method, headers: { 'content-type': 'application/json', ...(auth !== null ? { authorization: auth } : {}) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  pdf.addPage([612, 792]);
  const documentBase64 = Buffer.from(await pdf.save()).toString('base64');
  const definition = { emailSubject: 'Routes', status: 'created', documents: [{ documentId: '1', name: 'Two pages.pdf', documentBase64 }], recipients: { signers: [{ email: 'a@example.com', name: 'A', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '2', xPosition: '10', yPosition: '20' }] } }] } };

  assert.deepEqual((await call('POST', base, definition, null)).json(), { errorCode: 'USER_AUTHENTICATION_FAILED', message: 'One or both of Username and Password are invalid. Invalid access token.' });
  const foreign = await call('GET', `${h.origin}/restapi/v2.1/accounts/${stranger.accountId}/envelopes?from_date=2020-01-01`);
  assert.equal(foreign.status, 400);
  assert.equal(foreign.json().errorCode, 'USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');

  const created = await call('POST', base, definition);
  assert.equal(created.status, 201, created.text);
  const { envelopeId, status, uri } = created.json() as { envelopeId: string; status: string; uri: string };
  assert.deepEqual([status, uri], ['created', `/envelopes/${envelopeId}`]);

  // listStatusChanges: DocuSign's rule and message for a missing from_date.
  assert.deepEqual((await call('GET', base)).json(), { errorCode: 'INVALID_REQUEST_PARAMETER', message: "The request contained at least one invalid parameter. Query parameter 'from_date' must be set to a valid DateTime, or 'envelope_ids' or 'transaction_ids' must be specified." });
  const listed = (await call('GET', `${base}?envelope_ids=${envelopeId}&include=recipients`)).json() as { resultSetSize: string; totalSetSize: string; startPosition: string; endPosition: string; envelopes: { envelopeId: string; recipients?: { signers: unknown[] } }[] };
  assert.deepEqual([listed.resultSetSize, listed.totalSetSize, listed.startPosition, listed.endPosition], ['1', '1', '0', '0']);
  assert.equal(listed.envelopes[0]?.recipients?.signers.length, 1);
  const paged = (await call('GET', `${base}?from_date=2020-01-01&count=1`)).json() as { nextUri: string; previousUri: string };
  assert.deepEqual([paged.nextUri, paged.previousUri], ['', ''], 'one envelope fits one page');
  const none = (await call('GET', `${base}?from_date=2999-01-01T00:00:00Z`)).json() as { resultSetSize: string; envelopes: unknown[] };
  assert.deepEqual([none.resultSetSize, none.envelopes], ['0', []], 'an empty page still has an envelopes array');

  // PUT {} is DocuSign's no-op 200; the envelope is untouched.
  const noop = await call('PUT', `${base}/${envelopeId}`, {});
  assert.deepEqual([noop.status, noop.json()], [200, { envelopeId }]);
  assert.equal((await call('GET', `${base}/${envelopeId}`)).json().status, 'created');
  assert.equal((await call('PUT', `${base}/${envelopeId}`, { status: 'voided', voidedReason: 'x' })).json().errorCode, 'ENVELOPE_CANNOT_VOID_INVALID_STATE');
  assert.equal((await call('PUT', `${base}/00000000-0000-4000-8000-000000000000`, {})).json().errorCode, 'ENVELOPE_DOES_NOT_EXIST');

  // Recipients with tabs, documents, a document's bytes.
  const recipients = (await call('GET', `${base}/${envelopeId}/recipients?include_tabs=true`)).json() as { signers: { tabs: { signHereTabs: { pageNumber: string; xPosition: string; yPosition: string }[] } }[]; carbonCopies: unknown[] };
  assert.deepEqual(recipients.signers[0]?.tabs.signHereTabs.map((x) => [x.pageNumber, x.xPosition, x.yPosition]), [['2', '10', '20']]);
  assert.deepEqual(recipients.carbonCopies, []);
  const tabs = (await call('GET', `${base}/${envelopeId}/recipients/1/tabs`)).json() as { signHereTabs: { recipientId: string; pageNumber: string }[] };
  assert.deepEqual(tabs.signHereTabs.map((x) => [x.recipientId, x.pageNumber]), [['1', '2']]);
  assert.equal((await call('GET', `${base}/${envelopeId}/recipients/7/tabs`)).json().errorCode, 'UNKNOWN_ENVELOPE_RECIPIENT');
  const documents = (await call('GET', `${base}/${envelopeId}/documents`)).json() as { envelopeDocuments: { documentId: string; pages: unknown[] }[] };
  assert.deepEqual(documents.envelopeDocuments.map((d) => [d.documentId, d.pages.length]), [['1', 2]]);
  const bytes = await request(`${base}/${envelopeId}/documents/1`, { headers: { authorization: `Bearer ${token}`, accept: 'application/pdf', 'content-type': 'application/json' } });
  assert.equal(bytes.headers['content-type'], 'application/pdf');
  assert.equal(bytes.headers['content-disposition'], 'file; filename="Two pages.pdf"');
  assert.deepEqual(Buffer.from(await bytes.body.arrayBuffer()), Buffer.from(documentBase64, 'base64'));
  assert.deepEqual((await call('GET', `${base}/${envelopeId}/documents/99`)).json(), { errorCode: 'DOCUMENT_DOES_NOT_EXIST', message: 'The document specified was not found. documentId "99" is not in the envelope.' });

  // A tab on a page the document does not have; a body that is not JSON.
  const badPage = structuredClone(definition);
  badPage.recipients.signers[0]!.tabs.signHereTabs[0]!.pageNumber = '3';
  assert.equal((await call('POST', base, badPage)).json().errorCode, 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT');
  const garbage = await request(base, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"documents": [' });
  assert.equal(garbage.statusCode, 400);
  assert.equal(((await garbage.body.json()) as { errorCode: string }).errorCode, 'INVALID_REQUEST_BODY');
  assert.equal(((await call('GET', `${base}?from_date=2020-01-01`)).json() as { totalSetSize: string }).totalSetSize, '1', 'the refused creates stored nothing');
  const second = await call('POST', base, definition);
  assert.equal(second.status, 201);
  const page1 = (await call('GET', `${base}?from_date=2020-01-01&count=1`)).json() as { envelopes: { envelopeId: string }[]; nextUri: string; previousUri: string };
  // Pages follow status_changed_at, then envelope id: two envelopes made in the same millisecond
  // come in id order, so which one is on page 1 is not fixed; together the pages hold both once.
  assert.equal(page1.envelopes.length, 1);
  assert.equal(page1.previousUri, '');
  assert.equal(page1.nextUri, '/envelopes?from_date=2020-01-01&count=1&start_position=1');
  const page2 = (await call('GET', `${base}${page1.nextUri.slice('/envelopes'.length)}`)).json() as { envelopes: { envelopeId: string }[]; nextUri: string; previousUri: string; startPosition: string };
  assert.deepEqual([page2.startPosition, page2.nextUri, page2.previousUri], ['1', '', '/envelopes?from_date=2020-01-01&count=1&start_position=0']);
  const secondId = (second.json() as { envelopeId: string }).envelopeId;
  const bothIds = [envelopeId, secondId].sort();
  const pagedIds = [page1.envelopes[0]?.envelopeId, page2.envelopes[0]?.envelopeId];
  assert.deepEqual([...pagedIds].sort(), bothIds);
});
