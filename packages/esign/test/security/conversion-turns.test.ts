// The converter's queues serve accounts in turn (the pdf package's work-queue.ts): esign must tell
// it whose document each is, on every path that converts, and turn its refusal of an account
// with too many documents waiting into DocuSign's shape, storing nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { extractText, PdfError, readFormFields, removeFormFields, validatePdf, type ConvertInput } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEnvelopeEsign } from '../support/envelope-harness.ts';
import { seedUserAndApp, type Harness } from '../support/esign-harness.ts';

async function tokenFor(h: Harness): Promise<{ token: string; accountId: string }> {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  return { token, accountId: seed.accountId };
}

test('every conversion names its account to the converter; a busy account gets 429 and nothing is stored', async (t) => {
  const tenants: (string | undefined)[] = [];
  let busy = false;
  const h = await startEnvelopeEsign(t, {
    converter: {
      convert: async (input: ConvertInput) => {
        tenants.push(input.tenant);
        if (busy) throw new PdfError('CONVERTER_BUSY', '32 documents of this account are already waiting for conversion.');
        await validatePdf(input.bytes);
        return input.bytes;
      },
      extractText,
      readFormFields,
      removeFormFields,
    },
  });
  const alice = await tokenFor(h);
  const bob = await tokenFor(h);
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const documentBase64 = Buffer.from(await pdf.save()).toString('base64');
  const definition = { emailSubject: 'Turns', status: 'created', documents: [{ documentId: '1', name: 'One.pdf', documentBase64 }], recipients: { signers: [{ email: 'a@example.com', name: 'A', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '20' }] } }] } };
  const post = async (who: { token: string; accountId: string }, path: string, body: unknown, method: 'POST' | 'PUT' = 'POST') => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${who.accountId}${path}`, { method, headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };

  const created = await post(alice, '/envelopes', definition);
  assert.equal(created.status, 201, JSON.stringify(created.json));
  assert.equal((await post(bob, '/templates', { name: 'T', documents: definition.documents, recipients: { signers: [{ roleName: 'Signer', recipientId: '1' }] } })).status, 201);
  // A document added to Alice's draft converts on her turn too.
  const added = await post(alice, `/envelopes/${String(created.json.envelopeId)}/documents`, { documents: [{ documentId: '2', name: 'Two.pdf', documentBase64 }] }, 'PUT');
  assert.equal(added.status, 200, JSON.stringify(added.json));
  assert.deepEqual(tenants, [alice.accountId, bob.accountId, alice.accountId, alice.accountId]);

  busy = true;
  const refused = await post(bob, '/envelopes', definition);
  assert.equal(refused.status, 429);
  assert.equal(refused.json.errorCode, 'CONVERSION_QUEUE_LIMIT_EXCEEDED');
  assert.match(String(refused.json.message), /documentId 1 \(pdf\): .*32 documents of this account are already waiting/);
  busy = false;
  const listed = await request(`${h.origin}/restapi/v2.1/accounts/${bob.accountId}/envelopes?from_date=2020-01-01`, { headers: { authorization: `Bearer ${bob.token}` } });
  assert.equal(((await listed.body.json()) as { totalSetSize: string }).totalSetSize, '0', 'the refused create stored nothing');
});
