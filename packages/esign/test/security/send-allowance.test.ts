// An open sign-up made a mail relay: any account could send 100 recipients an envelope per
// call, 3,000 calls an hour, and resend each as often, every mail carrying the sender's subject
// and blurb from this service's address. An account's sends, resends and corrections now reach
// at most SEND_ALLOWANCE recipients by e-mail in 24 hours (DocuSign's ENVELOPE_ALLOWANCE_EXCEEDED
// past it), counted in the database in the send's own transaction: refused means nothing sent.
// Invitations to join the account spend the same allowance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'undici';
import type { DocumentText } from '@signet/pdf';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, type Harness, type SeededUser } from '../support/esign-harness.ts';

async function tokenFor(h: Harness, seed: SeededUser): Promise<string> {
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  return ((await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string }).access_token;
}

test('an account reaches at most SEND_ALLOWANCE recipients in 24 hours: sends, resends, corrections, added recipients, invitations and bulk batches spend it, embedded signers and drafts do not', async (t) => {
  const onePage = (pdfs: readonly Uint8Array[]): Promise<DocumentText[]> => Promise.resolve(pdfs.map((_, documentIndex) => ({ documentIndex, pages: [{ pageNumber: 1, width: 612, height: 792, runs: [] }] })));
  const h = await startEsign(t, {
    settings: { SEND_ALLOWANCE: '6' },
    deps: { converter: { convert: ({ bytes }) => Promise.resolve(bytes), extractText: onePage, readFormFields: () => Promise.resolve([]), removeFormFields: (pdf) => Promise.resolve(pdf) } },
  });
  const [seedA, seedB] = [await seedUserAndApp(h), await seedUserAndApp(h)];
  const a = { accountId: seedA.accountId, token: await tokenFor(h, seedA) };
  const b = { accountId: seedB.accountId, token: await tokenFor(h, seedB) };
  const call = async (who: { accountId: string; token: string }, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const res = await request(`${h.origin}/restapi/v2.1/accounts/${who.accountId}${path}`, { method, headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };
  const signer = (id: string, email: string, extra: Record<string, unknown> = {}) => ({ recipientId: id, routingOrder: '1', name: `Signer ${id}`, email, tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] }, ...extra });
  const envelope = (status: string, signers: unknown[], carbonCopies: unknown[] = []) => ({
    emailSubject: 'Please sign', status, documents: [{ documentId: '1', name: 'Doc.pdf', documentBase64: Buffer.from('%PDF-1.4 test').toString('base64') }],
    recipients: { signers, carbonCopies },
  });
  const mails = async () => Number((await h.store.db.kysely.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const envelopes = async (who: { accountId: string }) => Number((await h.store.db.kysely.selectFrom('envelopes').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', who.accountId).executeTakeFirstOrThrow()).n);

  // Two signers in order 1 and a carbon copy in order 2: all three count at the send, though only two are mailed now.
  const first = await call(a, 'POST', '/envelopes', envelope('sent', [signer('1', 's1@example.com'), signer('2', 's2@example.com')], [{ recipientId: '3', routingOrder: '2', name: 'Copy', email: 'cc@example.com' }]));
  assert.equal(first.status, 201, JSON.stringify(first.json));
  const firstId = String(first.json.envelopeId);
  // An embedded signer gets no mail: it spends nothing.
  assert.equal((await call(a, 'POST', '/envelopes', envelope('sent', [signer('1', 'kiosk@example.com', { clientUserId: 'k1' })]))).status, 201);
  // A draft spends nothing until it is sent.
  const draft = await call(a, 'POST', '/envelopes', envelope('created', [signer('1', 'd1@example.com'), signer('2', 'd2@example.com')]));
  assert.equal(draft.status, 201);

  // A resend mails the two pending signers again: 5 of 6.
  assert.equal((await call(a, 'PUT', `/envelopes/${firstId}?resend_envelope=true`, {})).status, 200);
  const before = { mails: await mails(), envelopes: await envelopes(a) };

  // Three more would make 8: refused, and nothing of it is kept or mailed.
  const over = await call(a, 'POST', '/envelopes', envelope('sent', [signer('1', 'v1@example.com'), signer('2', 'v2@example.com'), signer('3', 'v3@example.com')]));
  assert.equal(over.status, 400);
  assert.equal(over.json.errorCode, 'ENVELOPE_ALLOWANCE_EXCEEDED');
  assert.match(String(over.json.message), /may reach 6 recipients by e-mail in 24 hours and has reached 5; this change would reach 3 more/);
  // Sending the draft (2) is refused too, and it stays a draft.
  const sendDraft = await call(a, 'PUT', `/envelopes/${String(draft.json.envelopeId)}`, { status: 'sent' });
  assert.equal(sendDraft.json.errorCode, 'ENVELOPE_ALLOWANCE_EXCEEDED');
  assert.equal((await call(a, 'GET', `/envelopes/${String(draft.json.envelopeId)}`)).json.status, 'created');
  // A second resend (2) and a correction to a new address (1 would fit: it is the 6th).
  assert.equal((await call(a, 'PUT', `/envelopes/${firstId}?resend_envelope=true`, {})).json.errorCode, 'ENVELOPE_ALLOWANCE_EXCEEDED');
  const corrected = await call(a, 'PUT', `/envelopes/${firstId}/recipients`, { signers: [{ recipientId: '2', email: 'other@example.com' }] });
  assert.equal(corrected.status, 200, JSON.stringify(corrected.json));
  // Adding a recipient to the envelope in process is a 7th: refused.
  const added = await call(a, 'POST', `/envelopes/${firstId}/recipients`, { signers: [signer('4', 'late@example.com', { routingOrder: '2' })] });
  assert.equal(added.json.errorCode, 'ENVELOPE_ALLOWANCE_EXCEEDED');
  assert.equal(((await call(a, 'GET', `/envelopes/${firstId}/recipients`)).json.signers as unknown[]).length, 2, 'the refused addition left the recipients as they were');
  assert.equal(await envelopes(a), before.envelopes, 'no refused envelope was stored');
  assert.equal(await mails(), before.mails + 1, 'only the correction was mailed');

  // The account next door has its own allowance.
  assert.equal((await call(b, 'POST', '/envelopes', envelope('sent', [signer('1', 'b1@example.com'), signer('2', 'b2@example.com'), signer('3', 'b3@example.com')]))).status, 201);

  // Invitations to the account are mails too: 3 of B's 6 are left, so 4 new users are refused (none is made), 3 are invited.
  const invite = (n: number) => call(b, 'POST', '/users', { newUsers: Array.from({ length: n }, (_, i) => ({ userName: `User ${n}-${i}`, email: `invitee-${n}-${i}@example.com` })) });
  const four = await invite(4);
  assert.equal(four.json.errorCode, 'ENVELOPE_ALLOWANCE_EXCEEDED', JSON.stringify(four.json));
  assert.equal((await h.store.db.kysely.selectFrom('users').select('id').where('email', 'like', 'invitee-4-%').execute()).length, 0);
  assert.equal((await invite(3)).status, 201);

  // A bulk batch is checked against what is left before anything is queued: one that cannot go
  // out is refused whole at submit (the test request says why) instead of failing row by row.
  const seedC = await seedUserAndApp(h);
  const c = { accountId: seedC.accountId, token: await tokenFor(h, seedC) };
  assert.equal((await call(c, 'POST', '/envelopes', envelope('sent', [signer('1', 'c1@example.com'), signer('2', 'c2@example.com')]))).status, 201);
  const bulkDraft = String((await call(c, 'POST', '/envelopes', envelope('created', [signer('1', 'placeholder@example.com', { roleName: 'signer' })]))).json.envelopeId);
  const bulkList = async (n: number, embedded: number) => {
    const bulkCopies = Array.from({ length: n }, (_, i) => ({ recipients: [{ roleName: 'signer', name: `Copy ${i}`, email: `copy-${n}-${embedded}-${i}@example.com`, ...(i < embedded ? { clientUserId: `kiosk-${i}` } : {}) }] }));
    const created = await call(c, 'POST', '/bulk_send_lists', { name: `${n} copies`, bulkCopies });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    return String(created.json.listId);
  };
  const five = await bulkList(5, 0);
  const tested = await call(c, 'POST', `/bulk_send_lists/${five}/test`, { envelopeOrTemplateId: bulkDraft });
  assert.equal(tested.json.canBeSent, false);
  assert.match(JSON.stringify(tested.json.validationErrorDetails), /would reach 5 recipients by e-mail; this account may reach 4 more in the next 24 hours/);
  const refusedBatch = await call(c, 'POST', `/bulk_send_lists/${five}/send`, { envelopeOrTemplateId: bulkDraft });
  assert.equal(refusedBatch.status, 400);
  assert.equal(refusedBatch.json.errorCode, 'ENVELOPE_ALLOWANCE_EXCEEDED');
  assert.match(String(refusedBatch.json.message), /Nothing was queued/);
  assert.equal((await h.store.db.kysely.selectFrom('bulk_send_batches').select('id').where('account_id', '=', c.accountId).execute()).length, 0, 'no batch was queued');
  // Five copies, one of them embedded (no mail): four reach the inbox, which fits.
  const mixed = await bulkList(5, 1);
  assert.equal((await call(c, 'POST', `/bulk_send_lists/${mixed}/test`, { envelopeOrTemplateId: bulkDraft })).json.canBeSent, true);
  const queued = await call(c, 'POST', `/bulk_send_lists/${mixed}/send`, { envelopeOrTemplateId: bulkDraft });
  assert.equal(queued.status, 201, JSON.stringify(queued.json));
  assert.equal(queued.json.batchSize, '5');

  // A day later the first hour's spend has left the window (the token has expired by then: a new one).
  h.clock.advance(24 * 3600);
  a.token = await tokenFor(h, seedA);
  assert.equal((await call(a, 'PUT', `/envelopes/${String(draft.json.envelopeId)}`, { status: 'sent' })).status, 200);
});
