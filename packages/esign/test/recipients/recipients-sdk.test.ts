import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { FormClient } from '../support/form-client.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { toAddress } from '../support/mail-parts.ts';

// The official SDK, unmodified: only what this test calls is typed.
type WireRecipient = { recipientId: string; recipientIdGuid?: string; name: string; email: string; routingOrder: string; status: string };
type UpdateSummary = { recipientUpdateResults: { recipientId: string; recipientIdGuid?: string; errorDetails?: { errorCode: string; message: string } }[] };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
  listRecipients(accountId: string, envelopeId: string): Promise<{ signers: WireRecipient[]; carbonCopies: WireRecipient[] }>;
  updateRecipients(accountId: string, envelopeId: string, opts: { recipients: unknown; resendEnvelope?: string }): Promise<UpdateSummary>;
  deleteRecipient(accountId: string, envelopeId: string, recipientId: string): Promise<{ signers?: { recipientId: string }[]; carbonCopies?: { recipientId: string }[] }>;
  deleteRecipients(accountId: string, envelopeId: string, opts: { recipients: unknown }): Promise<{ signers?: { recipientId: string }[]; carbonCopies?: { recipientId: string }[] }>;
  listTabs(accountId: string, envelopeId: string, recipientId: string): Promise<Record<string, unknown[]>>;
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }>;
  update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<unknown>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 20_000, intervalMs: 20 };

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function sdk(token?: string): Promise<EnvelopesApi> {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token ?? (await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

const signHere = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' };

/** Two signers (orders 1 and 2) and a carbon copy (order 3) on one page. */
async function createEnvelope(status: 'sent' | 'created', tag: string, extra: { clientUserId?: string } = {}): Promise<string> {
  const { envelopeId } = await (await sdk()).createEnvelope(env.seed.accountId, { envelopeDefinition: {
    emailSubject: `Recipients ${tag}`, status,
    documents: [{ documentBase64: pdf, documentId: '1', fileExtension: 'pdf', name: 'Lease' }],
    recipients: {
      signers: [
        { email: `one-${tag}@example.com`, name: 'One', recipientId: '1', routingOrder: '1', ...extra, tabs: { signHereTabs: [signHere] } },
        { email: `two-${tag}@example.com`, name: 'Two', recipientId: '2', routingOrder: '2', tabs: { signHereTabs: [{ ...signHere, yPosition: '600' }] } },
      ],
      carbonCopies: [{ email: `cc-${tag}@example.com`, name: 'Copy', recipientId: '3', routingOrder: '3' }],
    },
  } });
  return envelopeId;
}

/** The signing link path of the latest mail to `address` after `since` mails. */
async function linkTo(address: string, since = 0): Promise<string> {
  const mail = await pollUntil(() => smtp.received.slice(since).findLast((m) => toAddress(m) === address), { ...wait, what: `the mail to ${address}` });
  const link = mail.text?.split('\n').find((l) => l.startsWith(`${env.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link');
  return new URL(link).pathname;
}

const recipientsOf = async (envelopeId: string) => {
  const r = await (await sdk()).listRecipients(env.seed.accountId, envelopeId);
  return [...r.signers, ...r.carbonCopies].map((x) => [x.recipientId, x.name, x.email, x.routingOrder, x.status]);
};

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('a signer corrected while it is their turn: the new address gets a fresh link, the old link opens nothing; a recipient moved forward is reached now', async () => {
  const envelopeId = await createEnvelope('sent', 'fix');
  const old = await linkTo('one-fix@example.com');
  const browser = new FormClient(env.h.origin);
  assert.equal((await browser.get(old)).status, 200);

  const api = await sdk();
  const since = smtp.received.length;
  const summary = await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'One.Fixed@Example.com', name: 'One Fixed' }] } });
  assert.equal(summary.recipientUpdateResults.length, 1);
  assert.equal(summary.recipientUpdateResults[0]?.recipientId, '1');
  assert.equal(summary.recipientUpdateResults[0]?.errorDetails, undefined);
  const fresh = await linkTo('one.fixed@example.com', since);
  assert.notEqual(fresh, old);
  assert.equal((await browser.get(old)).status, 404, 'the link mailed to the old address is dead');
  assert.equal((await new FormClient(env.h.origin).get(old)).status, 404);
  const page = await browser.get(fresh);
  assert.equal(page.status, 200);
  assert.match(page.text, /One Fixed/);
  assert.equal(smtp.received.slice(since).some((m) => toAddress(m) === 'one-fix@example.com'), false, 'nothing more to the old address');

  // Signer 2 (order 2, not reached) moved to order 1: reached now, in parallel with signer 1.
  const before = smtp.received.length;
  await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '2', routingOrder: '1' }] } });
  const twoLink = await linkTo('two-fix@example.com', before);
  assert.deepEqual(await recipientsOf(envelopeId), [['1', 'One Fixed', 'one.fixed@example.com', '1', 'delivered'], ['2', 'Two', 'two-fix@example.com', '1', 'sent'], ['3', 'Copy', 'cc-fix@example.com', '3', 'created']]);

  // Signer 1 signs; from then on they cannot be corrected (DocuSign's per-recipient RECIPIENT_UPDATE_FAILED) nor deleted.
  assert.equal((await (await drawnSignatureFinish(browser, fresh))(makeSignaturePng(600, 200))).status, 303);
  const late = await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'hijack@example.com' }, { recipientId: '2', name: 'Two Fixed' }] } });
  assert.deepEqual(late.recipientUpdateResults.map((r) => [r.recipientId, r.errorDetails?.errorCode]), [['1', 'RECIPIENT_UPDATE_FAILED'], ['2', undefined]]);
  assert.match(late.recipientUpdateResults[0]?.errorDetails?.message ?? '', /not in state that allows correction/);
  assert.deepEqual(await sdkFailure(api.deleteRecipient(env.seed.accountId, envelopeId, '1')), [400, 'RECIPIENT_UPDATE_FAILED']);
  assert.deepEqual((await recipientsOf(envelopeId)).slice(0, 2), [['1', 'One Fixed', 'one.fixed@example.com', '1', 'completed'], ['2', 'Two Fixed', 'two-fix@example.com', '1', 'sent']]);

  // The pending signer 2 deleted: their link dies, routing goes on to the carbon copy, and nobody is left to sign.
  const copies = smtp.received.length;
  const deleted = await api.deleteRecipient(env.seed.accountId, envelopeId, '2');
  assert.deepEqual(deleted.signers?.map((r) => r.recipientId), ['2']);
  assert.equal((await new FormClient(env.h.origin).get(twoLink)).status, 404);
  await pollUntil(() => smtp.received.slice(copies).find((m) => toAddress(m) === 'cc-fix@example.com'), { ...wait, what: 'the copy to the carbon copy' });
  assert.deepEqual(await recipientsOf(envelopeId), [['1', 'One Fixed', 'one.fixed@example.com', '1', 'completed'], ['3', 'Copy', 'cc-fix@example.com', '3', 'completed']]);
  assert.match((await api.getEnvelope(env.seed.accountId, envelopeId)).status, /^(signed|completed)$/);
  const rows = await env.h.store.db.kysely.selectFrom('envelope_tabs').select('recipient_id').where('envelope_id', '=', envelopeId).execute();
  assert.deepEqual(rows.map((r) => r.recipient_id), ['1'], 'the deleted signer\'s tabs went with them');

  const audit = await env.call('GET', `/${envelopeId}/audit_events`);
  const actions = (audit.json() as { auditEvents: { eventFields: { name: string; value: string }[] }[] }).auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value);
  assert.deepEqual(actions.filter((a) => a === 'Corrected' || a === 'Recipient Deleted'), ['Corrected', 'Corrected', 'Corrected', 'Recipient Deleted']);
});

subtest('resend_envelope=true: the corrected signer gets the mail again without a new address; the old link still works then', async () => {
  const envelopeId = await createEnvelope('sent', 'resend');
  const first = await linkTo('one-resend@example.com');
  const since = smtp.received.length;
  await (await sdk()).updateRecipients(env.seed.accountId, envelopeId, { resendEnvelope: 'true', recipients: { signers: [{ recipientId: '1', name: 'One Renamed' }] } });
  const again = await linkTo('one-resend@example.com', since);
  assert.notEqual(again, first);
  assert.equal((await new FormClient(env.h.origin).get(first)).status, 200, 'same address: nothing to revoke');
  // Without resend, a name alone mails nothing.
  const quiet = smtp.received.length;
  await (await sdk()).updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', name: 'One Quiet' }] } });
  const after = await env.call('GET', `/${envelopeId}/recipients`);
  assert.equal((after.json() as { signers: WireRecipient[] }).signers[0]?.name, 'One Quiet');
  // Only this envelope's address counts: other subtests' completion mails may land meanwhile.
  assert.equal(smtp.received.slice(quiet).filter((m) => toAddress(m) === 'one-resend@example.com').length, 0);
});

subtest('an embedded signer whose address is corrected loses the signing session their old view opened', async () => {
  const envelopeId = await createEnvelope('sent', 'embedded', { clientUserId: 'u-1' });
  const api = await sdk();
  const { url } = await api.createRecipientView(env.seed.accountId, envelopeId, { recipientViewRequest: { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'one-embedded@example.com', userName: 'One', clientUserId: 'u-1' } });
  const browser = new FormClient(env.h.origin);
  const redeemed = await browser.get(new URL(url).pathname);
  assert.equal(redeemed.status, 303);
  const session = String(redeemed.headers.location);
  assert.equal((await browser.get(session)).status, 200);
  await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'one-moved@example.com', clientUserId: 'u-1' }] } });
  assert.equal((await browser.get(session)).status, 404, 'the session of the old address is gone');
  // clientUserId sent back as read is accepted; changing it is refused by name.
  assert.deepEqual(await sdkFailure(api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', clientUserId: 'someone-else' }] } })), [400, 'INVALID_REQUEST_BODY']);
});

subtest('a draft: recipients corrected and deleted with their tabs, no mail; what updateRecipients does not change is refused by name, nothing half-written', async () => {
  const envelopeId = await createEnvelope('created', 'draft');
  const api = await sdk();
  const since = smtp.received.length;
  await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '2', routingOrder: '5', firstName: 'Dora', lastName: 'Draft' }], carbonCopies: [{ recipientId: '3', email: 'cc2-draft@example.com' }] } });
  assert.deepEqual(await recipientsOf(envelopeId), [['1', 'One', 'one-draft@example.com', '1', 'created'], ['2', 'Dora Draft', 'two-draft@example.com', '5', 'created'], ['3', 'Copy', 'cc2-draft@example.com', '3', 'created']]);
  for (const [recipients, code] of [
    [{ signers: [{ recipientId: '1', tabs: { signHereTabs: [signHere] } }] }, 'INVALID_REQUEST_BODY'],
    // An access code is corrected for who opens a page (domain/envelope/correct-recipients.ts); a carbon copy opens none.
    [{ carbonCopies: [{ recipientId: '3', accessCode: '1234' }] }, 'INVALID_REQUEST_BODY'],
    [{ signers: [{ recipientId: '1', phoneAuthentication: { recipMayProvideNumber: 'true' } }] }, 'INVALID_REQUEST_BODY'],
    [{ signers: [{ recipientId: '1', email: 'not an address' }] }, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT'],
    [{ signers: [{ recipientId: '9', name: 'Nobody' }] }, 'UNKNOWN_ENVELOPE_RECIPIENT'],
    [{ carbonCopies: [{ recipientId: '1', name: 'Now a copy' }] }, 'INVALID_REQUEST_BODY'],
    [{ signers: [{ recipientId: '1', name: 'A' }, { recipientId: '1', name: 'B' }] }, 'INVALID_REQUEST_BODY'],
    [{ editors: [{ recipientId: '1', name: 'Ed' }] }, 'INVALID_REQUEST_BODY'],
    // Beside a signer, an agent's list is refused by name, never dropped.
    [{ signers: [{ recipientId: '1', name: 'One' }], agents: [{ recipientId: '1', name: 'Ada' }] }, 'INVALID_REQUEST_BODY'],
    // One good correction beside a bad one: neither is applied.
    [{ signers: [{ recipientId: '1', name: 'Half' }, { recipientId: '9', name: 'Nobody' }] }, 'UNKNOWN_ENVELOPE_RECIPIENT'],
  ] as const) assert.deepEqual(await sdkFailure(api.updateRecipients(env.seed.accountId, envelopeId, { recipients })), [400, code], JSON.stringify(recipients));
  assert.deepEqual(await sdkFailure(api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', name: 'X' }] }, offlineSigning: 'true' } as never)), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.equal((await recipientsOf(envelopeId))[0]?.[1], 'One');

  const deleted = await api.deleteRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '2' }], carbonCopies: [{ recipientId: '3' }] } });
  assert.deepEqual([deleted.signers?.map((r) => r.recipientId), deleted.carbonCopies?.map((r) => r.recipientId)], [['2'], ['3']]);
  assert.deepEqual((await recipientsOf(envelopeId)).map((r) => r[0]), ['1']);
  assert.deepEqual(await sdkFailure(api.listTabs(env.seed.accountId, envelopeId, '2')), [400, 'UNKNOWN_ENVELOPE_RECIPIENT']);
  const rows = await env.h.store.db.kysely.selectFrom('envelope_tabs').select('recipient_id').where('envelope_id', '=', envelopeId).execute();
  assert.deepEqual(rows.map((r) => r.recipient_id), ['1']);
  assert.deepEqual(await sdkFailure(api.deleteRecipient(env.seed.accountId, envelopeId, '2')), [400, 'UNKNOWN_ENVELOPE_RECIPIENT']);
  // Counted by address: earlier subtests' mails may still be arriving.
  assert.equal(smtp.received.some((m) => /-draft@example\.com$/.test(toAddress(m))), false, 'a draft mails nobody');
  // Still a draft that sends: the one signer left gets the mail.
  await api.update(env.seed.accountId, envelopeId, { envelope: { status: 'sent' } });
  await linkTo('one-draft@example.com', since);
});

subtest('attacks: another account names the envelope; a finished or voided envelope; every signer of an envelope in process deleted', async () => {
  const envelopeId = await createEnvelope('sent', 'attack');
  const link = await linkTo('one-attack@example.com');
  const other = await secondAccount(env.h);
  const theirs = await sdk(other.token);
  for (const call of [
    () => theirs.updateRecipients(other.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'attacker@example.com' }] } }),
    () => theirs.deleteRecipient(other.accountId, envelopeId, '1'),
    () => theirs.deleteRecipients(other.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1' }] } }),
    // Their token with our account id in the path.
    () => theirs.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'attacker@example.com' }] } }),
  ]) {
    const [status] = await sdkFailure(call());
    assert.ok(status === 400 || status === 401 || status === 403, `refused (${status})`);
  }
  assert.deepEqual(await sdkFailure(theirs.updateRecipients(other.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'attacker@example.com' }] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.equal((await recipientsOf(envelopeId))[0]?.[2], 'one-attack@example.com');
  assert.equal((await new FormClient(env.h.origin).get(link)).status, 200, 'the signer\'s link still works');
  assert.equal(smtp.received.some((m) => toAddress(m) === 'attacker@example.com'), false);

  const api = await sdk();
  assert.deepEqual(await sdkFailure(api.deleteRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1' }, { recipientId: '2' }] } })), [400, 'ENVELOPE_IS_INCOMPLETE']);
  assert.deepEqual((await recipientsOf(envelopeId)).map((r) => r[0]), ['1', '2', '3']);

  await api.update(env.seed.accountId, envelopeId, { envelope: { status: 'voided', voidedReason: 'test' } });
  assert.deepEqual(await sdkFailure(api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', email: 'late@example.com' }] } })), [400, 'ENVELOPE_INVALID_STATUS']);
  assert.deepEqual(await sdkFailure(api.deleteRecipient(env.seed.accountId, envelopeId, '2')), [400, 'ENVELOPE_INVALID_STATUS']);
});

test('recipients corrected, resent and deleted through the SDK (EnvelopesApi.updateRecipients, deleteRecipient, deleteRecipients)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Lease'));
  for (const [name, body] of subtests) await t.test(name, body);
});
