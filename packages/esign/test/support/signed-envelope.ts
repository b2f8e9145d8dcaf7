import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { applySigningChange } from '../../src/domain/signing/apply-signing-change.ts';
import { finishSigning } from '../../src/domain/signing/signing-changes.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';
import type { Db } from '../../src/store/database.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { SigningRepository } from '../../src/store/signing-repository.ts';
import { samplePdf } from './sample-pdf.ts';
import { storeEnvelopeDeps, envelopesRepository } from './store-envelope-deps.ts';

/**
 * A `signed` envelope waiting for completion, written through the domain use cases into `db`:
 * one signer (Tess Tenant, who signed from 198.51.100.7) with one typed signature.
 */
export async function signedEnvelope(db: Db, clock: { now: () => Date }, subject = 'Lease') {
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Sender', passwordHash: 'x', accountName: 'Co', now: clock.now() });
  assert.ok(account);
  const pdf = await samplePdf(1);
  const deps = storeEnvelopeDeps(envelopesRepository(db), clock, pdf);
  const envelope = await createEnvelope(deps, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: subject,
    documents: [{ documentId: '1', name: subject, fileExtension: 'pdf', bytes: pdf }],
    recipients: [{ type: 'signer', recipientId: '1', email: 'tenant@example.com', name: 'Tess Tenant', routingOrder: 1, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 500, optional: false }]) }],
  } });
  const signing = new SigningRepository(db);
  const tabId = envelope.recipients[0]?.tabs[0]?.tabId ?? assert.fail('a tab');
  await signing.saveSignature(envelope.envelopeId, '1', { kind: 'typed', typedText: 'Tess Tenant', signedTabIds: [tabId], adoptedAt: clock.now() });
  await applySigningChange(deps, account.accountId, envelope.envelopeId, (e) => finishSigning(deps, e, '1', clock.now(), { ipAddress: '198.51.100.7' }));
  return { deps, signing, accountId: account.accountId, envelopeId: envelope.envelopeId };
}
