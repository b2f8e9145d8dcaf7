import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDevSealP12 } from '@signet/pdf';
import { buildCompletedPdfs } from '../../src/completion/build-completed-pdfs.ts';
import type { Envelope } from '../../src/domain/envelope/envelope.ts';
import { pdfText } from '../support/pdf-text.ts';
import { samplePdf } from '../support/sample-pdf.ts';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const NOW = new Date('2026-11-20T10:00:00Z');

function envelope(stamping: boolean): Envelope {
  return {
    envelopeId: ID, accountId: 'a', senderUserId: 'u', status: 'completed', emailSubject: 'Lease', createdAt: NOW, statusChangedAt: NOW, sentAt: NOW,
    documents: [{ documentId: '1', name: 'Lease', fileExtension: 'pdf', order: 1, pageCount: 2, sha256: 'x' }],
    recipients: [{ recipientId: '1', recipientIdGuid: 'g', type: 'carbonCopy', email: 'cc@example.com', name: 'Carl', routingOrder: 1, status: 'completed', tabs: [] }],
    ...(stamping ? { envelopeIdStamping: true } : {}),
    version: 3,
  };
}

test('envelopeIdStamping: the envelope id on every page of the completed documents, under the seal; not asked, not stamped', async () => {
  const pdf = await samplePdf(2);
  const seal = createDevSealP12({ commonName: 'stamping test seal' });
  const build = (stamping: boolean) => buildCompletedPdfs({ envelope: envelope(stamping), pdfs: new Map([['1', pdf]]), signatures: new Map(), audit: [], seal, now: NOW });
  const stamped = await build(true);
  const pages = (await pdfText(stamped.signedDocuments.get('1')!)).split('\f').filter((p) => p.trim() !== '');
  assert.equal(pages.length, 2);
  for (const page of pages) assert.match(page, new RegExp(`Envelope ID: ${ID.toUpperCase()}`));
  assert.equal((await pdfText(stamped.combinedDocuments)).split(`Envelope ID: ${ID.toUpperCase()}`).length - 1, 2, 'the sealed combined file carries them');
  assert.doesNotMatch(await pdfText((await build(false)).combinedDocuments), /Envelope ID:/);
});
