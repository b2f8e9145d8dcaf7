import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import { AccountSettingsRepository } from '../../src/store/account-settings-repository.ts';
import { BrandsRepository } from '../../src/store/brands-repository.ts';
import { envelopesRepository } from '../support/store-envelope-deps.ts';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import type { Envelope } from '../../src/domain/envelope/envelope.ts';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import type { EnvelopeDeps } from '../../src/domain/envelope/ports.ts';
import { sendEnvelope } from '../../src/domain/envelope/send-envelope.ts';
import { voidEnvelope } from '../../src/domain/envelope/void-envelope.ts';
import { correctRecipients } from '../../src/domain/envelope/correct-recipients.ts';
import { deleteRecipients } from '../../src/domain/envelope/delete-recipients.ts';
import { buildNotifier } from '../../src/mail/compose-notification.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import type { DatabaseLocation, Db } from '../../src/store/index.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

async function setup(t: TestContext, location: DatabaseLocation) {
  const db: Db = await openMigrated(t, location);
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  let wakes = 0;
  const store = envelopesRepository(db, (w) => { if (w.mails > 0) wakes++; });
  const deps: EnvelopeDeps = {
    store,
    // The pdf package is exercised in the end-to-end test; here the bytes only have to round-trip.
    converter: { convert: (d) => Promise.resolve({ pdf: new TextEncoder().encode(`%PDF-1.7 ${d.name}`), pages: Array.from({ length: 3 }, () => ({ width: 612, height: 792 })) }) },
    anchors: { find: (_pdfs, anchor) => Promise.resolve(anchor.anchorString === '/sn1/' ? [{ documentIndex: 1, pageNumber: 3, xPosition: 101.25, yPosition: 650.5 }] : []) },
    notifier: buildNotifier('https://esign.test'),
    brands: new BrandsRepository(db),
    accounts: new AccountSettingsRepository(db),
    clock: clock.now,
    random: { uuid: randomUUID, secretToken: () => randomUUID() },
    hashSecret: sha,
    hashBytes: sha,
    hashAccessCode: (code) => Promise.resolve(`test$${sha(code)}`),
  };
  return { db, clock, store, deps, accountId: account.accountId, userId: account.userId, wakes: () => wakes };
}

const DRAFT = {
  status: 'sent' as const,
  emailSubject: 'Sign <please>',
  emailBlurb: 'Thanks',
  documents: [
    { documentId: '1', name: 'Order', fileExtension: 'html', bytes: new Uint8Array([1]) },
    { documentId: '2', name: 'Terms', fileExtension: 'pdf', bytes: new Uint8Array([2]) },
  ],
  recipients: [
    { type: 'signer' as const, recipientId: '1', email: 's1@example.com', name: 'One', routingOrder: 1, tabs: signHereTabs([
      { anchor: { anchorString: '/sn1/', units: 'pixels' as const, xOffset: 20, yOffset: 10, ignoreIfNotPresent: false, caseSensitive: false, matchWholeWord: false, horizontalAlignment: 'left' as const }, optional: false },
      { documentId: '1', pageNumber: 2, xPosition: 10, yPosition: 20, optional: true, tabLabel: 'abs' },
    ]) },
    { type: 'signer' as const, recipientId: '2', email: 's2@example.com', name: 'Two', routingOrder: 2, clientUserId: '1001', tabs: signHereTabs([]) },
    { type: 'carbonCopy' as const, recipientId: '3', email: 'cc@example.com', name: 'Copy', routingOrder: 1, tabs: signHereTabs([]) },
  ],
};

describe('envelopes repository', () => {
  const engines = bothEngines();

  for (const engine of engines) {
    test(`${engine.name}: an envelope round-trips with its documents, recipients, tabs, tokens and outbox mails`, async (t) => {
      const h = await setup(t, await engine.location(t));
      const created = await createEnvelope(h.deps, { accountId: h.accountId, senderUserId: h.userId, draft: DRAFT });
      const loaded = await h.store.find(h.accountId, created.envelopeId);
      assert.deepEqual(loaded, created);
      assert.equal(await h.store.find(randomUUID(), created.envelopeId), undefined, 'other accounts see nothing');
      assert.equal(Buffer.from((await h.store.documentPdf(h.accountId, created.envelopeId, '2')) ?? []).toString(), '%PDF-1.7 Terms');
      const mails = await new OutboxRepository(h.db).list();
      assert.deepEqual(mails.map((m) => m.recipient_email).sort(), ['cc@example.com', 's1@example.com']);
      assert.equal(h.wakes(), 1);
      const tokens = await h.db.kysely.selectFrom('signing_tokens' as never).selectAll().execute();
      assert.equal(tokens.length, 1);
      // The link's token is found by its hash, never stored in clear.
      const message = JSON.parse(mails.find((m) => m.recipient_email === 's1@example.com')?.message_json ?? '{}') as { text: string };
      const token = decodeURIComponent(/\/signing\/(\S+)/.exec(message.text)?.[1] ?? '');
      assert.notEqual(token, '');
      assert.ok(!JSON.stringify(tokens).includes(token));
      assert.deepEqual(await h.store.findSigningToken(sha(token)), { envelopeId: created.envelopeId, accountId: h.accountId, recipientId: '1', purpose: 'signing', createdAt: created.statusChangedAt });
      assert.equal(await h.store.findSigningToken(sha('guess')), undefined);
    });

    test(`${engine.name}: two concurrent sends of one draft: one sends, one is refused, mails go out once`, async (t) => {
      const location = await engine.location(t);
      const h = await setup(t, location);
      // PostgreSQL: a second pool, as a second instance has. SQLite: the same handle, as two
      // requests in one instance share it (better-sqlite3 waits for a file lock synchronously,
      // so two handles in one process would block each other's event loop; across processes
      // the store's BEGIN IMMEDIATE serializes them, see store/database.ts).
      const other = envelopesRepository(engine.name === 'postgres' ? await openMigrated(t, location) : h.db);
      const draft = await createEnvelope(h.deps, { accountId: h.accountId, senderUserId: h.userId, draft: { ...DRAFT, status: 'created' } });
      const results = await Promise.allSettled([sendEnvelope(h.deps, h.accountId, draft.envelopeId), sendEnvelope({ ...h.deps, store: other }, h.accountId, draft.envelopeId)]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected');
      assert.equal((refused?.reason as { code?: string }).code, 'ENVELOPE_INVALID_STATUS');
      assert.equal((await new OutboxRepository(h.db).list()).length, 2);
    });

    test(`${engine.name}: updates are version-checked; send and void write their mails in the same transaction`, async (t) => {
      const h = await setup(t, await engine.location(t));
      const draft = await createEnvelope(h.deps, { accountId: h.accountId, senderUserId: h.userId, draft: { ...DRAFT, status: 'created' } });
      assert.equal(await h.store.update(envelopeWrite(draft, { envelope: { ...draft, status: 'sent', version: 5 }, signingTokens: [], mails: [] })), false);
      h.clock.advance(5);
      const sent = await sendEnvelope(h.deps, h.accountId, draft.envelopeId);
      assert.deepEqual(await h.store.find(h.accountId, draft.envelopeId), sent);
      assert.equal((await new OutboxRepository(h.db).list()).length, 2);
      h.clock.advance(5);
      const voided = await voidEnvelope(h.deps, h.accountId, draft.envelopeId, 'Changed');
      const loaded = await h.store.find(h.accountId, draft.envelopeId);
      assert.equal(loaded?.status, 'voided');
      assert.equal(loaded?.voidedReason, 'Changed');
      assert.deepEqual(loaded, voided);
      assert.deepEqual((await new OutboxRepository(h.db).list()).map((m) => m.kind).sort(), ['envelope-sent', 'envelope-sent', 'envelope-voided', 'envelope-voided']);
    });

    test(`${engine.name}: a failure inside the write leaves nothing behind`, async (t) => {
      const h = await setup(t, await engine.location(t));
      const created = await createEnvelope(h.deps, { accountId: h.accountId, senderUserId: h.userId, draft: DRAFT });
      const broken: Envelope = { ...created, envelopeId: randomUUID() };
      // The second document's PDF is missing: the envelope row and first document were already written.
      await assert.rejects(h.store.create(envelopeWrite(undefined, { envelope: broken, signingTokens: [], mails: [] }), new Map([['1', new Uint8Array([1])]])));
      assert.equal(await h.store.find(h.accountId, broken.envelopeId), undefined);
      const docs = await h.db.kysely.selectFrom('envelope_documents' as never).selectAll().execute();
      assert.equal(docs.length, 2, 'only the first envelope’s documents');
    });

    test(`${engine.name}: a corrected address revokes the recipient's links, views, sessions and grants in the change; a deleted recipient leaves no row behind`, async (t) => {
      const h = await setup(t, await engine.location(t));
      const created = await createEnvelope(h.deps, { accountId: h.accountId, senderUserId: h.userId, draft: DRAFT });
      const k = h.db.kysely;
      const later = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
      const ways = { envelope_id: created.envelopeId, recipient_id: '1', created_at: h.clock.now().toISOString(), expires_at: later };
      await k.insertInto('recipient_views').values({ ...ways, token_hash: 'view-1', return_url: 'https://app.example/', consumed_at: null }).execute();
      await k.insertInto('signing_sessions').values({ ...ways, token_hash: 'session-1', return_url: 'https://app.example/' }).execute();
      await k.insertInto('signing_access_grants').values({ ...ways, token_hash: 'grant-1' }).execute();
      const corrected = await correctRecipients(h.deps, h.accountId, created.envelopeId, [{ recipientId: '1', type: 'signer', email: 'moved@example.com' }]);
      assert.deepEqual(corrected, [{ recipientId: '1', recipientIdGuid: created.recipients[0]?.recipientIdGuid }]);
      const count = async (table: 'signing_tokens' | 'recipient_views' | 'signing_sessions' | 'signing_access_grants') => (await k.selectFrom(table).select('recipient_id').where('envelope_id', '=', created.envelopeId).where('recipient_id', '=', '1').execute()).length;
      assert.deepEqual([await count('signing_tokens'), await count('recipient_views'), await count('signing_sessions'), await count('signing_access_grants')], [1, 0, 0, 0], 'only the fresh link is left');
      assert.equal((await h.store.find(h.accountId, created.envelopeId))?.recipients[0]?.email, 'moved@example.com');

      // Recipient 2's passcode row (as a create with smsAuthentication writes it) goes with them.
      await k.insertInto('recipient_passcodes').values({ envelope_id: created.envelopeId, recipient_id: '2', method: 'sms', destinations_json: '["+15550100"]', failures: 0, sends: 0, locked_at: null, code_hash: null, code_expires_at: null }).execute();
      await deleteRecipients(h.deps, h.accountId, created.envelopeId, [{ recipientId: '2' }]);
      const left = await h.store.find(h.accountId, created.envelopeId);
      assert.deepEqual(left?.recipients.map((r) => r.recipientId), ['1', '3']);
      for (const table of ['envelope_recipients', 'envelope_tabs', 'recipient_access_codes', 'recipient_passcodes', 'adopted_signatures', 'signing_tokens'] as const) {
        assert.equal((await k.selectFrom(table).select('recipient_id').where('envelope_id', '=', created.envelopeId).where('recipient_id', '=', '2').execute()).length, 0, table);
      }
    });

    test(`${engine.name}: listStatusChanges filters by date, status and ids, and pages`, async (t) => {
      const h = await setup(t, await engine.location(t));
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        h.clock.advance(60);
        ids.push((await createEnvelope(h.deps, { accountId: h.accountId, senderUserId: h.userId, draft: { ...DRAFT, status: i % 2 ? 'sent' : 'created' } })).envelopeId);
      }
      const all = await h.store.list(h.accountId, { fromDate: new Date(0), startPosition: 0, count: 100 });
      assert.deepEqual(all.envelopes.map((e) => e.envelopeId), ids);
      const sent = await h.store.list(h.accountId, { fromDate: new Date(0), statuses: ['sent'], startPosition: 0, count: 100 });
      assert.deepEqual(sent.envelopes.map((e) => e.envelopeId), [ids[1], ids[3]]);
      const page = await h.store.list(h.accountId, { fromDate: new Date(0), startPosition: 1, count: 2 });
      assert.deepEqual([page.envelopes.map((e) => e.envelopeId), page.totalSetSize], [[ids[1], ids[2]], 5]);
      const later = await h.store.list(h.accountId, { fromDate: all.envelopes[3]?.statusChangedAt ?? new Date(), startPosition: 0, count: 100 });
      assert.deepEqual(later.envelopes.map((e) => e.envelopeId), [ids[3], ids[4]]);
      const byId = await h.store.list(h.accountId, { envelopeIds: [ids[4] ?? '', 'nope'], startPosition: 0, count: 100 });
      assert.deepEqual(byId.envelopes.map((e) => e.envelopeId), [ids[4]]);
      assert.equal((await h.store.list(randomUUID(), { fromDate: new Date(0), startPosition: 0, count: 100 })).totalSetSize, 0);
      // order=desc: the newest first, and paging walks back from the newest.
      const newest = await h.store.list(h.accountId, { fromDate: new Date(0), startPosition: 0, count: 2, order: 'desc' });
      assert.deepEqual([newest.envelopes.map((e) => e.envelopeId), newest.totalSetSize], [[ids[4], ids[3]], 5]);
      const older = await h.store.list(h.accountId, { fromDate: new Date(0), startPosition: 2, count: 2, order: 'desc' });
      assert.deepEqual(older.envelopes.map((e) => e.envelopeId), [ids[2], ids[1]]);
    });
  }
});
