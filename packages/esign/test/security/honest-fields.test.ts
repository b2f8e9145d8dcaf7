// A field this service does not honour is never accepted in silence: a sender who asks for an
// access code (or any other protection or feature not built yet) gets a 400 naming it, and no
// envelope, instead of a signer who is never asked for the code. Real HTTP against a real esign.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { extractText, readFormFields, removeFormFields, validatePdf } from '@signet/pdf';
import { seedUserAndApp, startEsign } from '../support/esign-harness.ts';
import { samplePdf } from '../support/sample-pdf.ts';

test('an envelope asking for signer authentication, document visibility or a signing group is refused with a 400 naming the field; nothing is stored', async (t) => {
  const h = await startEsign(t, { deps: { converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText, readFormFields, removeFormFields } } });
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const base = `${h.origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes`;
  const pdf = Buffer.from(await samplePdf(1)).toString('base64');
  const send = async (signer: object, envelope: object = {}) => {
    const res = await request(base, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        emailSubject: 'Protected', status: 'created', ...envelope,
        documents: [{ documentId: '1', name: 'A.pdf', fileExtension: 'pdf', documentBase64: pdf }],
        recipients: { signers: [{ email: 's@example.com', name: 'Sam', recipientId: '1', ...signer }] },
      }),
    });
    return { status: res.statusCode, body: (await res.body.json()) as { errorCode?: string; message?: string } };
  };
  for (const [signer, envelope, field] of [
    [{ addAccessCodeToEmail: 'true' }, {}, 'addAccessCodeToEmail'],
    [{ socialAuthentications: [{ authentication: 'Facebook' }] }, {}, 'socialAuthentications'],
    // enforceSignerVisibility + excludedDocuments are honoured (test/documents/document-visibility.test.ts); the per-document list is not.
    [{ documentVisibility: [{ documentId: '1', recipientId: '1', visible: 'false' }] }, { enforceSignerVisibility: 'true' }, 'documentVisibility'],
    // Conditional recipients are honoured (docs/esign-workflow.md); a signing group as an option is not.
    [{}, { workflow: { workflowSteps: [{ action: 'pause_before', triggerOnItem: 'routing_order', itemId: '1', recipientRouting: { rules: { conditionalRecipients: [{ recipientId: '1', recipientGroup: { recipients: [{ recipientLabel: 'a', name: 'Al', email: 'al@example.com', signingGroupId: '7' }] } }] } } }] } }, 'signingGroupId'],
    [{ deliveryMethod: 'SMS' }, {}, 'deliveryMethod'],
  ] as const) {
    const res = await send(signer, envelope);
    assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errorCode, 'INVALID_REQUEST_BODY');
    assert.match(res.body.message ?? '', new RegExp(`not supported: .*${field} ("SMS" )?\\(`), field);
  }
  // ID verification and knowledge-based products, and checks that would prove nothing, are
  // refused by name (wire/parse-recipient-authentication.ts).
  for (const [signer, named] of [
    [{ identityVerification: { workflowId: 'c368e411-1592-4001-a3df-dca94ac539ae' } }, /identityVerification\.workflowId .*ID verification products \(DocuSign ID Verification, IDV\) and knowledge-based authentication \(KBA\) are not supported/],
    [{ idCheckConfigurationName: 'ID Check', requireIdLookup: 'true' }, /idCheckConfigurationName "ID Check" is knowledge-based authentication \(KBA\)/],
    [{ phoneAuthentication: { recipMayProvideNumber: 'true' } }, /phoneAuthentication\.recipMayProvideNumber is not supported: the signer would choose the number/],
    [{ requireIdLookup: 'true' }, /requireIdLookup is true but no check is given/],
    [{ idCheckConfigurationName: 'SMS Auth $', requireIdLookup: 'true' }, /smsAuthentication needs senderProvidedNumbers/],
  ] as const) {
    const res = await send(signer, {});
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errorCode, 'INVALID_REQUEST_BODY');
    assert.match(res.body.message ?? '', named);
  }
  const listed = await request(`${base}?from_date=2020-01-01`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(((await listed.body.json()) as { resultSetSize: string }).resultSetSize, '0', 'no envelope was stored');
  // What the same signer looks like without the protection: accepted.
  assert.equal((await send({ identityVerification: '' })).status, 201);
});
