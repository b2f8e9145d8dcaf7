import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';
import { signAsEmbedded } from '../support/embedded-signing.ts';
import { secondAccount } from '../support/second-account.ts';

type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string; type: string; uri: string }[] }>;
  getDocument(accountId: string, envelopeId: string, documentId: string, opts?: Record<string, string>): Promise<Buffer>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const run = promisify(execFile);
const wait = { timeoutMs: 60_000, intervalMs: 100 };

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function envelopesApi(origin: string, token: string): EnvelopesApi {
  const api = new docusign.ApiClient();
  api.setBasePath(`${origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${token}`);
  return new docusign.EnvelopesApi(api);
}

/** The SDK reads an error body on a PDF route as a stream (its getDocument asks for application/pdf): status and errorCode. */
async function pdfRouteFailure(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (err) {
    const r = (err as { response?: { status: number; data: AsyncIterable<Buffer> } }).response ?? assert.fail(String(err));
    const chunks: Buffer[] = [];
    for await (const c of r.data) chunks.push(c);
    return [r.status, (JSON.parse(Buffer.concat(chunks).toString()) as { errorCode: string }).errorCode];
  }
  assert.fail('expected the call to fail');
}

async function unzip(t: TestContext, zip: Buffer): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'archive-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a.zip'), zip);
  assert.match((await run('unzip', ['-t', join(dir, 'a.zip')])).stdout, /No errors detected/);
  await run('unzip', ['-q', join(dir, 'a.zip'), '-d', join(dir, 'out')]);
  return new Map(readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name))]));
}

/** The files a PDF portfolio embeds, by poppler's pdfdetach (an independent reader), with the catalog's /Collection. */
async function detach(t: TestContext, pdf: Buffer): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-portfolio-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'p.pdf'), pdf);
  assert.match(pdf.toString('latin1'), /\/Collection/);
  await run('pdfdetach', ['-saveall', '-o', join(dir, 'out'), join(dir, 'p.pdf')], { cwd: dir }).catch(async () => {
    // Older poppler wants the output folder to exist.
    await run('mkdir', ['-p', join(dir, 'out')]);
    await run('pdfdetach', ['-saveall', '-o', join(dir, 'out'), join(dir, 'p.pdf')]);
  });
  return new Map(readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name))]));
}

test('listDocuments lists the certificate once it exists; getDocument archive is a ZIP of every document and the certificate that the real unzip reads, portfolio a PDF embedding the same files that pdfdetach reads; another account gets nothing', async (t) => {
  const h = await startSigningEsign(t, { converter });
  const api = envelopesApi(h.origin, h.token);
  const signer = { email: 'embedded@example.com', name: 'Emma Embedded', clientUserId: '1001' };
  const definition = {
    emailSubject: 'Archive me', status: 'sent',
    documents: [
      { documentBase64: b64(await samplePdf(1, 'First agreement')), documentId: '1', fileExtension: 'pdf', name: '../../etc/passwd' },
      { documentBase64: b64(await samplePdf(2, 'Second agreement')), documentId: '2', fileExtension: 'pdf', name: 'Terms.pdf' },
    ],
    recipients: { signers: [{ ...signer, recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
  };
  const { envelopeId } = await api.createEnvelope(h.accountId, { envelopeDefinition: definition });

  // In process: the documents as sent, no certificate yet.
  assert.deepEqual((await api.listDocuments(h.accountId, envelopeId)).envelopeDocuments.map((d) => d.documentId), ['1', '2']);
  const early = await unzip(t, await api.getDocument(h.accountId, envelopeId, 'archive'));
  assert.deepEqual([...early.keys()].sort(), ['Terms.pdf', 'etc_passwd.pdf'], 'the path in the name never becomes a folder');
  assert.deepEqual(early.get('Terms.pdf'), await api.getDocument(h.accountId, envelopeId, '2'));

  await signAsEmbedded(h, envelopeId, signer);
  await pollUntil(async () => (await api.getEnvelope(h.accountId, envelopeId)).status === 'completed', { ...wait, what: 'completion' });

  const listed = (await api.listDocuments(h.accountId, envelopeId)).envelopeDocuments;
  assert.deepEqual(listed.map((d) => [d.documentId, d.type]), [['1', 'content'], ['2', 'content'], ['certificate', 'summary']]);
  const certificateEntry = listed[2] ?? assert.fail('the certificate entry');
  assert.equal(certificateEntry.uri, `/envelopes/${envelopeId}/documents/certificate`);
  const certificate = await api.getDocument(h.accountId, envelopeId, 'certificate');

  const done = await unzip(t, await api.getDocument(h.accountId, envelopeId, 'archive'));
  assert.deepEqual([...done.keys()].sort(), ['Summary.pdf', 'Terms.pdf', 'etc_passwd.pdf']);
  assert.deepEqual(done.get('Summary.pdf'), certificate, 'the sealed certificate, byte for byte');
  assert.deepEqual(done.get('etc_passwd.pdf'), await api.getDocument(h.accountId, envelopeId, '1'), 'the signed document, as getDocument serves it');

  // The portfolio embeds the archive's files byte for byte: the signed documents keep their seal.
  const portfolio = await detach(t, await api.getDocument(h.accountId, envelopeId, 'portfolio'));
  assert.deepEqual([...portfolio.keys()].sort(), [...done.keys()].sort());
  for (const [name, bytes] of done) assert.deepEqual(portfolio.get(name), bytes, name);
  // A recipient's view of the archive or portfolio is not made: refused by name, never the whole envelope instead.
  assert.deepEqual(await pdfRouteFailure(api.getDocument(h.accountId, envelopeId, 'archive', { recipientId: '1' })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await pdfRouteFailure(api.getDocument(h.accountId, envelopeId, 'portfolio', { recipientId: '1' })), [400, 'INVALID_REQUEST_PARAMETER']);

  // Another tenant with its own valid token: the same envelope id is not theirs.
  const other = await secondAccount(h);
  const theirs = envelopesApi(h.origin, other.token);
  for (const documentId of ['archive', 'portfolio', 'certificate', 'combined', '1']) {
    assert.deepEqual(await pdfRouteFailure(theirs.getDocument(other.accountId, envelopeId, documentId)), [400, 'ENVELOPE_DOES_NOT_EXIST'], documentId);
  }
  await assert.rejects(theirs.listDocuments(other.accountId, envelopeId), (err: { response?: { data: { errorCode: string } } }) => err.response?.data.errorCode === 'ENVELOPE_DOES_NOT_EXIST');
});
