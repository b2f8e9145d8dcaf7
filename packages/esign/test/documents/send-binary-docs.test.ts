import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { buildConverter, type Converter } from '@signet/pdf';
import { startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { secondAccount } from '../support/second-account.ts';

// DocuSign's sendBinaryDocs example (code-examples-node lib/eSignature/examples) creates an
// envelope without base64: a multipart/form-data body of the EnvelopeDefinition as a JSON part
// and each document's bytes as a part naming its documentid, POSTed straight to
// {basePath}/v2.1/accounts/{accountId}/envelopes. The same request, byte layout and headers are
// made here with the example's arguments; nothing of the example is copied. Its documents come
// from its repository (an html it writes, a docx, a pdf); these are made here with the same
// anchors: **signature_1** in the html, /sn1/ in the docx and the pdf.
type EnvelopesApi = {
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string; emailSubject: string }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string }[] }>;
  listRecipients(accountId: string, envelopeId: string, opts: Record<string, string>): Promise<{ signers: { email: string; tabs?: { signHereTabs: { documentId: string; anchorString?: string }[] } }[]; carbonCopies: { email: string }[] }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

const ARGS = { signerEmail: 'signer@example.com', signerName: 'Sam Signer', ccEmail: 'cc@example.com', ccName: 'Carl Copy' };

/** The example's makeEnvelopeJSON: three documents without bytes, a signer with two anchor tabs, a cc. */
function envelopeJSON() {
  return {
    emailSubject: 'Please sign this document set',
    documents: [
      { name: 'Order acknowledgement', fileExtension: 'html', documentId: '1' },
      { name: 'Battle Plan', fileExtension: 'docx', documentId: '2' },
      { name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '3' },
    ],
    recipients: {
      signers: [{ email: ARGS.signerEmail, name: ARGS.signerName, recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [
        { anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
        { anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' },
      ] } }],
      carbonCopies: [{ email: ARGS.ccEmail, name: ARGS.ccName, routingOrder: '2', recipientId: '2' }],
    },
    status: 'sent',
  };
}

async function documentBytes(): Promise<Buffer[]> {
  const html = `<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body style="font-family:sans-serif;margin-left:2em;"><h1>World Wide Corp</h1><h4>Ordered by ${ARGS.signerName}</h4><p>Email: ${ARGS.signerEmail}</p><p>Copy to: ${ARGS.ccName}, ${ARGS.ccEmail}</p><h3 style="margin-top:3em;">Agreed: <span style="color:white;">**signature_1**/</span></h3></body></html>`;
  const docx = await Packer.toBuffer(new DocxDocument({ sections: [{ children: [new Paragraph({ children: [new TextRun('Battle plan.')] }), new Paragraph({ children: [new TextRun('Signed: '), new TextRun({ text: '/sn1/', color: 'FFFFFF' })] })] }] }));
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Lorem ipsum dolor sit amet.', { x: 72, y: 700, size: 14, font });
  page.drawText('/sn1/', { x: 300, y: 200, size: 10, font, color: rgb(1, 1, 1) });
  return [Buffer.from(html), Buffer.from(docx), Buffer.from(await pdf.save())];
}

/** The example's createAndSendEnvelope: the multipart body laid out as it lays it out, sent with its headers. */
async function createAndSendEnvelope(basePath: string, accessToken: string, accountId: string, json = envelopeJSON()): Promise<{ status: number; body: Record<string, unknown> }> {
  const bytes = await documentBytes();
  const mimes = ['text/html', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/pdf'];
  const CRLF = '\r\n';
  const boundary = 'multipartboundary_multipartboundary';
  const hyphens = '--';
  let reqBody = Buffer.from([hyphens, boundary, CRLF, 'Content-Type: application/json', CRLF, 'Content-Disposition: form-data', CRLF, CRLF, JSON.stringify(json, null, '    ')].join(''));
  json.documents.forEach((d, i) => {
    reqBody = Buffer.concat([reqBody, Buffer.from([CRLF, hyphens, boundary, CRLF, `Content-Type: ${mimes[i]}`, CRLF, `Content-Disposition: file; filename="${d.name}";documentid=${d.documentId}`, CRLF, CRLF].join('')), bytes[i] ?? Buffer.alloc(0)]);
  });
  reqBody = Buffer.concat([reqBody, Buffer.from([CRLF, hyphens, boundary, hyphens, CRLF].join(''))]);
  const response = await fetch(`${basePath}/v2.1/accounts/${accountId}/envelopes`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': `multipart/form-data; boundary=${boundary}`, Authorization: `Bearer ${accessToken}` },
    body: reqBody,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function envelopesApi(h: SigningHarness): EnvelopesApi {
  const api = new docusign.ApiClient();
  api.setBasePath(`${h.origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return new docusign.EnvelopesApi(api);
}

test('sendBinaryDocs as DocuSign’s example sends it: html, docx and pdf as multipart parts, converted, anchors placed in each, sent; bad bodies refused', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const results = await createAndSendEnvelope(`${h.origin}/restapi`, h.token, h.accountId);
  assert.equal(results.status, 201, JSON.stringify(results.body));
  const envelopeId = String(results.body.envelopeId);
  assert.equal(results.body.status, 'sent');

  const api = envelopesApi(h);
  assert.equal((await api.getEnvelope(h.accountId, envelopeId)).emailSubject, 'Please sign this document set');
  assert.deepEqual((await api.listDocuments(h.accountId, envelopeId)).envelopeDocuments.map((d) => [d.documentId, d.name]), [['1', 'Order acknowledgement'], ['2', 'Battle Plan'], ['3', 'Lorem Ipsum']]);
  const recipients = await api.listRecipients(h.accountId, envelopeId, { includeTabs: 'true' });
  assert.deepEqual(recipients.carbonCopies.map((c) => c.email), [ARGS.ccEmail]);
  const placed = (recipients.signers[0]?.tabs?.signHereTabs ?? []).map((tab) => `${tab.anchorString} in ${tab.documentId}`).sort();
  assert.deepEqual(placed, ['**signature_1** in 1', '/sn1/ in 2', '/sn1/ in 3'], 'the example: "the signHere2 tab will be used in both document 2 and 3"');

  // The JSON part's own refusals still apply (a field asking for what is not done); nothing is stored.
  const refused = await createAndSendEnvelope(`${h.origin}/restapi`, h.token, h.accountId, { ...envelopeJSON(), emailSubject: 'Refused', ...{ workflow: { workflowSteps: [{ action: 'pause_before' }] } } });
  assert.deepEqual([refused.status, refused.body.errorCode], [400, 'INVALID_REQUEST_BODY']);
  // A body larger than a JSON create may be: the same limit and the same answer as a JSON body's.
  const tooBig = await fetch(`${h.origin}/restapi/v2.1/accounts/${h.accountId}/envelopes`, { method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'multipart/form-data; boundary=x' }, body: Buffer.alloc(37 * 1024 * 1024) });
  assert.deepEqual([tooBig.status, ((await tooBig.json()) as { errorCode?: string }).errorCode], [400, 'INVALID_REQUEST_BODY']);
  // Another account's token cannot create in this account.
  const other = await secondAccount(h);
  assert.equal((await createAndSendEnvelope(`${h.origin}/restapi`, other.token, h.accountId)).status, 400);
  const listed = (await (await h.api('GET', '/envelopes?from_date=2020-01-01')).json()) as { envelopes: { emailSubject: string }[] };
  assert.deepEqual(listed.envelopes.map((e) => e.emailSubject), ['Please sign this document set']);
});
