import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError, type EsignErrorCode } from '../../errors.ts';
import { parseEnvelopeDefinition } from './parse-envelope-definition.ts';

const PDF_B64 = Buffer.from('%PDF-1.4 test').toString('base64');

/** A createEnvelope body as the SDK sends it when callers assign properties directly: numbers and strings mixed. */
function body(): Record<string, unknown> {
  return {
    emailSubject: 'Please sign this document set',
    documents: [
      { documentBase64: Buffer.from('<p>**signature_1**</p>').toString('base64'), documentId: '1', fileExtension: 'html', name: 'Order acknowledgement' },
      { documentBase64: PDF_B64, documentId: 2, fileExtension: 'PDF', name: 'Lorem Ipsum' },
    ],
    recipients: {
      carbonCopies: [{ email: 'cc@example.com', name: 'Casey Copy', recipientId: '2', routingOrder: 2 }],
      signers: [{ email: 'Signer@Example.com', name: 'Sam Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '**signature_1**', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: 10, anchorIgnoreIfNotPresent: true }] } }],
    },
    status: 'sent',
  };
}

function rejects(b: unknown, code: EsignErrorCode, fragment: string): void {
  assert.throws(() => parseEnvelopeDefinition(b), (e: unknown) => {
    assert.ok(e instanceof EsignError, String(e));
    assert.equal(e.code, code);
    assert.ok(e.message.includes(fragment), `"${e.message}" should mention "${fragment}"`);
    return true;
  });
}

test('the SDK’s request reads into a draft: strings or numbers, booleans or "true"', () => {
  const draft = parseEnvelopeDefinition(body());
  assert.equal(draft.status, 'sent');
  assert.deepEqual(draft.documents.map((d) => [d.documentId, d.fileExtension, d.name]), [['1', 'html', 'Order acknowledgement'], ['2', 'pdf', 'Lorem Ipsum']]);
  assert.equal(Buffer.from(draft.documents[1]?.bytes ?? []).toString(), '%PDF-1.4 test');
  const [signer, cc] = draft.recipients;
  assert.deepEqual([signer?.type, signer?.email, signer?.routingOrder, cc?.type, cc?.routingOrder], ['signer', 'signer@example.com', 1, 'carbonCopy', 2]);
  const tab = signer?.tabs[0];
  assert.deepEqual(tab?.type === 'signHere' ? tab.place : undefined, { kind: 'anchor', anchor: { anchorString: '**signature_1**', units: 'pixels', xOffset: 20, yOffset: 10, ignoreIfNotPresent: true, caseSensitive: false, matchWholeWord: false, horizontalAlignment: 'left', allowWhiteSpaceInCharacters: false } });
});

test('defaults: draft status, routing order 1, subject from the first document, null read as absent', () => {
  const b = body();
  delete b.status;
  delete b.emailSubject;
  (b.recipients as Record<string, unknown>).carbonCopies = null;
  const signers = (b.recipients as { signers: Record<string, unknown>[] }).signers;
  delete signers[0]?.routingOrder;
  const draft = parseEnvelopeDefinition(b);
  assert.equal(draft.status, 'created');
  assert.equal(draft.emailSubject, 'Please sign: Order acknowledgement');
  assert.equal(draft.recipients.length, 1);
  assert.equal(draft.recipients[0]?.routingOrder, 1);
});

test('bad bodies are DocuSign 400s that name the problem', () => {
  rejects('not an object', 'INVALID_REQUEST_BODY', 'EnvelopeDefinition');
  rejects({ ...body(), documents: { documentId: '1' } }, 'INVALID_REQUEST_BODY', 'documents must be an array');
  rejects({ ...body(), status: 'completed' }, 'ENVELOPE_INVALID_STATUS', 'completed');
  const dupDoc = body();
  (dupDoc.documents as Record<string, unknown>[])[1]!.documentId = '1';
  rejects(dupDoc, 'INVALID_REQUEST_BODY', 'documentId "1" is used more than once');
  const dupRecipient = body();
  (dupRecipient.recipients as { carbonCopies: Record<string, unknown>[] }).carbonCopies[0]!.recipientId = '1';
  rejects(dupRecipient, 'INVALID_REQUEST_BODY', 'recipientId "1" is used more than once');
  const badB64 = body();
  (badB64.documents as Record<string, unknown>[])[0]!.documentBase64 = 'not base64!!';
  rejects(badB64, 'INVALID_REQUEST_BODY', 'documents[0].documentBase64 is not valid base64');
  const badExt = body();
  (badExt.documents as Record<string, unknown>[])[0]!.fileExtension = 'exe';
  rejects(badExt, 'FORMAT_CONVERSION_ERROR', 'fileExtension "exe" is not supported');
  const badEmail = body();
  (badEmail.recipients as { signers: Record<string, unknown>[] }).signers[0]!.email = 'sam at example';
  rejects(badEmail, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', 'recipientId 1');
  const badOrder = body();
  (badOrder.recipients as { signers: Record<string, unknown>[] }).signers[0]!.routingOrder = 'first';
  rejects(badOrder, 'INVALID_REQUEST_BODY', 'recipients.signers[0].routingOrder must be a number');
  const badDocId = body();
  (badDocId.documents as Record<string, unknown>[])[0]!.documentId = 'abc';
  rejects(badDocId, 'INVALID_REQUEST_BODY', 'documents[0].documentId must be a positive integer');
  const badFlag = body();
  (badFlag.recipients as { signers: { tabs: { signHereTabs: Record<string, unknown>[] } }[] }).signers[0]!.tabs.signHereTabs[0]!.anchorIgnoreIfNotPresent = 'maybe';
  rejects(badFlag, 'INVALID_REQUEST_BODY', 'anchorIgnoreIfNotPresent must be true or false');
  const otherTabs = body();
  (otherTabs.recipients as { signers: { tabs: Record<string, unknown> }[] }).signers[0]!.tabs.drawTabs = [{ anchorString: 'x' }];
  rejects(otherTabs, 'INVALID_REQUEST_BODY', 'tabs.drawTabs is not supported');
  const notAList = body();
  (notAList.recipients as { signers: { tabs: Record<string, unknown> }[] }).signers[0]!.tabs.tickBoxTabs = [{ anchorString: 'x' }];
  rejects(notAList, 'INVALID_REQUEST_BODY', 'tabs.tickBoxTabs is not a tab list of the Tabs model');
  const noPlace = body();
  (noPlace.recipients as { signers: { tabs: { signHereTabs: unknown[] } }[] }).signers[0]!.tabs.signHereTabs = [{ xPosition: 1 }];
  rejects(noPlace, 'INVALID_REQUEST_BODY', 'needs an anchorString');
  const badDocRef = body();
  (badDocRef.recipients as { signers: { tabs: { signHereTabs: unknown[] } }[] }).signers[0]!.tabs.signHereTabs = [{ documentId: '7', pageNumber: 1, xPosition: 1, yPosition: 1 }];
  rejects(badDocRef, 'TAB_REFERS_TO_MISSING_DOCUMENT', 'documentId "7"');
  rejects({ ...body(), recipients: { seals: [{ recipientId: '1' }] } }, 'INVALID_REQUEST_BODY', 'recipients (Recipients): not supported: seals (electronic seals as recipients are not supported');
  // Agents are honoured (domain/signing/manage-recipients.ts), and checked as any recipient.
  rejects({ ...body(), recipients: { agents: [{ email: 'a@example.com' }] } }, 'INVALID_REQUEST_BODY', 'recipients.agents[0].recipientId is required.');
});
