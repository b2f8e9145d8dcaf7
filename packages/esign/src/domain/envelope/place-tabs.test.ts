import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseTabs } from '../tabs/parse-tabs.ts';
import { editableSigner } from './edit-envelope-tabs.ts';
import type { Envelope, Recipient } from './envelope.ts';
import { placeTabs, type PlacingContext } from './place-tabs.ts';
import type { AnchorPlacement } from './ports.ts';

const LETTER = { width: 612, height: 792 };

function context(matches: Record<string, AnchorPlacement[]>): PlacingContext {
  let n = 0;
  return {
    deps: { anchors: { find: (_pdfs, anchor) => Promise.resolve(matches[anchor.anchorString] ?? []) }, random: { uuid: () => `id-${++n}`, secretToken: () => 'x' } },
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', order: 1, pageCount: 2, sha256: 'ab' }],
    pdfs: [new Uint8Array()],
    pageSizes: [[LETTER, LETTER]],
  };
}
const parse = (tabs: unknown) => parseTabs(new WireReader('tabs', tabs), { recipientId: '1' });
const refused = (code: string, pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === code && pattern.test(e.message);
const hit = (pageNumber: number, x: number, y: number): AnchorPlacement => ({ documentIndex: 0, pageNumber, xPosition: x, yPosition: y });

test('one placed tab per anchor match, each with its own tabId; values start as the sender set them', async () => {
  const tabs = parse({ textTabs: [{ anchorString: '/name/', value: 'Ada' }], checkboxTabs: [{ documentId: '1', pageNumber: '2', xPosition: '10', yPosition: '20', selected: 'true' }] });
  const placed = await placeTabs(context({ '/name/': [hit(1, 100, 100), hit(2, 50, 60)] }), tabs, '1');
  assert.deepEqual(placed.map((t) => [t.tabId, t.tab.type, t.documentId, t.pageNumber, t.xPosition, t.yPosition, t.value]), [
    ['id-1', 'text', '1', 1, 100, 100, 'Ada'], ['id-2', 'text', '1', 2, 50, 60, 'Ada'], ['id-3', 'checkbox', '1', 2, 10, 20, 'true'],
  ]);
});

test('anchors that match many times cannot carry a recipient past 200 placed tabs', async () => {
  // One anchor tab becomes a tab per match: a document that repeats its anchor would otherwise
  // give one recipient thousands of tabs, past the bound the parser keeps on the request.
  const many = Array.from({ length: 201 }, (_, i) => hit(1 + (i % 2), 10, 10 + (i % 70) * 10));
  await assert.rejects(placeTabs(context({ '/x/': many }), parse({ textTabs: [{ anchorString: '/x/' }] }), '1'), refused('INVALID_REQUEST_BODY', /recipientId 1 .*201 tabs.*at most 200/));
  assert.equal((await placeTabs(context({ '/x/': many.slice(0, 200) }), parse({ textTabs: [{ anchorString: '/x/' }] }), '1')).length, 200);
});

test('radios are placed one by one: an anchor must match once; a missing one with ignoreIfNotPresent leaves the group', async () => {
  const group = (radios: unknown[]) => parse({ radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios }] });
  const [placed] = await placeTabs(context({ '/pro/': [hit(2, 300, 400)] }), group([{ pageNumber: '1', xPosition: '10', yPosition: '10', value: 'basic' }, { anchorString: '/pro/', value: 'pro', selected: 'true' }]), '1');
  assert.deepEqual(placed?.radios?.map((r) => [r.pageNumber, r.xPosition, r.yPosition]), [[1, 10, 10], [2, 300, 400]]);
  assert.deepEqual([placed?.pageNumber, placed?.xPosition, placed?.value], [1, 10, 'pro']);
  assert.equal(new Set([placed?.tabId, ...(placed?.radios ?? []).map((r) => r.tabId)]).size, 3);
  await assert.rejects(placeTabs(context({ '/pro/': [hit(1, 1, 1), hit(2, 2, 2)] }), group([{ anchorString: '/pro/', value: 'pro' }]), '1'), refused('INVALID_REQUEST_BODY', /matches 2 places/));
  const [dropped] = await placeTabs(context({}), group([{ pageNumber: '1', xPosition: '10', yPosition: '10', value: 'basic' }, { anchorString: '/pro/', anchorIgnoreIfNotPresent: 'true', value: 'pro', selected: 'true' }]), '1');
  assert.ok(dropped?.tab.type === 'radioGroup');
  assert.deepEqual([dropped.tab.radios.map((r) => r.value), dropped.radios?.length, dropped.value], [['basic'], 1, '']);
  assert.deepEqual(await placeTabs(context({}), group([{ anchorString: '/pro/', anchorIgnoreIfNotPresent: 'true', value: 'pro' }]), '1'), []);
  await assert.rejects(placeTabs(context({}), group([{ pageNumber: '3', xPosition: '10', yPosition: '10', value: 'basic' }]), '1'), refused('TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT', /radio "basic"/));
});

test('tabs change until their recipient signs, on an envelope that is not finished; a carbon copy has none', () => {
  const T = new Date('2026-11-21T10:00:00Z');
  const recipient = (status: Recipient['status'], type: Recipient['type'] = 'signer'): Recipient => ({ recipientId: '1', recipientIdGuid: 'g', type, email: 'a@example.com', name: 'A', routingOrder: 1, status, tabs: [] });
  const envelope = (status: Envelope['status'], r: Recipient): Envelope => ({ envelopeId: 'e', accountId: 'a', senderUserId: 'u', status, emailSubject: 'S', createdAt: T, statusChangedAt: T, version: 1, documents: [], recipients: [r] });
  for (const status of ['created', 'sent', 'delivered'] as const) assert.equal(editableSigner(envelope('sent', recipient(status)), '1').recipientId, '1');
  assert.throws(() => editableSigner(envelope('sent', recipient('signed')), '1'), refused('INVALID_TAB_OPERATION', /has signed/));
  assert.throws(() => editableSigner(envelope('sent', recipient('declined')), '1'), refused('INVALID_TAB_OPERATION', /has declined/));
  assert.throws(() => editableSigner(envelope('voided', recipient('sent')), '1'), refused('INVALID_TAB_OPERATION', /voided/));
  assert.throws(() => editableSigner(envelope('sent', recipient('sent', 'carbonCopy')), '1'), refused('INVALID_TAB_OPERATION', /carbon copy/));
  assert.throws(() => editableSigner(envelope('sent', recipient('sent')), '2'), refused('UNKNOWN_ENVELOPE_RECIPIENT', /"2"/));
});
