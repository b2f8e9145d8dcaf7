import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope } from '../../domain/envelope/envelope.ts';
import { EsignError } from '../../errors.ts';
import { toDocuSignDateTime } from '../../wire/docusign-date-time.ts';
import { parseEnvelopeUpdate } from './parse-envelope-update.ts';
import { parseStatusChangesQuery } from './parse-status-changes-query.ts';
import { toWireEnvelope, toWireEnvelopeSummary, toWireRecipients } from '../../wire/to-wire-envelope.ts';
import { signHereTab } from '../../domain/tabs/sign-here-tab.ts';

const T = new Date('2026-11-21T19:15:18.747Z');
const ENVELOPE: Envelope = {
  envelopeId: 'e1', accountId: 'a1', senderUserId: 'u1', status: 'sent', emailSubject: 'S', createdAt: T, statusChangedAt: T, sentAt: T, version: 2,
  documents: [{ documentId: '1', name: 'Doc', fileExtension: 'html', order: 1, pageCount: 3, sha256: 'ab' }],
  recipients: [
    { recipientId: '2', recipientIdGuid: 'g2', type: 'carbonCopy', email: 'cc@example.com', name: 'CC', routingOrder: 2, status: 'created', tabs: [] },
    { recipientId: '1', recipientIdGuid: 'g1', type: 'signer', email: 's@example.com', name: 'S', routingOrder: 1, status: 'sent', sentAt: T, tabs: [
      { tabId: 't1', recipientId: '1', documentId: '1', pageNumber: 2, xPosition: 120.5, yPosition: 300, value: '', tab: signHereTab({ anchor: { anchorString: '/sn1/', units: 'pixels', xOffset: 20, yOffset: -5, ignoreIfNotPresent: false, caseSensitive: false, matchWholeWord: true, horizontalAlignment: 'left' } }) },
    ] },
  ],
};

/** Every scalar in a wire body must be a string; no null anywhere (docs/esign-envelopes.md, "Routes"). */
function assertWireClean(value: unknown, path = '$'): void {
  assert.notEqual(value, null, `${path} is null`);
  if (Array.isArray(value)) value.forEach((v, i) => assertWireClean(v, `${path}[${i}]`));
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value as object)) assertWireClean(v, `${path}.${k}`);
  else assert.equal(typeof value, 'string', `${path} is ${typeof value}`);
}

test('DocuSign timestamps have seven fractional digits', () => {
  assert.equal(toDocuSignDateTime(T), '2026-11-21T19:15:18.7470000Z');
});

test('the summary is what CreateEnvelope answers', () => {
  assert.deepEqual(toWireEnvelopeSummary(ENVELOPE), { envelopeId: 'e1', uri: '/envelopes/e1', statusDateTime: '2026-11-21T19:15:18.7470000Z', status: 'sent' });
});

test('envelopes and recipients: strings only, no nulls, every list present, tabs resolved', () => {
  const wire = toWireEnvelope(ENVELOPE, { recipients: true, documents: true, tabs: true });
  assertWireClean(wire);
  assert.deepEqual(wire.recipients?.signers.map((s) => s.recipientId), ['1']);
  assert.deepEqual(wire.recipients?.agents, []);
  assert.equal(wire.recipients?.currentRoutingOrder, '1');
  assert.deepEqual(wire.recipients?.signers[0]?.tabs?.signHereTabs?.[0], {
    tabId: 't1', tabType: 'signhere', recipientId: '1', recipientIdGuid: 'g1', documentId: '1', pageNumber: '2', xPosition: '120.5', yPosition: '300', optional: 'false',
    anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '-5', anchorIgnoreIfNotPresent: 'false', anchorCaseSensitive: 'false', anchorMatchWholeWord: 'true', anchorHorizontalAlignment: 'left',
  });
  assert.equal(wire.recipients?.carbonCopies[0]?.recipientType, 'carboncopy');
  assert.equal(wire.recipients?.carbonCopies[0]?.tabs, undefined);
  assert.deepEqual(wire.envelopeDocuments?.[0], { documentId: '1', name: 'Doc', type: 'content', uri: '/envelopes/e1/documents/1', order: '1', pages: [{ sequence: '1' }, { sequence: '2' }, { sequence: '3' }], display: 'inline', includeInDownload: 'true', signerMustAcknowledge: 'no_interaction', authoritativeCopy: 'false' });
  assert.equal(toWireEnvelope(ENVELOPE).recipients, undefined);
  assert.equal(toWireRecipients(ENVELOPE, false).signers[0]?.tabs, undefined);
});

test('listStatusChanges needs from_date, envelope_ids or transaction_ids', () => {
  assert.throws(() => parseStatusChangesQuery({}), (e: unknown) => e instanceof EsignError && e.code === 'INVALID_REQUEST_PARAMETER' && e.message.includes("'from_date' must be set"));
  assert.throws(() => parseStatusChangesQuery({ from_date: 'yesterday' }), (e: unknown) => e instanceof EsignError && e.message.includes('from_date'));
  assert.throws(() => parseStatusChangesQuery({ from_date: '2025-01-01', count: '0' }), (e: unknown) => e instanceof EsignError && e.message.includes("'count'"));
  assert.throws(() => parseStatusChangesQuery({ from_date: '2025-01-01', status: 'sent,lost' }), (e: unknown) => e instanceof EsignError && e.message.includes('"lost"'));
  assert.deepEqual(parseStatusChangesQuery({ from_date: '2025-01-01T00:00:00.000Z', status: 'sent,Delivered', count: '10' }), {
    fromDate: new Date('2025-01-01T00:00:00.000Z'), statuses: ['sent', 'delivered'], startPosition: 0, count: 10,
  });
  assert.deepEqual(parseStatusChangesQuery({ envelope_ids: 'a, b', status: 'any' }), { envelopeIds: ['a', 'b'], startPosition: 0, count: 100 });
});

test('envelope updates: send, void with a reason, {} is a no-op', () => {
  assert.deepEqual(parseEnvelopeUpdate({}), { action: 'none' });
  assert.deepEqual(parseEnvelopeUpdate({ status: 'sent' }), { action: 'send' });
  assert.deepEqual(parseEnvelopeUpdate({ status: 'voided', voidedReason: 'Sent by mistake' }), { action: 'void', voidedReason: 'Sent by mistake' });
  assert.throws(() => parseEnvelopeUpdate({ status: 'voided' }), (e: unknown) => e instanceof EsignError && e.code === 'INVALID_REQUEST_PARAMETER' && e.message.includes('voidedReason'));
  assert.throws(() => parseEnvelopeUpdate({ status: 'completed' }), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_INVALID_STATUS');
});
