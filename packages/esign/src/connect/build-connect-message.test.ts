import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import type { Envelope } from '../domain/envelope/envelope.ts';
import { buildConnectMessage, connectBody, withDocumentBytes } from './build-connect-message.ts';
import { connectSignatures } from './connect-signatures.ts';
import type { EventSubscription } from '../domain/connect/event-subscription.ts';
import { DEFAULT_FONT } from '../domain/tabs/parse-tab-font.ts';

const ENVELOPE: Envelope = {
  envelopeId: 'e1', accountId: 'a1', senderUserId: 'u1', status: 'sent', emailSubject: 'Lease',
  createdAt: new Date('2026-11-21T10:00:00Z'), statusChangedAt: new Date('2026-11-21T10:00:00Z'), sentAt: new Date('2026-11-21T10:00:00Z'),
  documents: [{ documentId: '1', name: 'Lease', fileExtension: 'pdf', order: 1, pageCount: 1, sha256: 'ab' }],
  recipients: [{ recipientId: '1', recipientIdGuid: 'g1', type: 'signer', email: 'tess@example.com', name: 'Tess', routingOrder: 1, status: 'sent', tabs: [] }],
  version: 1,
};
const SUB: EventSubscription = { url: 'https://h.example/', events: ['recipient-sent'], includeHMAC: true, includeDocuments: false, includeData: [], requireAcknowledgment: true };
const NOW = new Date('2026-11-21T10:00:01.234Z');

test('a SIM message: DocuSign field order, numeric configurationId and retryCount, no summary unless asked', () => {
  const message = buildConnectMessage({ envelope: ENVELOPE, occurrence: { event: 'recipient-sent', recipientId: '1' }, subscription: SUB, configurationId: '7654321', now: NOW });
  assert.equal(connectBody(message, 2), JSON.stringify({
    event: 'recipient-sent', apiVersion: 'v2.1', uri: '/restapi/v2.1/accounts/a1/envelopes/e1', retryCount: 2, configurationId: 7654321,
    generatedDateTime: '2026-11-21T10:00:01.2340000Z', data: { accountId: 'a1', userId: 'u1', envelopeId: 'e1', recipientId: '1' },
  }));
});

test('includeData asks for the envelope summary in the REST Envelope shape (strings, no nulls)', () => {
  const message = buildConnectMessage({ envelope: ENVELOPE, occurrence: { event: 'envelope-sent' }, subscription: { ...SUB, includeData: ['recipients'] }, configurationId: '0', now: NOW });
  const summary = message.data.envelopeSummary as { envelopeId: string; status: string; recipients: { signers: { email: string; status: string }[] } };
  assert.equal(summary.envelopeId, 'e1');
  assert.equal(summary.status, 'sent');
  assert.equal(summary.recipients.signers[0]?.email, 'tess@example.com');
  assert.equal('recipientId' in message.data, false);
  assert.doesNotMatch(JSON.stringify(summary), /null/);
});

test('X-DocuSign-Signature-N: base64 HMAC-SHA256 of the raw body, one per key in order, with the digest and account headers DocuSign sends', () => {
  const body = '{"event":"envelope-sent"}';
  const headers = connectSignatures(['first-key', 'second-key'], body, 'acc-1');
  // DocuSign's own listener samples refuse a message whose X-Authorization-Digest is not HMACSHA256.
  assert.deepEqual(Object.keys(headers), ['x-authorization-digest', 'x-docusign-accountid', 'x-docusign-signature-1', 'x-docusign-signature-2']);
  assert.equal(headers['x-authorization-digest'], 'HMACSHA256');
  assert.equal(headers['x-docusign-accountid'], 'acc-1');
  // An independent computation, as a listener would do it.
  assert.equal(headers['x-docusign-signature-1'], createHmac('sha256', 'first-key').update(Buffer.from(body)).digest('base64'));
  assert.equal(headers['x-docusign-signature-2'], createHmac('sha256', 'second-key').update(Buffer.from(body)).digest('base64'));
  assert.notEqual(connectSignatures(['first-key'], `${body} `, 'acc-1')['x-docusign-signature-1'], headers['x-docusign-signature-1']);
  // No active key: the message goes unsigned, with none of the HMAC headers.
  assert.deepEqual(connectSignatures([], body, 'acc-1'), {});
});

test('includeDocuments: each summary document gets its PDFBytes; an unknown document keeps none', async () => {
  const message = buildConnectMessage({ envelope: ENVELOPE, occurrence: { event: 'envelope-sent' }, subscription: { ...SUB, includeDocuments: true }, configurationId: '0', now: NOW });
  const filled = await withDocumentBytes(message, (id) => Promise.resolve(id === '1' ? new Uint8Array([37, 80, 68, 70]) : undefined));
  const docs = (filled.data.envelopeSummary as { envelopeDocuments: { documentId: string; PDFBytes?: string }[] }).envelopeDocuments;
  assert.deepEqual(docs.map((d) => [d.documentId, d.PDFBytes]), [['1', Buffer.from('%PDF').toString('base64')]]);
  assert.equal('PDFBytes' in ((message.data.envelopeSummary as { envelopeDocuments: object[] }).envelopeDocuments[0] ?? {}), false, 'the stored message is not changed');
  const none = await withDocumentBytes(message, () => Promise.resolve(undefined));
  assert.deepEqual(none, message);
  const noSummary = buildConnectMessage({ envelope: ENVELOPE, occurrence: { event: 'envelope-sent' }, subscription: SUB, configurationId: '0', now: NOW });
  assert.equal(await withDocumentBytes(noSummary, () => Promise.reject(new Error('not asked'))), noSummary);
});

test('includeData tabs: each signer\'s tabs (a text, a checkbox) with their current values in the summary; every type\'s wire shape is to-wire-tabs.test.ts\'s', () => {
  const tab = (type: 'text' | 'checkbox', tabLabel: string) => type === 'text'
    ? { type, tabLabel, required: true, locked: false, place: { kind: 'absolute' as const, documentId: '1', pageNumber: 1, xPosition: 10, yPosition: 20 }, font: DEFAULT_FONT, value: '', maxLength: 4000 }
    : { type, tabLabel, required: false, locked: false, place: { kind: 'absolute' as const, documentId: '1', pageNumber: 1, xPosition: 10, yPosition: 40 }, font: DEFAULT_FONT, selected: false };
  const spot = { documentId: '1', pageNumber: 1, xPosition: 10, yPosition: 20 };
  const signer = { ...ENVELOPE.recipients[0]!, tabs: [{ ...spot, tabId: 't1', recipientId: '1', tab: tab('text', 'Name'), value: 'Tess T.' }, { ...spot, tabId: 't2', recipientId: '1', tab: tab('checkbox', 'Terms'), value: 'true' }] };
  const message = buildConnectMessage({ envelope: { ...ENVELOPE, recipients: [signer] }, occurrence: { event: 'envelope-sent' }, subscription: { ...SUB, includeData: ['tabs'] }, configurationId: '0', now: NOW });
  const tabs = (message.data.envelopeSummary as { recipients: { signers: { tabs: Record<string, { tabLabel: string; value?: string; selected?: string }[]> }[] } }).recipients.signers[0]?.tabs;
  assert.deepEqual(tabs?.textTabs?.map((x) => [x.tabLabel, x.value]), [['Name', 'Tess T.']]);
  assert.deepEqual(tabs?.checkboxTabs?.map((x) => [x.tabLabel, x.selected]), [['Terms', 'true']]);
});

test('includeData custom_fields puts the envelope custom fields in the summary, as DocuSign sends them; not asked, not sent', () => {
  const envelope: Envelope = { ...ENVELOPE, customFields: [{ fieldId: '1', kind: 'text', name: 'Order', value: '42', show: true, required: false }, { fieldId: '2', kind: 'list', name: 'Region', value: 'EU', show: false, required: true, listItems: ['EU', 'US'] }] };
  const message = buildConnectMessage({ envelope, occurrence: { event: 'envelope-sent' }, subscription: { ...SUB, includeData: ['custom_fields'] }, configurationId: '0', now: NOW });
  const summary = message.data.envelopeSummary as { customFields: unknown };
  assert.deepEqual(summary.customFields, {
    textCustomFields: [{ fieldId: '1', name: 'Order', value: '42', show: 'true', required: 'false' }],
    listCustomFields: [{ fieldId: '2', name: 'Region', value: 'EU', show: 'false', required: 'true', listItems: ['EU', 'US'] }],
  });
  const recipientsOnly = buildConnectMessage({ envelope, occurrence: { event: 'envelope-sent' }, subscription: { ...SUB, includeData: ['recipients'] }, configurationId: '0', now: NOW });
  assert.equal('customFields' in (recipientsOnly.data.envelopeSummary as object), false);
});

test('a certified delivery is in the summary under certifiedDeliveries, with its DocuSign recipientType', () => {
  const certified = { recipientId: '2', recipientIdGuid: 'g2', type: 'certifiedDelivery' as const, email: 'cal@example.com', name: 'Cal', routingOrder: 2, status: 'completed' as const, tabs: [] };
  const message = buildConnectMessage({ envelope: { ...ENVELOPE, recipients: [...ENVELOPE.recipients, certified] }, occurrence: { event: 'recipient-completed', recipientId: '2' }, subscription: { ...SUB, includeData: ['recipients'] }, configurationId: '0', now: NOW });
  const summary = message.data.envelopeSummary as { recipients: { signers: unknown[]; certifiedDeliveries: { email: string; recipientType: string; status: string }[] } };
  assert.deepEqual(summary.recipients.certifiedDeliveries.map((r) => [r.email, r.recipientType, r.status]), [['cal@example.com', 'certifieddelivery', 'completed']]);
  assert.equal(summary.recipients.signers.length, 1);
  assert.equal(message.data.recipientId, '2');
});

test('agents, editors and intermediaries are in the summary under their own lists, with what a manager changed', () => {
  const base = { tabs: [], status: 'completed' as const, routingOrder: 1 };
  const managers = [
    { ...base, recipientId: '5', recipientIdGuid: 'g5', type: 'agent' as const, email: 'ada@example.com', name: 'Ada' },
    { ...base, recipientId: '6', recipientIdGuid: 'g6', type: 'editor' as const, email: 'eda@example.com', name: 'Eda' },
    { ...base, recipientId: '7', recipientIdGuid: 'g7', type: 'intermediary' as const, email: 'ida@example.com', name: 'Ida' },
  ];
  const changed = { ...ENVELOPE.recipients[0]!, email: 'filled-by-agent@example.com', agentCanEditEmail: true };
  const message = buildConnectMessage({ envelope: { ...ENVELOPE, recipients: [changed, ...managers] }, occurrence: { event: 'recipient-completed', recipientId: '5' }, subscription: { ...SUB, includeData: ['recipients'] }, configurationId: '0', now: NOW });
  const summary = message.data.envelopeSummary as { recipients: Record<'signers' | 'agents' | 'editors' | 'intermediaries', { email: string; recipientType: string; status: string; agentCanEditEmail?: string }[]> };
  assert.deepEqual([summary.recipients.agents, summary.recipients.editors, summary.recipients.intermediaries].map((l) => l.map((r) => [r.email, r.recipientType, r.status])), [[['ada@example.com', 'agent', 'completed']], [['eda@example.com', 'editor', 'completed']], [['ida@example.com', 'intermediary', 'completed']]]);
  assert.deepEqual([summary.recipients.signers[0]?.email, summary.recipients.signers[0]?.agentCanEditEmail], ['filled-by-agent@example.com', 'true']);
});

test('a witness is in the summary under witnesses, with its recipientType and the signer it witnesses', () => {
  const witness = { recipientId: '3', recipientIdGuid: 'g3', type: 'witness' as const, witnessFor: '1', email: 'wes@example.com', name: 'Wes', routingOrder: 2, status: 'completed' as const, tabs: [] };
  const message = buildConnectMessage({ envelope: { ...ENVELOPE, recipients: [...ENVELOPE.recipients, witness] }, occurrence: { event: 'recipient-completed', recipientId: '3' }, subscription: { ...SUB, includeData: ['recipients'] }, configurationId: '0', now: NOW });
  const summary = message.data.envelopeSummary as { recipients: { signers: unknown[]; witnesses: { email: string; recipientType: string; witnessFor: string; status: string }[] } };
  assert.deepEqual(summary.recipients.witnesses.map((r) => [r.email, r.recipientType, r.witnessFor, r.status]), [['wes@example.com', 'witness', '1', 'completed']]);
  assert.equal(summary.recipients.signers.length, 1);
});
