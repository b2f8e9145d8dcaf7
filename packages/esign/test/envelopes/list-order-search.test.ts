import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import type { EnvelopeDraft } from '../../src/domain/envelope/envelope-draft.ts';
import type { EnvelopeQuery } from '../../src/domain/envelope/ports.ts';
import { API_DEFAULT_SETTINGS } from '../../src/domain/notification/envelope-notification.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import type { DatabaseLocation } from '../../src/store/index.ts';
import { foldAscii } from '../../src/store/envelope-list-sql.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import type { PostgresCluster } from '../support/postgres-cluster.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';

/**
 * A PostgreSQL database whose default collation is ICU's English one, as a production database
 * created with en_US would be: there "éclair" sorts before "fig", while SQLite (binary) puts it
 * after. The machine's own locales are C only, which would hide a missing collation pin.
 */
async function icuPostgres(cluster: PostgresCluster): Promise<DatabaseLocation> {
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template template0 encoding 'UTF8' locale 'C.UTF-8' locale_provider icu icu_locale 'en-US'`);
  } finally {
    await admin.end();
  }
  return { databaseUrl: cluster.url(name) };
}

const pdf = (name: string) => ({ documentId: '1', name, fileExtension: 'pdf', bytes: new Uint8Array([1]) });
const signer = (name: string, email: string) => ({ type: 'signer' as const, recipientId: '1', email, name, routingOrder: 1, tabs: signHereTabs([]) });

/**
 * Five envelopes a minute apart (ids[0] oldest), sent by two users of one account: subjects in
 * mixed case and with LIKE's wildcards, one accented subject and recipient, one draft.
 */
async function seed(t: TestContext, location: DatabaseLocation) {
  const db = await openMigrated(t, location);
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const accounts = new AccountsRepository(db);
  const ada = await accounts.createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'ada lovelace', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  const zed = await accounts.createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Zed Zimmer', passwordHash: 'x', accountName: 'Zed Co', now: clock.now() });
  assert.ok(ada && zed);
  await accounts.addMembership(zed.userId, ada.accountId, clock.now());
  const store = envelopesRepository(db);
  const deps = storeEnvelopeDeps(store, clock);
  const drafts: Array<[string, EnvelopeDraft]> = [
    [ada.userId, { status: 'created', emailSubject: 'Beta lease', documents: [pdf('Lease')], recipients: [signer('Ann Smith', 'ann@example.com')] }],
    [zed.userId, { status: 'sent', emailSubject: 'alpha NDA', documents: [pdf('NDA')], recipients: [signer('Bob Jones', 'Bob@Example.ORG')] }],
    [ada.userId, { status: 'sent', emailSubject: 'Gamma 100%_off', documents: [pdf('Offer')], recipients: [signer('Élodie Martin', 'elodie@example.com')], notification: { ...API_DEFAULT_SETTINGS, expireAfterDays: 5 } }],
    [ada.userId, { status: 'sent', emailSubject: 'éclair order', documents: [pdf('Order')], recipients: [signer('Cy Young', 'cy@example.net')] }],
    [zed.userId, { status: 'sent', emailSubject: 'fig order', documents: [pdf('Order')], recipients: [signer('Dee Dee', 'dee@example.net')] }],
  ];
  const ids: string[] = [];
  for (const [senderUserId, draft] of drafts) {
    clock.advance(60);
    ids.push((await createEnvelope(deps, { accountId: ada.accountId, senderUserId, draft })).envelopeId);
  }
  const list = async (query: Partial<EnvelopeQuery>) => {
    const result = await store.list(ada.accountId, { fromDate: new Date(0), startPosition: 0, count: 100, ...query });
    return { ids: result.envelopes.map((e) => ids.indexOf(e.envelopeId)), total: result.totalSetSize };
  };
  return { store, ids, list, otherAccountId: zed.accountId };
}

describe('listStatusChanges order_by and search_text in the store', () => {
  const engines = bothEngines({ name: 'postgres (ICU en-US collation)', database: icuPostgres });

  for (const engine of engines) {
    test(`${engine.name}: order_by sorts by each key, both ways; NULLs last; text case-folded, bytewise`, async (t) => {
      const { list } = await seed(t, await engine.location(t));
      // Indexes below are positions in creation order (0 = oldest).
      assert.deepEqual((await list({})).ids, [0, 1, 2, 3, 4]);
      assert.deepEqual((await list({ orderBy: 'created', order: 'desc' })).ids, [4, 3, 2, 1, 0]);
      // Subjects A-Z with ASCII case folded ("alpha" before "Beta"); "é" (UTF-8 C3 A9) after
      // every ASCII letter on both engines, whatever the database's collation.
      assert.deepEqual((await list({ orderBy: 'subject' })).ids, [1, 0, 4, 2, 3]);
      assert.deepEqual((await list({ orderBy: 'subject', order: 'desc' })).ids, [3, 2, 4, 0, 1]);
      // The draft was never sent: last in both directions.
      assert.deepEqual((await list({ orderBy: 'sent' })).ids, [1, 2, 3, 4, 0]);
      assert.deepEqual((await list({ orderBy: 'sent', order: 'desc' })).ids, [4, 3, 2, 1, 0]);
      assert.deepEqual((await list({ orderBy: 'completed' })).ids, [0, 1, 2, 3, 4], 'none completed: the status change time breaks the tie');
      // Envelope 2 expires after 5 days, the others after 120 days; the draft has no expiry.
      assert.deepEqual((await list({ orderBy: 'expire' })).ids, [2, 1, 3, 4, 0]);
      assert.deepEqual((await list({ orderBy: 'expire', order: 'desc' })).ids, [4, 3, 1, 2, 0]);
      assert.deepEqual((await list({ orderBy: 'status' })).ids, [0, 1, 2, 3, 4]);
      assert.deepEqual((await list({ orderBy: 'status', order: 'desc' })).ids, [4, 3, 2, 1, 0]);
      // "ada lovelace" before "Zed Zimmer" (a binary sort would put "Z" first).
      assert.deepEqual((await list({ orderBy: 'user_name' })).ids, [0, 2, 3, 1, 4]);
      assert.deepEqual((await list({ orderBy: 'user_name', order: 'desc' })).ids, [4, 1, 3, 2, 0]);
      // Paging walks the sorted set without overlap.
      assert.deepEqual(await list({ orderBy: 'subject', startPosition: 1, count: 2 }), { ids: [0, 4], total: 5 });
      assert.deepEqual(await list({ orderBy: 'subject', startPosition: 3, count: 2 }), { ids: [2, 3], total: 5 });
    });

    test(`${engine.name}: search_text matches subject, recipient name or email, ASCII case-insensitively; wildcards are literal`, async (t) => {
      const { list, store, otherAccountId } = await seed(t, await engine.location(t));
      assert.deepEqual(await list({ searchText: 'nda' }), { ids: [1], total: 1 }, 'subject, other case');
      assert.deepEqual((await list({ searchText: 'ANN SMITH' })).ids, [0], 'recipient name');
      assert.deepEqual((await list({ searchText: 'example.org' })).ids, [1], 'recipient email stored in mixed case');
      assert.deepEqual((await list({ searchText: 'order' })).ids, [3, 4]);
      assert.deepEqual((await list({ searchText: 'example.net', orderBy: 'subject', order: 'desc' })).ids, [3, 4], 'search and sort together');
      assert.deepEqual((await list({ searchText: '100%_' })).ids, [2]);
      assert.deepEqual((await list({ searchText: '%' })).ids, [2], '% is not a wildcard');
      assert.deepEqual((await list({ searchText: 'a_p' })).ids, [], '_ is not a wildcard ("alpha" has no "a_p")');
      assert.deepEqual((await list({ searchText: '!' })).ids, [], 'the escape character itself is literal');
      // Only A-Z fold, on both engines alike.
      assert.deepEqual((await list({ searchText: 'ÉLODIE' })).ids, [2]);
      assert.deepEqual((await list({ searchText: 'élodie' })).ids, []);
      assert.deepEqual((await list({ searchText: 'Éclair' })).ids, []);
      // With the other filters; totalSetSize counts the matches, not the page.
      assert.deepEqual(await list({ searchText: 'example', statuses: ['sent'], count: 1 }), { ids: [1], total: 4 });
      assert.deepEqual(await list({ searchText: 'example', statuses: ['created'] }), { ids: [0], total: 1 });
      assert.equal((await store.list(otherAccountId, { fromDate: new Date(0), startPosition: 0, count: 100, searchText: 'example' })).totalSetSize, 0, 'another account sees none');
    });

    test(`${engine.name}: search and subject order agree with a model (A-Z fold, substring, UTF-8 byte order) on random text`, async (t) => {
      const { store, accountId, deps, senderUserId } = await seedEmpty(t, await engine.location(t));
      // Characters that tell the engines apart if anything differs: both cases, accents, LIKE's
      // wildcards and our escape character, a space.
      const text = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'A', 'b', 'é', 'É', 'z', 'Z', '%', '_', '!', ' ', '1'), minLength: 1, maxLength });
      const envelopes = fc.sample(fc.record({ subject: text(8), name: text(6) }), { numRuns: 24, seed: 20261122 });
      const ids: string[] = [];
      for (const [i, e] of envelopes.entries()) {
        deps.clock.advance(60);
        ids.push((await createEnvelope(deps.deps, { accountId, senderUserId, draft: { status: 'created', emailSubject: e.subject, documents: [pdf('D')], recipients: [signer(e.name, `r${i}@example.com`)] } })).envelopeId);
      }
      const listed = async (query: Partial<EnvelopeQuery>) =>
        (await store.list(accountId, { fromDate: new Date(0), startPosition: 0, count: 100, ...query })).envelopes.map((e) => ids.indexOf(e.envelopeId));

      const bytes = (s: string) => Buffer.from(foldAscii(s), 'utf8');
      const bySubject = envelopes.map((e, i) => ({ key: bytes(e.subject), i })).sort((a, b) => Buffer.compare(a.key, b.key) || a.i - b.i).map((x) => x.i);
      assert.deepEqual(await listed({ orderBy: 'subject' }), bySubject);
      assert.deepEqual(await listed({ orderBy: 'subject', order: 'desc' }), [...bySubject].reverse());

      await fc.assert(fc.asyncProperty(text(3), async (needle) => {
        const folded = foldAscii(needle);
        const expected = envelopes.flatMap((e, i) => ([e.subject, e.name, `r${i}@example.com`].some((s) => foldAscii(s).includes(folded)) ? [i] : []));
        assert.deepEqual(await listed({ searchText: needle }), expected, `search ${JSON.stringify(needle)}`);
      }), { numRuns: 150, seed: 20261122 });
    });
  }
});

/** One account with one sender and no envelopes yet. */
async function seedEmpty(t: TestContext, location: DatabaseLocation) {
  const db = await openMigrated(t, location);
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const user = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(user);
  const store = envelopesRepository(db);
  return { store, accountId: user.accountId, senderUserId: user.userId, deps: { clock, deps: storeEnvelopeDeps(store, clock) } };
}
