import assert from 'node:assert/strict';
import { NO_BRANDS } from '../../../test/support/no-brands.ts';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { buildNotifier } from '../../mail/compose-notification.ts';
import { createEnvelope } from './create-envelope.ts';
import type { EnvelopeDraft, RecipientDraft } from './envelope-draft.ts';
import type { AnchorSpec, Envelope } from './envelope.ts';
import type { AnchorPlacement, EnvelopeChange, EnvelopeDeps, EnvelopeStore } from './ports.ts';
import { sendEnvelope } from './send-envelope.ts';
import { voidEnvelope } from './void-envelope.ts';
import { signHereTabs } from '../tabs/sign-here-tab.ts';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

/** An in-memory store with the same contract as the SQL one (version check on update). */
class MemoryStore implements EnvelopeStore {
  readonly envelopes = new Map<string, Envelope>();
  readonly changes: EnvelopeChange[] = [];
  create(change: EnvelopeChange): Promise<void> {
    this.envelopes.set(change.envelope.envelopeId, change.envelope);
    this.changes.push(change);
    return Promise.resolve();
  }
  update(change: EnvelopeChange): Promise<boolean> {
    const current = this.envelopes.get(change.envelope.envelopeId);
    if (current?.version !== change.envelope.version - 1) return Promise.resolve(false);
    this.envelopes.set(change.envelope.envelopeId, change.envelope);
    this.changes.push(change);
    return Promise.resolve(true);
  }
  find(accountId: string, envelopeId: string): Promise<Envelope | undefined> {
    const e = this.envelopes.get(envelopeId);
    return Promise.resolve(e?.accountId === accountId ? e : undefined);
  }
  list() {
    return Promise.resolve({ envelopes: [...this.envelopes.values()], totalSetSize: this.envelopes.size });
  }
  documentPdf(): Promise<Uint8Array | undefined> {
    return Promise.resolve(undefined);
  }
  relationOf(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}

/** US Letter in points, DocuSign's default page. */
const LETTER = { width: 612, height: 792 };

function harness(placements: Record<string, AnchorPlacement[]> = {}) {
  let n = 0;
  let now = new Date('2026-03-04T05:06:07.000Z');
  const store = new MemoryStore();
  const anchorCalls: AnchorSpec[] = [];
  const deps: EnvelopeDeps = {
    store,
    converter: {
      convert(d) {
        if (d.fileExtension === 'exe') return Promise.reject(new EsignError('FORMAT_CONVERSION_ERROR', `documentId ${d.documentId}`));
        return Promise.resolve({ pdf: new TextEncoder().encode(`%PDF ${d.name}`), pages: [LETTER, LETTER] });
      },
    },
    anchors: {
      find(pdfs, anchor) {
        assert.equal(pdfs.length > 0, true);
        anchorCalls.push(anchor);
        return Promise.resolve(placements[anchor.anchorString] ?? []);
      },
    },
    notifier: buildNotifier('https://esign.test'),
    brands: NO_BRANDS,
    accounts: { look: () => Promise.resolve({}) },
    clock: () => now,
    random: { uuid: () => `id-${++n}`, secretToken: () => `token-${++n}` },
    hashSecret: sha,
    hashBytes: sha,
    hashAccessCode: (code) => Promise.resolve(`test$${sha(code)}`),
  };
  return { deps, store, anchorCalls, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const ANCHOR: AnchorSpec = { anchorString: '/sn1/', units: 'pixels', xOffset: 20, yOffset: 10, ignoreIfNotPresent: false, caseSensitive: false, matchWholeWord: false, horizontalAlignment: 'left' };

function signer(recipientId: string, routingOrder: number, anchorString = '/sn1/'): RecipientDraft {
  return { type: 'signer', recipientId, email: `s${recipientId}@example.com`, name: `Signer ${recipientId}`, routingOrder, tabs: signHereTabs([{ anchor: { ...ANCHOR, anchorString }, optional: false }]) };
}

function draft(over: Partial<EnvelopeDraft> = {}): EnvelopeDraft {
  return {
    status: 'sent',
    emailSubject: 'Please sign',
    documents: [
      { documentId: '1', name: 'Order', fileExtension: 'html', bytes: new Uint8Array([1]) },
      { documentId: '2', name: 'Terms', fileExtension: 'pdf', bytes: new Uint8Array([2]) },
    ],
    recipients: [signer('1', 1), signer('2', 2, '/sn2/'), { type: 'carbonCopy', recipientId: '3', email: 'cc@example.com', name: 'Casey', routingOrder: 1, tabs: signHereTabs([]) }],
    ...over,
  };
}

const TWO_MATCHES = { '/sn1/': [{ documentIndex: 0, pageNumber: 1, xPosition: 100, yPosition: 200 }, { documentIndex: 1, pageNumber: 2, xPosition: 50, yPosition: 60 }], '/sn2/': [{ documentIndex: 1, pageNumber: 1, xPosition: 1, yPosition: 2 }] };

test('a sent envelope: one tab per anchor match, routing order 1 notified, tokens stored hashed', async () => {
  const h = harness(TWO_MATCHES);
  const envelope = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft() });
  assert.equal(envelope.status, 'sent');
  assert.equal(envelope.version, 1);
  const [s1, s2, cc] = envelope.recipients;
  assert.deepEqual(s1?.tabs.map((t) => [t.documentId, t.pageNumber, t.xPosition, t.yPosition]), [['1', 1, 100, 200], ['2', 2, 50, 60]]);
  assert.deepEqual([s1?.status, s2?.status, cc?.status], ['sent', 'created', 'completed']);
  const [change] = h.store.changes;
  assert.ok(change);
  assert.deepEqual(change.mails.map((m) => m.to.email).sort(), ['cc@example.com', 's1@example.com']);
  assert.equal(change.signingTokens.length, 1);
  const link = change.mails.find((m) => m.to.email === 's1@example.com')?.text.split('\n').find((l) => l.startsWith('https://esign.test/signing/'));
  assert.ok(link);
  const token = decodeURIComponent(link.slice('https://esign.test/signing/'.length));
  assert.equal(change.signingTokens[0]?.tokenHash, sha(token));
  assert.notEqual(change.signingTokens[0]?.tokenHash, token);
  assert.deepEqual(envelope.documents.map((d) => [d.documentId, d.order, d.pageCount, d.sha256]), [['1', 1, 2, sha('%PDF Order')], ['2', 2, 2, sha('%PDF Terms')]]);
});

test('a draft notifies nobody; sending it later reaches routing order 1 only', async () => {
  const h = harness(TWO_MATCHES);
  const created = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ status: 'created' }) });
  assert.equal(created.status, 'created');
  assert.equal(h.store.changes[0]?.mails.length, 0);
  h.advance(1000);
  const sent = await sendEnvelope(h.deps, 'acc', created.envelopeId);
  assert.equal(sent.status, 'sent');
  assert.equal(sent.version, 2);
  assert.equal(sent.sentAt?.toISOString(), '2026-03-04T05:06:08.000Z');
  assert.deepEqual(h.store.changes[1]?.mails.map((m) => m.to.email).sort(), ['cc@example.com', 's1@example.com']);
  await assert.rejects(sendEnvelope(h.deps, 'acc', created.envelopeId), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_INVALID_STATUS');
});

test('an envelope of carbon copies only has nobody left to wait for once sent: it goes on to completion', async () => {
  const h = harness();
  const copyOnly = draft({ recipients: [{ type: 'carbonCopy', recipientId: '1', email: 'cc@example.com', name: 'Casey', routingOrder: 1, tabs: signHereTabs([]) }] });
  const envelope = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: copyOnly });
  // 'signed' is the completion worker's input (signing-changes.ts does the same when the last signer finishes).
  assert.equal(envelope.status, 'signed');
  assert.deepEqual(envelope.recipients.map((r) => r.status), ['completed']);
  assert.deepEqual(h.store.changes[0]?.mails.map((m) => m.to.email), ['cc@example.com']);
});

test('voiding tells only the recipients already reached, with the reason', async () => {
  const h = harness(TWO_MATCHES);
  const created = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft() });
  const voided = await voidEnvelope(h.deps, 'acc', created.envelopeId, 'Wrong <terms>');
  assert.equal(voided.status, 'voided');
  assert.equal(voided.voidedReason, 'Wrong <terms>');
  const mails = h.store.changes[1]?.mails ?? [];
  assert.deepEqual(mails.map((m) => m.to.email).sort(), ['cc@example.com', 's1@example.com']);
  assert.ok(mails.every((m) => m.kind === 'envelope-voided' && m.text.includes('Reason: Wrong <terms>')));
  await assert.rejects(voidEnvelope(h.deps, 'acc', created.envelopeId, 'again'), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_CANNOT_VOID_INVALID_STATE');
});

test('a void needs a reason, and a draft cannot be voided', async () => {
  const h = harness(TWO_MATCHES);
  const sent = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft() });
  await assert.rejects(voidEnvelope(h.deps, 'acc', sent.envelopeId, '  '), (e: unknown) => e instanceof EsignError && e.code === 'INVALID_REQUEST_PARAMETER');
  const draftEnvelope = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ status: 'created' }) });
  await assert.rejects(voidEnvelope(h.deps, 'acc', draftEnvelope.envelopeId, 'x'), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_CANNOT_VOID_INVALID_STATE');
});

test('a missing anchor fails the whole envelope and stores nothing, unless ignoreIfNotPresent', async () => {
  const h = harness({ '/sn1/': TWO_MATCHES['/sn1/'] });
  await assert.rejects(createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft() }), (e: unknown) => e instanceof EsignError && e.code === 'ANCHOR_TAB_STRING_NOT_FOUND' && e.message.includes('/sn2/'));
  assert.equal(h.store.changes.length, 0);
  const lenient = draft();
  const recipients = lenient.recipients.map((r) => (r.recipientId === '2' ? { ...r, tabs: signHereTabs([{ anchor: { ...ANCHOR, anchorString: '/sn2/', ignoreIfNotPresent: true }, optional: false }]) } : r));
  const envelope = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: { ...lenient, recipients } });
  assert.deepEqual(envelope.recipients[1]?.tabs, []);
});

test('absolute tabs are checked against the document and its pages', async () => {
  const h = harness();
  const withTab = (tab: Record<string, unknown>) => draft({ recipients: [{ ...signer('1', 1), tabs: signHereTabs([{ optional: false, ...tab }]) }] });
  const ok = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: withTab({ documentId: '2', pageNumber: 2, xPosition: 72, yPosition: 144 }) });
  assert.deepEqual(ok.recipients[0]?.tabs.map((t) => [t.documentId, t.pageNumber, t.xPosition, t.yPosition, t.tab.type !== 'radioGroup' && t.tab.place.kind]), [['2', 2, 72, 144, 'absolute']]);
  await assert.rejects(createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: withTab({ documentId: '9', pageNumber: 1 }) }), (e: unknown) => e instanceof EsignError && e.code === 'TAB_REFERS_TO_MISSING_DOCUMENT');
  await assert.rejects(createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: withTab({ documentId: '1', pageNumber: 3 }) }), (e: unknown) => e instanceof EsignError && e.code === 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT');
  assert.equal(h.store.changes.length, 1);
});

test('sending needs documents and recipients; a conversion error stores nothing', async () => {
  const h = harness(TWO_MATCHES);
  await assert.rejects(createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ recipients: [] }) }), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_IS_INCOMPLETE');
  await assert.rejects(createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ documents: [] }) }), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_IS_INCOMPLETE');
  await assert.rejects(createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ documents: [{ documentId: '1', name: 'x', fileExtension: 'exe', bytes: new Uint8Array([1]) }] }) }), (e: unknown) => e instanceof EsignError && e.code === 'FORMAT_CONVERSION_ERROR');
  assert.equal(h.store.changes.length, 0);
});

test('envelopes of another account do not exist', async () => {
  const h = harness(TWO_MATCHES);
  const e = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ status: 'created' }) });
  await assert.rejects(sendEnvelope(h.deps, 'other', e.envelopeId), (err: unknown) => err instanceof EsignError && err.code === 'ENVELOPE_DOES_NOT_EXIST');
});

test('a concurrent change is retried on the fresh state', async () => {
  const h = harness(TWO_MATCHES);
  const e = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft({ status: 'created' }) });
  // Another instance sends it between our read and our write: our send must then fail as a duplicate send.
  const realUpdate = h.store.update.bind(h.store);
  let raced = false;
  h.store.update = async (change) => {
    if (!raced) {
      raced = true;
      const current = h.store.envelopes.get(e.envelopeId);
      if (current) h.store.envelopes.set(e.envelopeId, { ...current, status: 'sent', version: current.version + 1 });
    }
    return realUpdate(change);
  };
  await assert.rejects(sendEnvelope(h.deps, 'acc', e.envelopeId), (err: unknown) => err instanceof EsignError && err.code === 'ENVELOPE_INVALID_STATUS');
});

test('a tab off its page is refused at creation (TAB_OUT_OF_BOUNDS), absolute or pushed off by its anchor offset; nothing is stored', async () => {
  const offPage = { '/sn1/': [{ documentIndex: 1, pageNumber: 2, xPosition: 650, yPosition: 60 }], '/sn2/': TWO_MATCHES['/sn2/'] };
  const h = harness(offPage);
  await assert.rejects(
    createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: draft() }),
    (e: unknown) => e instanceof EsignError && e.code === 'TAB_OUT_OF_BOUNDS' && e.status === 400 && /recipientId 1 at anchor "\/sn1\/".*page 2 of documentId 2: \(650, 60\) on a page of 612 × 792/.test(e.message),
  );
  const withTab = (tab: Record<string, unknown>) => draft({ recipients: [{ ...signer('1', 1), tabs: signHereTabs([{ optional: false, ...tab }]) }] });
  for (const [x, y] of [[612, 10], [10, 792], [99999, 99999]]) {
    await assert.rejects(
      createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: withTab({ documentId: '1', pageNumber: 1, xPosition: x, yPosition: y }) }),
      (e: unknown) => e instanceof EsignError && e.code === 'TAB_OUT_OF_BOUNDS',
      `(${x}, ${y})`,
    );
  }
  assert.equal(h.store.changes.length, 0);
  // The last point on the page is still on it.
  const edge = await createEnvelope(h.deps, { accountId: 'acc', senderUserId: 'u', draft: withTab({ documentId: '1', pageNumber: 1, xPosition: 611.5, yPosition: 791.5 }) });
  assert.deepEqual(edge.recipients[0]?.tabs.map((t) => [t.xPosition, t.yPosition]), [[611.5, 791.5]]);
});
