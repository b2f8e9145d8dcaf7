import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { createDevSealP12 } from '@signet/pdf';
import { CompletionWorker } from '../../src/completion/completion-worker.ts';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { applySigningChange } from '../../src/domain/signing/apply-signing-change.ts';
import { finishSigning } from '../../src/domain/signing/signing-changes.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { AuditEventsRepository } from '../../src/store/audit-events-repository.ts';
import { CompletionFailuresRepository } from '../../src/store/completion-failures-repository.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { SigningRepository } from '../../src/store/signing-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { samplePdf } from '../support/sample-pdf.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';

describe('completion worker', () => {
  const engines = bothEngines();
  for (const engine of engines) test(`${engine.name}: a \`signed\` envelope left by a crashed instance is completed by the next worker, exactly once even when two race`, (t) => crashedThenCompleted(t, engine.location));
});

async function crashedThenCompleted(t: TestContext, location: (t: TestContext) => Promise<Parameters<typeof openMigrated>[1]>): Promise<void> {
  const db = await openMigrated(t, await location(t));
  const clock = new FakeClock(Date.parse('2026-05-06T07:08:09.123Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Sender', passwordHash: 'x', accountName: 'Co', now: clock.now() });
  assert.ok(account);
  const pdf = await samplePdf(1);
  const deps = storeEnvelopeDeps(envelopesRepository(db), clock, pdf);
  const envelope = await createEnvelope(deps, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent',
    emailSubject: 'Lease',
    documents: [{ documentId: '1', name: 'Lease', fileExtension: 'pdf', bytes: pdf }],
    recipients: [
      { type: 'signer', recipientId: '1', email: 'tenant@example.com', name: 'Tess Tenant', routingOrder: 1, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 500, optional: false }]) },
      { type: 'carbonCopy', recipientId: '2', email: 'agent@example.com', name: 'Al Agent', routingOrder: 2, tabs: signHereTabs([]) },
    ],
  } });
  const signing = new SigningRepository(db);
  const tabId = envelope.recipients[0]?.tabs[0]?.tabId ?? assert.fail('a tab');
  await signing.saveSignature(envelope.envelopeId, '1', { kind: 'typed', typedText: 'Tess Tenant', signedTabIds: [tabId], adoptedAt: clock.now() });
  // The signer finished; the instance "crashed" before any completion worker ran.
  const { envelope: signed } = await applySigningChange(deps, account.accountId, envelope.envelopeId, (e) => finishSigning(deps, e, '1', clock.now(), { ipAddress: '198.51.100.7' }));
  assert.equal(signed.status, 'signed');

  const audit = new AuditEventsRepository(db);
  const seal = createDevSealP12();
  const worker = () => new CompletionWorker({ envelopes: deps, signing, audit, failures: new CompletionFailuresRepository(db), publicUrl: 'https://esign.test', seal: () => Promise.resolve(seal) });
  const outcomes = await Promise.all([worker().complete(account.accountId, envelope.envelopeId), worker().complete(account.accountId, envelope.envelopeId)]);
  assert.deepEqual(outcomes.filter(Boolean).length, 1, 'one of the racing workers completes it');

  const completed = await deps.store.find(account.accountId, envelope.envelopeId);
  assert.equal(completed?.status, 'completed');
  const result = await signing.result(envelope.envelopeId);
  assert.ok(result && result.combined_with_certificate.byteLength > pdf.byteLength);
  const mails = (await new OutboxRepository(db).list()).filter((m) => m.kind === 'envelope-completed');
  assert.deepEqual(mails.map((m) => m.recipient_email).sort(), ['agent@example.com', 'tenant@example.com'], 'one completion mail per recipient');
  const actions = (await audit.list(envelope.envelopeId)).map((e) => e.action);
  assert.deepEqual(actions, ['Sent', 'Signed', 'Sent', 'Completed']);
  assert.deepEqual(await worker().runOnce(), [], 'nothing is left to complete');
}
