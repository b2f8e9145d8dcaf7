import { envelopeWrite } from '../../src/domain/envelope/envelope-write.ts';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import type { EnvelopeChange } from '../../src/domain/envelope/ports.ts';
import { applySigningChange } from '../../src/domain/signing/apply-signing-change.ts';
import { finishSigning } from '../../src/domain/signing/signing-changes.ts';
import { buildNotificationMails } from '../../src/reminders/notification-mails.ts';
import { expiryIfDue } from '../../src/domain/notification/notification-step.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { SigningRepository } from '../../src/store/signing-repository.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';
import { DAY_S, onePagePdf, startReminderEsign } from './reminders-harness.ts';
import { storeEnvelopeDeps, envelopesRepository } from '../support/store-envelope-deps.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';
import { toAddress } from '../support/mail-parts.ts';

const wait = { timeoutMs: 15_000, intervalMs: 20 };
const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

test('past its expiry date, a signing link expires the envelope itself: no signing in the gap before the scheduler\'s next pass', async (t) => {
  const smtp = await startSmtpListener(t);
  // The scheduler passes once at start, then not for an hour: only the signing request can expire it.
  const { h, clock, call } = await startReminderEsign(t, smtp.url, { reminderPollMs: 3_600_000 });
  const created = await call('POST', '', {
    emailSubject: 'Sign by tomorrow', status: 'sent',
    documents: [{ documentId: '1', name: 'A.pdf', documentBase64: await onePagePdf() }],
    recipients: { signers: [{ email: 'late@example.com', name: 'Late', recipientId: '1' }, { email: 'other@example.com', name: 'Other', recipientId: '2' }] },
    notification: { expirations: { expireEnabled: 'true', expireAfter: '1', expireWarn: '0' } },
  });
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);
  await pollUntil(() => smtp.received.length >= 2, { ...wait, what: 'the invitations' });
  const linkOf = (email: string) => smtp.received.find((m) => toAddress(m) === email)?.text?.split('\n').find((l) => l.startsWith(`${h.origin}/signing/`))?.trim() ?? '';
  const late = new URL(linkOf('late@example.com')).pathname;
  const other = new URL(linkOf('other@example.com')).pathname;

  // The signer opens the page while it is still valid...
  const browser = new FormClient(h.origin);
  const page = await browser.get(late);
  assert.equal(page.status, 200);
  const csrf = hiddenField(page.text, '_csrf');
  // ...and presses Finish a second after the expiry date.
  clock.advance(DAY_S + 1);
  const finish = await browser.post(`${late}/finish`, { _csrf: csrf, signatureKind: 'typed', signatureText: 'Late', signedTabs: '' });
  assert.equal(finish.status, 409, finish.text);
  assert.match(finish.text, /Expired/);
  const envelope = (await call('GET', `/${envelopeId}?include=recipients`)).json() as { status: string; voidedReason: string; recipients: { signers: { status: string }[] } };
  assert.deepEqual([envelope.status, envelope.voidedReason], ['voided', 'Envelope has expired.']);
  assert.deepEqual(envelope.recipients.signers.map((s) => s.status), ['delivered', 'sent'], 'nobody signed (the first had opened it)');
  // The other signer's link and decline are closed too.
  const otherPage = await new FormClient(h.origin).get(other);
  assert.match(otherPage.text, /Expired/);
  assert.doesNotMatch(otherPage.text, /id="finish"/);
  // Expired once: one notice per signer, not one per request that noticed.
  await pollUntil(() => smtp.received.length >= 4, { ...wait, what: 'the expiry notices' });
  assert.deepEqual(smtp.received.slice(2).map((m) => `${m.subject ?? ''} -> ${toAddress(m)}`).sort(), ['Voided: Sign by tomorrow -> late@example.com', 'Voided: Sign by tomorrow -> other@example.com']);
  const outbox = await new OutboxRepository(h.store.db).list();
  assert.equal(outbox.filter((m) => m.kind === 'envelope-expired').length, 2);
});

/** A store-level setup: one signer, expiry after 1 day. */
async function oneSignerExpiringTomorrow(t: TestContext) {
  const db = await openMigrated(t, freshSqlite(t));
  const clock = new FakeClock(Date.parse('2028-02-28T23:30:00.000Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  const deps = storeEnvelopeDeps(envelopesRepository(db), clock);
  const envelope = await createEnvelope(deps, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'sent', emailSubject: 'Race',
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [{ type: 'signer', recipientId: '1', email: 'racer@example.com', name: 'Racer', routingOrder: 1, tabs: signHereTabs([]) }],
    notification: { useAccountDefaults: false, reminderEnabled: false, reminderDelayDays: 0, reminderFrequencyDays: 0, expireAfterDays: 1, expireWarnDays: 0 },
  } });
  const stepDeps = { random: deps.random, hashSecret: sha, mails: buildNotificationMails('https://esign.test') };
  const kinds = async () => (await new OutboxRepository(db).list()).map((m) => m.kind).filter((k) => k !== 'envelope-sent');
  const signatures = async () => [...(await new SigningRepository(db).signatures(envelope.envelopeId)).keys()];
  return { clock, deps, envelope, stepDeps, kinds, signatures };
}

const actor = { ipAddress: '127.0.0.1' };
// What a Finish adopts; the signing page sends it with its change (signing-routes.ts).
const withSignature = (change: EnvelopeChange, now: Date): EnvelopeChange => ({
  ...change,
  adoptedSignatures: [{ recipientId: '1', signature: { kind: 'typed', typedText: 'Racer', signedTabIds: [], adoptedAt: now } }],
});

test('a signature and the expiry computed from the same version at the same instant: the expiry saves first, the signature is refused, no signing mail, no signature row', async (t) => {
  const { clock, deps, envelope, stepDeps, kinds, signatures } = await oneSignerExpiringTomorrow(t);
  clock.advance(DAY_S); // exactly at the expiry instant (2028-02-29T23:30Z, a leap day)
  const now = clock.now();
  const loaded = await deps.store.find(envelope.accountId, envelope.envelopeId);
  assert.ok(loaded);
  const expiry = expiryIfDue(stepDeps, loaded, now);
  assert.ok(expiry, 'due at the instant itself');
  // The signer's request computed its change from the same version (before it saw the expiry).
  const finish = finishSigning(deps, loaded, '1', now, actor);
  assert.ok(finish);
  const signature = withSignature(finish, now);
  assert.equal(await deps.store.update(envelopeWrite(loaded, expiry)), true);
  assert.equal(await deps.store.update(envelopeWrite(loaded, signature)), false, 'the version check refuses the signature');
  assert.deepEqual(await signatures(), [], 'the adopted signature went down with its Finish');
  // Recomputed on the fresh state, as applySigningChange does: the envelope is closed.
  await assert.rejects(applySigningChange(deps, envelope.accountId, envelope.envelopeId, (current) => finishSigning(deps, current, '1', now, actor)), { code: 'ENVELOPE_INVALID_STATUS' });
  const after = await deps.store.find(envelope.accountId, envelope.envelopeId);
  assert.deepEqual([after?.status, after?.recipients[0]?.status, after?.version], ['voided', 'sent', loaded.version + 1]);
  assert.deepEqual(await kinds(), ['envelope-expired']);
});

test('the same race the other way round: the signature saves first (with its adopted signature), the expiry step is refused and its notice never exists', async (t) => {
  const { clock, deps, envelope, stepDeps, kinds, signatures } = await oneSignerExpiringTomorrow(t);
  clock.advance(DAY_S - 1); // a second before expiry: the signer is in time
  const loaded = await deps.store.find(envelope.accountId, envelope.envelopeId);
  assert.ok(loaded);
  const finish = finishSigning(deps, loaded, '1', clock.now(), actor);
  assert.ok(finish);
  const signature = withSignature(finish, clock.now());
  clock.advance(1);
  const expiry = expiryIfDue(stepDeps, loaded, clock.now());
  assert.ok(expiry);
  assert.equal(await deps.store.update(envelopeWrite(loaded, signature)), true);
  assert.equal(await deps.store.update(envelopeWrite(loaded, expiry)), false);
  const after = await deps.store.find(envelope.accountId, envelope.envelopeId);
  assert.equal(after?.status, 'signed');
  assert.deepEqual(await signatures(), ['1'], 'stored with the Finish');
  assert.equal(after && expiryIfDue(stepDeps, after, clock.now()), undefined, 'a signed envelope no longer expires');
  assert.deepEqual(await kinds(), []);
});

test('createRecipientView past the expiry time expires the envelope and is refused, before the scheduler gets to it', async (t) => {
  const smtp = await startSmtpListener(t);
  const { clock, call } = await startReminderEsign(t, smtp.url, { reminderPollMs: 3_600_000 });
  const created = await call('POST', '', {
    emailSubject: 'Kiosk', status: 'sent',
    documents: [{ documentId: '1', name: 'A.pdf', documentBase64: await onePagePdf() }],
    recipients: { signers: [{ email: 'kiosk@example.com', name: 'Kiosk', recipientId: '1', clientUserId: 'k-1' }] },
    notification: { expirations: { expireEnabled: 'true', expireAfter: '2' } },
  });
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);
  const view = () => call('POST', `/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'kiosk@example.com', userName: 'Kiosk', clientUserId: 'k-1' });
  clock.advance(2 * DAY_S - 60);
  assert.equal((await view()).status, 201, 'a minute before expiry the view is made');
  clock.advance(61);
  const refused = await view();
  assert.deepEqual([refused.status, refused.json().errorCode], [400, 'ENVELOPE_INVALID_STATUS'], refused.text);
  assert.match(String(refused.json().message), /Envelope has expired\./);
  const envelope = (await call('GET', `/${envelopeId}`)).json();
  assert.deepEqual([envelope.status, envelope.voidedReason], ['voided', 'Envelope has expired.']);
});
