import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';
import { envelopeSentMail } from '../../src/mail/templates/envelope-sent-mail.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import type { EnvelopeTables } from '../../src/store/envelope-tables.ts';
import { MIGRATIONS, runMigrations } from '../../src/store/index.ts';
import { enqueueMails, OutboxRepository } from '../../src/store/outbox-repository.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { envelopesRepository, storeEnvelopeDeps } from '../support/store-envelope-deps.ts';

test('migration 200: pending outbox rows written before it get their envelope\'s account; mail of no envelope keeps none', async (t) => {
  const db = await openMigrated(t, freshSqlite(t));
  const clock = new FakeClock(Date.parse('2026-11-20T09:00:00Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  const sent = await createEnvelope(storeEnvelopeDeps(envelopesRepository(db), clock), { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: 'Sign',
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [{ type: 'signer', recipientId: '1', email: 'signer@example.com', name: 'Signer', routingOrder: 1, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 100 }]) }],
  } });
  const signup = envelopeSentMail({ envelopeId: 'none', to: { email: 'new@example.com', name: 'New' }, emailSubject: 'Welcome', documentNames: [], signingUrl: 'https://esign.test/x' });
  await db.transaction((trx) => enqueueMails(trx as unknown as Kysely<EnvelopeTables>, [{ ...signup, envelopeId: undefined }], clock.now(), null));
  const repo = new OutboxRepository(db);
  assert.deepEqual((await repo.list()).map((r) => [r.envelope_id, r.account_id]).sort(), [[null, null], [sent.envelopeId, account.accountId]]);

  // Back to the schema before 200 (SQLite drops a column), then forward again.
  await sql`drop index mail_outbox_lane_idx`.execute(db.kysely);
  await sql`alter table mail_outbox drop column account_id`.execute(db.kysely);
  await db.kysely.deleteFrom('signet_migrations').where('version', '=', 200).execute();
  assert.deepEqual(await runMigrations(db.kysely, db.engine, { migrations: MIGRATIONS }), [200]);
  assert.deepEqual((await repo.list()).map((r) => [r.envelope_id, r.account_id]).sort(), [[null, null], [sent.envelopeId, account.accountId]]);
});
