// Each document was bounded (25 MB) and so was their number (50), never their sum: a review grew
// a draft one 25 MB document per call to 1.25 GB, which every archive, portfolio, Connect
// delivery with documents and bulk copy then handled whole. Envelopes and templates now hold at
// most 50 MB of PDF together, however they are made or changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import type { DocumentText } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEnvelopeEsign } from '../support/envelope-harness.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';

test('an envelope or template holds at most 50 MB of PDF, on create, on added documents and from templates', async (t) => {
  // Bytes pass through as their own "PDF" of one Letter page: the sizes are what is under test.
  const onePage = (pdfs: readonly Uint8Array[]): Promise<DocumentText[]> => Promise.resolve(pdfs.map((_, documentIndex) => ({ documentIndex, pages: [{ pageNumber: 1, width: 612, height: 792, runs: [] }] })));
  const h = await startEnvelopeEsign(t, { converter: { convert: ({ bytes }) => Promise.resolve(bytes), extractText: onePage, readFormFields: () => Promise.resolve([]), removeFormFields: (pdf) => Promise.resolve(pdf) } });
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const call = async (method: 'POST' | 'PUT', path: string, body: unknown, contentType = 'application/json') => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: contentType === 'application/json' ? JSON.stringify(body) : (body as Buffer) });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };
  const mb = (n: number) => Buffer.alloc(n * 1024 * 1024, 0x25);
  const doc = (id: string, n: number) => ({ documentId: id, name: `D${id}.pdf`, documentBase64: mb(n).toString('base64') });

  // A draft of 20 MB, grown by the raw updateDocument route: 20 more fit, 20 after that do not.
  const draft = await call('POST', '/envelopes', { emailSubject: 'Heavy', status: 'created', documents: [doc('1', 20)] });
  assert.equal(draft.status, 201, JSON.stringify(draft.json));
  const id = String(draft.json.envelopeId);
  assert.equal((await call('PUT', `/envelopes/${id}/documents/2`, mb(20), 'application/pdf')).status, 200);
  const third = await call('PUT', `/envelopes/${id}/documents/3`, mb(20), 'application/pdf');
  assert.equal(third.status, 400);
  assert.equal(third.json.errorCode, 'INVALID_REQUEST_BODY');
  assert.match(String(third.json.message), /at most 50 MB together as PDF; these would weigh 60\.0 MB/);
  const documents = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes/${id}/documents`, { headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual(((await documents.body.json()) as { envelopeDocuments: { documentId: string }[] }).envelopeDocuments.map((d) => d.documentId), ['1', '2'], 'nothing of the refused call was kept');

  // Two templates of 30 MB each: each makes an envelope, together they do not.
  // (A request body holds at most 36 MB: each template is made of two 15 MB documents, one added.)
  const template = async () => {
    const templateId = String((await call('POST', '/templates', { name: 'T', documents: [doc('1', 15)], recipients: { signers: [{ roleName: 'Signer', recipientId: '1' }] } })).json.templateId);
    assert.equal((await call('PUT', `/templates/${templateId}/documents`, { documents: [doc('2', 15)] })).status, 200);
    return templateId;
  };
  const [first, second] = [await template(), await template()];
  assert.equal((await call('POST', '/envelopes', { templateId: first, status: 'created' })).status, 201);
  const both = await call('POST', '/envelopes', { status: 'created', compositeTemplates: [
    { compositeTemplateId: '1', serverTemplates: [{ sequence: '1', templateId: first }] },
    { compositeTemplateId: '2', serverTemplates: [{ sequence: '1', templateId: second }] },
  ] });
  assert.equal(both.status, 400);
  assert.match(String(both.json.message), /made from the templates's documents may weigh at most 50 MB/);
});

test('an envelope or template has at most 2,000 pages together, on create and from templates', async (t) => {
  // Each "PDF" reads as the number of pages its first byte says (the converter is a stand-in): the counts are what is under test.
  const pagesOf = (pdfs: readonly Uint8Array[]): Promise<DocumentText[]> => Promise.resolve(pdfs.map((pdf, documentIndex) => ({ documentIndex, pages: Array.from({ length: (pdf[0] ?? 1) * 100 }, (_, i) => ({ pageNumber: i + 1, width: 612, height: 792, runs: [] })) })));
  const h = await startEnvelopeEsign(t, { converter: { convert: ({ bytes }) => Promise.resolve(bytes), extractText: pagesOf, readFormFields: () => Promise.resolve([]), removeFormFields: (pdf) => Promise.resolve(pdf) } });
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const call = async (path: string, body: unknown) => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${seed.accountId}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };
  const doc = (id: string, hundreds: number) => ({ documentId: id, name: `D${id}.pdf`, documentBase64: Buffer.from([hundreds]).toString('base64') });
  assert.equal((await call('/envelopes', { emailSubject: 'Long', status: 'created', documents: [doc('1', 10), doc('2', 10)] })).status, 201);
  const over = await call('/envelopes', { emailSubject: 'Longer', status: 'created', documents: [doc('1', 10), doc('2', 11)] });
  assert.equal(over.status, 400);
  assert.match(String(over.json.message), /An envelope or template's documents may have at most 2000 pages together; these would have 2100\./);
  // Two templates of 1,200 pages: each makes an envelope, together they do not.
  const template = async () => String((await call('/templates', { name: 'T', documents: [doc('1', 12)], recipients: { signers: [{ roleName: 'Signer', recipientId: '1' }] } })).json.templateId);
  const [first, second] = [await template(), await template()];
  const both = await call('/envelopes', { status: 'created', compositeTemplates: [
    { compositeTemplateId: '1', serverTemplates: [{ sequence: '1', templateId: first }] },
    { compositeTemplateId: '2', serverTemplates: [{ sequence: '1', templateId: second }] },
  ] });
  assert.equal(both.status, 400);
  assert.match(String(both.json.message), /The envelope made from the templates's documents may have at most 2000 pages together; these would have 2400\./);
});
