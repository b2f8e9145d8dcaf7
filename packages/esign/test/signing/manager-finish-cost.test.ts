// An agent's or editor's Finish may set managed recipients' access codes; each is hashed with
// scrypt (~0.2 s and 32 MiB on the shared thread pool). A review posted 100 codes for ids the
// agent may not change: refused (400), nothing changed, yet 100 hashes ran first, ~17 s of an
// instance per 3 KB request, as often as it was posted. The edits are now judged first.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { test } from 'node:test';
import { extractText, readFormFields, removeFormFields, validatePdf, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign } from './signing-harness.ts';
import { FormClient, formFields } from '../support/form-client.ts';

test('a refused Finish of an agent hashes none of the access codes it posts', async (t) => {
  // PDF documents without anchors only: no office worker, no browser, no anchor search is asked for.
  const pdfOnly = { convert: ({ bytes }: { bytes: Uint8Array }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields };
  const h = await startSigningEsign(t, { converter: pdfOnly as unknown as Converter });
  const created = await h.api('POST', '/envelopes', {
    emailSubject: 'Codes', status: 'sent',
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'd' }],
    recipients: {
      agents: [{ email: 'agent@example.com', name: 'Agent', recipientId: '1', routingOrder: '1', clientUserId: 'a1' }],
      signers: [{ email: 's@example.com', name: 'S', recipientId: '2', routingOrder: '2', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }],
    },
  });
  assert.equal(created.status, 201);
  const { envelopeId } = (await created.json()) as { envelopeId: string };
  const view = await h.api('POST', `/envelopes/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'agent@example.com', userName: 'Agent', clientUserId: 'a1' });
  const { url } = (await view.json()) as { url: string };
  const browser = new FormClient(h.origin);
  const path = String((await browser.get(new URL(url).pathname)).headers.location);
  const page = await browser.get(path);
  const form: Record<string, string> = formFields(page.text, `${path}/finish`);
  for (let i = 0; i < 100; i++) form[`recipient.x${i}.accessCode`] = 'abcd1234';

  // Counts the scrypt calls made while the Finish is answered (password-hash.ts imports scrypt by name).
  let hashes = 0;
  const scrypt = crypto.scrypt;
  crypto.scrypt = ((...args: Parameters<typeof crypto.scrypt>) => {
    hashes++;
    return scrypt(...args);
  }) as typeof crypto.scrypt;
  syncBuiltinESMExports();
  t.after(() => {
    crypto.scrypt = scrypt;
    syncBuiltinESMExports();
  });
  const answer = await browser.post(`${path}/finish`, form);
  assert.equal(answer.status, 400);
  assert.match(answer.text, /RECIPIENT_UPDATE_FAILED/);
  assert.equal(hashes, 0);
});
