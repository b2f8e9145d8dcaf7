import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import type { Template } from '../../src/domain/templates/template.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import type { DatabaseLocation } from '../../src/store/index.ts';
import { TemplatesRepository } from '../../src/store/templates-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { signHereTab } from '../../src/domain/tabs/sign-here-tab.ts';

async function setup(t: TestContext, location: DatabaseLocation) {
  const db = await openMigrated(t, location);
  const accounts = new AccountsRepository(db);
  const make = async () => {
    const a = await accounts.createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: new Date() });
    assert.ok(a);
    return a;
  };
  return { repo: new TemplatesRepository(db), mine: await make(), theirs: await make() };
}

function template(accountId: string, ownerUserId: string, name: string): Template {
  const at = new Date('2026-05-06T07:08:09.123Z');
  return {
    templateId: randomUUID(),
    accountId,
    ownerUserId,
    name,
    description: 'd',
    emailSubject: 'Sign',
    shared: true,
    // What its envelopes start with: a brand, custom fields, reminders and expiration.
    brandId: 'brand-1',
    customFields: [{ fieldId: '1', kind: 'list', name: 'Tier', value: 'gold', show: true, required: false, listItems: ['gold', 'silver'] }],
    notification: { useAccountDefaults: false, reminderEnabled: true, reminderDelayDays: 2, reminderFrequencyDays: 3, expireAfterDays: 30, expireWarnDays: 5 },
    createdAt: at,
    lastModifiedAt: at,
    documents: [{ documentId: '1', name: 'A.pdf', fileExtension: 'docx', order: 1, pageCount: 2, sha256: 'ab' }],
    roles: [
      { recipientId: '1', roleName: 'signer', type: 'signer', name: '', email: '', routingOrder: 1, tabs: [{ tabId: 't1', recipientId: '1', documentId: '1', pageNumber: 2, xPosition: 10.5, yPosition: 20, value: '', tab: signHereTab({ anchor: { anchorString: '/s/', units: 'pixels', xOffset: 0, yOffset: 0, ignoreIfNotPresent: false, caseSensitive: false, matchWholeWord: false, horizontalAlignment: 'left' } }) }] },
      { recipientId: '2', type: 'carbonCopy', name: 'Carl', email: 'carl@example.com', routingOrder: 2, clientUserId: 'c', tabs: [] },
    ],
  };
}

describe('templates repository', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: round trip, search, paging, update, replaceContent, delete, always within one account`, async (t) => {
      const { repo, mine, theirs } = await setup(t, await engine.location(t));
      const a = template(mine.accountId, mine.userId, 'Lease 100%');
      const b = template(mine.accountId, mine.userId, 'NDA');
      const c = template(theirs.accountId, theirs.userId, 'NDA of theirs');
      for (const x of [a, b, c]) await repo.create(x, new Map([['1', new Uint8Array([37, 80, 68, 70])]]));
      assert.deepEqual(await repo.find(mine.accountId, a.templateId), a);
      assert.equal(await repo.find(mine.accountId, c.templateId), undefined);
      assert.deepEqual(await repo.documentPdf(mine.accountId, a.templateId, '1'), new Uint8Array([37, 80, 68, 70]));
      assert.equal(await repo.documentPdf(theirs.accountId, a.templateId, '1'), undefined);

      const names = async (q: { searchText?: string; startPosition?: number; count?: number }) => {
        const r = await repo.list(mine.accountId, { startPosition: q.startPosition ?? 0, count: q.count ?? 100, ...(q.searchText !== undefined ? { searchText: q.searchText } : {}) });
        return [r.totalSetSize, r.templates.map((x) => x.name)];
      };
      assert.deepEqual(await names({}), [2, ['Lease 100%', 'NDA']]);
      assert.deepEqual(await names({ searchText: 'nda' }), [1, ['NDA']]);
      // LIKE's wildcards in the text match themselves.
      assert.deepEqual(await names({ searchText: '0%' }), [1, ['Lease 100%']]);
      assert.deepEqual(await names({ searchText: '_' }), [0, []]);
      assert.deepEqual(await names({ startPosition: 1, count: 1 }), [2, ['NDA']]);

      assert.equal(await repo.update({ ...c, accountId: mine.accountId, name: 'taken' }), false, 'another account’s template is not updated');
      assert.equal(await repo.update({ ...a, name: 'Lease', lastModifiedAt: new Date('2026-06-01T00:00:00.000Z') }), true);
      assert.equal((await repo.find(mine.accountId, a.templateId))?.name, 'Lease');
      // replaceContent: only over the version read; roles and documents rewritten, kept PDFs kept.
      const read = await repo.find(mine.accountId, b.templateId);
      assert.ok(read);
      const edited = { ...read, roles: [read.roles[1]!], documents: [{ ...read.documents[0]!, name: 'Renamed.pdf' }], lastModifiedAt: new Date('2026-07-01T00:00:00.000Z') };
      assert.equal(await repo.replaceContent(edited, new Map(), new Date('2020-01-01T00:00:00.000Z')), false, 'a stale version is refused');
      assert.equal(await repo.replaceContent({ ...edited, accountId: theirs.accountId }, new Map(), read.lastModifiedAt), false, 'another account’s id is refused');
      assert.equal(await repo.replaceContent(edited, new Map(), read.lastModifiedAt), true);
      assert.deepEqual(await repo.find(mine.accountId, b.templateId), edited);
      assert.deepEqual(await repo.documentPdf(mine.accountId, b.templateId, '1'), new Uint8Array([37, 80, 68, 70]));
      const withNewPdf = { ...edited, documents: [{ ...edited.documents[0]!, documentId: '2', sha256: 'cd' }], lastModifiedAt: new Date('2026-07-02T00:00:00.000Z') };
      assert.equal(await repo.replaceContent(withNewPdf, new Map([['2', new Uint8Array([9])]]), edited.lastModifiedAt), true);
      assert.equal(await repo.documentPdf(mine.accountId, b.templateId, '1'), undefined);
      assert.deepEqual(await repo.documentPdf(mine.accountId, b.templateId, '2'), new Uint8Array([9]));
      assert.equal(await repo.delete(mine.accountId, c.templateId), false);
      assert.equal(await repo.delete(mine.accountId, a.templateId), true);
      assert.equal(await repo.find(mine.accountId, a.templateId), undefined);
      assert.equal(await repo.documentPdf(mine.accountId, a.templateId, '1'), undefined);
      assert.equal((await repo.find(theirs.accountId, c.templateId))?.name, 'NDA of theirs');
    });
  }
});
