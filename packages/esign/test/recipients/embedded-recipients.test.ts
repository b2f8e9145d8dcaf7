import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { FormClient, formFields } from '../support/form-client.ts';
import { toAddress } from '../support/mail-parts.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';

// Embedded recipients (clientUserId) of every type, with a real SMTP listener. DocuSign's
// embedding guide: an embedded recipient gets no invitation, reminder, void or completion mail;
// the one mail they get comes after they finish signing or viewing (fraud detection). A carbon
// copy cannot act as an embedded recipient: it has no recipient view.
const wait = { timeoutMs: 30_000, intervalMs: 25 };

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

const created = async (definition: Record<string, unknown>): Promise<string> => {
  const res = await env.call('POST', '', { status: 'sent', documents: [{ documentId: '1', name: 'Lease.pdf', documentBase64: pdf }], ...definition });
  assert.equal(res.status, 201, res.text);
  return String(res.json().envelopeId);
};

/**
 * The kinds of every outbox row written for an address, sorted (a row is written in the change
 * that decides the mail; rows are stamped with envelope times, so their order is not asserted).
 */
const outboxKinds = async (address: string, envelopeId: string) =>
  (await new OutboxRepository(env.h.store.db).list()).filter((m) => m.recipient_email === address && m.envelope_id === envelopeId).map((m) => m.kind).sort();

const sign = { tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } };

/** The sender's app opens a recipient view and the person finishes on the page (signing every tab typed, or acknowledging). */
async function finishInView(envelopeId: string, view: Record<string, string>, typedName?: string): Promise<void> {
  const res = await env.call('POST', `/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', ...view });
  assert.equal(res.status, 201, res.text);
  const browser = new FormClient(env.h.origin);
  const redeemed = await browser.get(new URL(String(res.json().url)).pathname);
  assert.equal(redeemed.status, 303, redeemed.text);
  const path = String(redeemed.headers.location);
  const page = await browser.get(path);
  assert.equal(page.status, 200, page.text);
  const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
  const signature: Record<string, string> = typedName === undefined ? {} : { signatureKind: 'typed', signatureText: typedName, signedTabs: tabs.join(',') };
  const finished = await browser.post(`${path}/finish`, { ...formFields(page.text, `${path}/finish`), ...signature });
  assert.equal(finished.status, 303, finished.text);
  assert.match(String(finished.headers.location), /^https:\/\/app\.example\/done\?event=signing_complete/);
}

subtest('embedded signer, in-person signer and certified delivery: no mail but the one after they finish; a remote carbon copy still gets its copy and the completed documents', async () => {
  const envelopeId = await created({
    emailSubject: 'Embedded lease',
    recipients: {
      signers: [{ email: 'emb-signer@example.com', name: 'Erin Embedded', recipientId: '1', routingOrder: '1', clientUserId: 'app-1', ...sign }],
      inPersonSigners: [{ hostName: 'Hal Host', hostEmail: 'emb-host@example.com', signerName: 'Ivy InPerson', signerEmail: 'emb-ip@example.com', recipientId: '2', routingOrder: '1', clientUserId: 'app-2', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '500' }] } }],
      certifiedDeliveries: [{ email: 'emb-cd@example.com', name: 'Cid Certified', recipientId: '3', routingOrder: '2', clientUserId: 'app-3' }],
      carbonCopies: [
        { email: 'emb-cc@example.com', name: 'Cat Copy', recipientId: '4', routingOrder: '2', clientUserId: 'app-4' },
        { email: 'remote-cc@example.com', name: 'Rem Remote', recipientId: '5', routingOrder: '2' },
      ],
    },
  });
  const embedded = ['emb-signer@example.com', 'emb-host@example.com', 'emb-ip@example.com', 'emb-cd@example.com', 'emb-cc@example.com'];
  for (const address of embedded) assert.deepEqual(await outboxKinds(address, envelopeId), [], `nothing written for ${address} at send`);

  await finishInView(envelopeId, { email: 'emb-signer@example.com', userName: 'Erin Embedded', clientUserId: 'app-1' }, 'Erin Embedded');
  // An embedded in-person signer's view is named by the host (docs/esign-envelopes.md "In-person signers").
  await finishInView(envelopeId, { email: 'emb-host@example.com', userName: 'Hal Host', clientUserId: 'app-2' }, 'Ivy InPerson');

  // Order 2 reached: the remote carbon copy gets its copy; the embedded ones nothing.
  await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'remote-cc@example.com'), { ...wait, what: 'the remote copy' });
  assert.deepEqual(await outboxKinds('emb-cd@example.com', envelopeId), []);
  assert.deepEqual(await outboxKinds('emb-cc@example.com', envelopeId), []);

  // A carbon copy has no recipient view, and the refusal says why.
  const ccView = await env.call('POST', `/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'emb-cc@example.com', userName: 'Cat Copy', clientUserId: 'app-4' });
  assert.deepEqual([ccView.status, ccView.json().errorCode], [400, 'UNKNOWN_ENVELOPE_RECIPIENT']);
  assert.match(String(ccView.json().message), /recipientId 4 is a carbon copy: a carbon copy signs nothing and has no recipient view/);

  await finishInView(envelopeId, { email: 'emb-cd@example.com', userName: 'Cid Certified', clientUserId: 'app-3' });
  await pollUntil(async () => ((await env.call('GET', `/${envelopeId}`)).json().status === 'completed' ? true : undefined), { ...wait, what: 'completion' });
  const completedCopy = await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'remote-cc@example.com' && /^Completed:/.test(m.subject ?? '')), { ...wait, what: 'the remote completed copy' });
  assert.equal(completedCopy.attachments.length, 1);

  // Each embedded person who finished got exactly one mail, after finishing, with no link in it.
  const confirmations = await pollUntil(() => {
    const got = ['emb-signer@example.com', 'emb-ip@example.com', 'emb-cd@example.com'].map((a) => smtp.received.find((m) => toAddress(m) === a));
    return got.every(Boolean) ? got : undefined;
  }, { ...wait, what: 'the three confirmations' });
  assert.deepEqual(confirmations.map((m) => m?.subject), ['Signed: Embedded lease', 'Signed: Embedded lease', 'Acknowledged: Embedded lease']);
  assert.match(confirmations[0]?.text ?? '', /Erin Embedded, you signed these documents\n\nYou finished signing “Embedded lease” in the sender’s application on .+\.\n\nIf this was not you, tell the sender at once/);
  assert.match(confirmations[1]?.text ?? '', /^Ivy InPerson, you signed/);
  assert.match(confirmations[2]?.text ?? '', /You viewed and acknowledged “Embedded lease”/);
  for (const m of confirmations) assert.doesNotMatch(m?.text ?? '', /\/signing\//, 'no link');
  // The completion mails are written in the change that completes the envelope, so by now the outbox holds every row there will be.
  assert.deepEqual(await outboxKinds('emb-signer@example.com', envelopeId), ['finished-embedded']);
  assert.deepEqual(await outboxKinds('emb-ip@example.com', envelopeId), ['finished-embedded']);
  assert.deepEqual(await outboxKinds('emb-cd@example.com', envelopeId), ['finished-embedded']);
  assert.deepEqual(await outboxKinds('emb-host@example.com', envelopeId), [], 'the host of an embedded in-person signer is mailed nothing');
  assert.deepEqual(await outboxKinds('emb-cc@example.com', envelopeId), [], 'an embedded carbon copy gets no completed copy');
  assert.deepEqual(await outboxKinds('remote-cc@example.com', envelopeId), ['envelope-completed', 'envelope-sent']);
});

subtest('voiding tells the remote signer already reached, never the embedded one; a resend mails only the remote one', async () => {
  const envelopeId = await created({
    emailSubject: 'Void me',
    recipients: { signers: [
      { email: 'void-emb@example.com', name: 'Vee Embedded', recipientId: '1', clientUserId: 'v-1', ...sign },
      { email: 'void-remote@example.com', name: 'Ray Remote', recipientId: '2', ...sign },
    ] },
  });
  const resent = await env.call('PUT', `/${envelopeId}?resend_envelope=true`, {});
  assert.equal(resent.status, 200, resent.text);
  const voided = await env.call('PUT', `/${envelopeId}`, { status: 'voided', voidedReason: 'Wrong lease' });
  assert.equal(voided.status, 200, voided.text);
  await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'void-remote@example.com' && /^Voided:/.test(m.subject ?? '')), { ...wait, what: 'the void notice' });
  assert.deepEqual(await outboxKinds('void-remote@example.com', envelopeId), ['envelope-sent', 'envelope-sent', 'envelope-voided']);
  assert.deepEqual(await outboxKinds('void-emb@example.com', envelopeId), []);
});

subtest('expiry voids without telling an embedded signer', async () => {
  const envelopeId = await created({
    emailSubject: 'Expire me',
    notification: { expirations: { expireEnabled: 'true', expireAfter: '1' } },
    recipients: { signers: [
      { email: 'exp-emb@example.com', name: 'Xe Embedded', recipientId: '1', clientUserId: 'x-1', ...sign },
      { email: 'exp-remote@example.com', name: 'Rex Remote', recipientId: '2', ...sign },
    ] },
  });
  env.clock.advance(2 * 86_400);
  await pollUntil(async () => ((await outboxKinds('exp-remote@example.com', envelopeId)).includes('envelope-expired') ? true : undefined), { ...wait, what: 'the expiry notice' });
  assert.deepEqual(await outboxKinds('exp-remote@example.com', envelopeId), ['envelope-expired', 'envelope-sent']);
  assert.deepEqual(await outboxKinds('exp-emb@example.com', envelopeId), []);
});

test('embedded recipients (clientUserId) of every type', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Lease'));
  for (const [name, body] of subtests) await t.test(name, body);
});
