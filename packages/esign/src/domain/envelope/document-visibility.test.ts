import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { assertVisibility, seesEveryDocument, visibleDocuments } from './document-visibility.ts';
import type { Envelope, EnvelopeDocument, Recipient, RecipientType } from './envelope.ts';
import type { PlacedTab } from './placed-tab.ts';

const T0 = new Date('2026-01-02T03:04:05.000Z');
const doc = (documentId: string): EnvelopeDocument => ({ documentId, name: `Doc ${documentId}`, fileExtension: 'pdf', order: Number(documentId), pageCount: 1, sha256: 'ab' });
const tabOn = (documentId: string, recipientId: string): PlacedTab => ({ tabId: `t-${recipientId}-${documentId}`, recipientId, documentId, pageNumber: 1, xPosition: 1, yPosition: 1, value: '', tab: { type: 'signHere', required: true } } as unknown as PlacedTab);
const who = (recipientId: string, type: RecipientType, tabs: string[], excludedDocuments?: string[]): Recipient => ({ recipientId, recipientIdGuid: 'g', type, email: `${recipientId}@example.com`, name: recipientId, routingOrder: 1, status: 'sent', tabs: tabs.map((d) => tabOn(d, recipientId)), ...(excludedDocuments ? { excludedDocuments } : {}) });

const ada = who('ada', 'signer', ['1', '2']);
const bob = who('bob', 'signer', ['1'], ['3']);
const cy = who('cy', 'carbonCopy', [], ['2']);
const dee = who('dee', 'signer', []);
const envelope = (enforce: boolean): Envelope => ({ envelopeId: 'e', accountId: 'a', senderUserId: 'u', status: 'sent', emailSubject: 'S', createdAt: T0, statusChangedAt: T0, documents: [doc('1'), doc('2'), doc('3')], recipients: [ada, bob, cy, dee], version: 1, ...(enforce ? { enforceSignerVisibility: true } : {}) });
const ids = (e: Envelope, r: Recipient) => visibleDocuments(e, r).map((d) => d.documentId);

test('without enforceSignerVisibility everyone sees everything', () => {
  for (const r of [ada, bob, cy, dee]) assert.deepEqual(ids(envelope(false), r), ['1', '2', '3']);
});

test('with it: a signer sees their tabs\' documents and the tabless ones not excluded; others all but the excluded', () => {
  const e = envelope(true);
  assert.deepEqual(ids(e, ada), ['1', '2', '3']);
  assert.deepEqual(ids(e, bob), ['1'], 'Ada\'s document is hidden, the tabless one excluded');
  assert.deepEqual(ids(e, cy), ['1', '3'], 'a copy sees documents with tabs, but not the excluded');
  assert.deepEqual(ids(e, dee), ['3'], 'a signer without tabs sees only tabless documents');
  assert.equal(seesEveryDocument(e, ada), true);
  assert.equal(seesEveryDocument(e, bob), false);
  // A signer's own tabs win over their exclusion (tabs added after create, by createTabs).
  assert.deepEqual(ids(e, { ...bob, excludedDocuments: ['1', '3'] }), ['1']);
});

test('create refuses excluding a document with the recipient\'s tabs, or one that does not exist', () => {
  const docs = [doc('1'), doc('2')];
  const code = (r: Recipient) => {
    try {
      assertVisibility(docs, [r]);
      return 'ok';
    } catch (err) {
      return err instanceof EsignError ? err.code : String(err);
    }
  };
  assert.equal(code(who('x', 'signer', ['1'], ['1'])), 'CANNOT_EXCLUDE_DOCUMENT');
  assert.equal(code(who('x', 'signer', ['1'], ['7'])), 'DOCUMENT_DOES_NOT_EXIST');
  assert.equal(code(who('x', 'signer', ['1'], ['2'])), 'ok');
});
