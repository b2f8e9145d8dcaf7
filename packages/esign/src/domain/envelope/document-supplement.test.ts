import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { acknowledgementsDue, assertAcknowledged, inDownload } from './document-supplement.ts';
import type { Envelope, EnvelopeDocument, Recipient, RecipientType } from './envelope.ts';
import type { PlacedTab } from './placed-tab.ts';

const T0 = new Date('2026-01-02T03:04:05.000Z');
const doc = (documentId: string, supplement?: EnvelopeDocument['supplement']): EnvelopeDocument => ({ documentId, name: `Doc ${documentId}`, fileExtension: 'pdf', order: Number(documentId), pageCount: 1, sha256: 'ab', ...(supplement ? { supplement } : {}) });
const viewTab = (documentId: string, requiredRead: boolean): PlacedTab => ({ tabId: `v-${documentId}`, documentId, pageNumber: 1, xPosition: 10, yPosition: 10, value: '', tab: { type: 'view', requiredRead, required: false, locked: false } } as unknown as PlacedTab);
const who = (type: RecipientType, tabs: PlacedTab[] = []): Recipient => ({ recipientId: '1', recipientIdGuid: 'g', type, email: 'a@example.com', name: 'A', routingOrder: 1, status: 'sent', tabs });
const envelope = (documents: EnvelopeDocument[]): Envelope => ({ envelopeId: 'e', accountId: 'a', senderUserId: 'u', status: 'sent', emailSubject: 'S', createdAt: T0, statusChangedAt: T0, documents, recipients: [], version: 1 });

const e = envelope([
  doc('1'),
  doc('2', { display: 'modal', signerMustAcknowledge: 'view_accept', includeInDownload: true }),
  doc('3', { display: 'download', signerMustAcknowledge: 'no_interaction', includeInDownload: false }),
  doc('4', { display: 'modal', signerMustAcknowledge: 'accept', includeInDownload: true }),
]);

test('a signer owes what signerMustAcknowledge says; a View tab on the document replaces it (DocuSign)', () => {
  assert.deepEqual(acknowledgementsDue(e, who('signer')).map((d) => [d.documentId, d.view, d.accept]), [['2', true, true], ['4', false, true]]);
  // With a View tab: requiredRead decides the view, and nothing is to accept.
  assert.deepEqual(acknowledgementsDue(e, who('signer', [viewTab('2', false), viewTab('3', true)])).map((d) => [d.documentId, d.view, d.accept]), [['3', true, false], ['4', false, true]]);
  // Those who sign nothing are assigned no action.
  assert.deepEqual(acknowledgementsDue(e, who('certifiedDelivery')), []);
  assert.deepEqual(acknowledgementsDue(e, who('carbonCopy')), []);
});

test('Finish is refused until every view and acceptance owed is there', () => {
  const due = acknowledgementsDue(e, who('signer'));
  const refused = (viewed: string[], accepted: string[]) => {
    try {
      assertAcknowledged(due, { viewed: new Set(viewed), accepted: new Set(accepted) });
      return '';
    } catch (err) {
      assert.ok(err instanceof EsignError);
      return `${err.code} ${err.message}`;
    }
  };
  assert.match(refused([], ['2', '4']), /^SUPPLEMENT_NOT_ACKNOWLEDGED .*View "Doc 2"/);
  assert.match(refused(['2'], ['2']), /Accept "Doc 4"/);
  // Accepting another document, or viewing one, is not accepting this one.
  assert.match(refused(['2', '4'], ['4']), /Accept "Doc 2"/);
  assert.equal(refused(['2'], ['2', '4']), '');
});

test('the combined download leaves out includeInDownload false only', () => {
  assert.deepEqual(inDownload(e.documents).map((d) => d.documentId), ['1', '2', '4']);
});
