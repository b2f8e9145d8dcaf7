import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draft, recipient, routingDeps, T0 } from './signing-changes.fixture.ts';
import { EsignError } from '../../errors.ts';
import type { Envelope } from '../envelope/envelope.ts';
import { sendDraft } from '../envelope/send-envelope.ts';
import { voidSent } from '../envelope/void-envelope.ts';
import { signerAccess } from './signer-access.ts';
import { declineSigning, finishSigning, markCompleted, recordView } from './signing-changes.ts';

// The clock is injected: every change is stamped with the time it is given.
const T1 = new Date('2026-01-02T03:10:00.000Z');
const T2 = new Date('2026-01-02T03:20:00.000Z');
const actor = { ipAddress: '203.0.113.9', userAgent: 'TestBrowser/1.0' };




function status(e: Envelope, id: string) {
  return e.recipients.find((r) => r.recipientId === id)?.status;
}

test('sequence: order 2 (signer and carbon copy) is reached only when order 1 has signed; the last signature makes the envelope `signed`', () => {
  const d = routingDeps();
  let e = sendDraft(d, draft([recipient('1', 'signer', 1), recipient('2', 'signer', 2), recipient('3', 'carbonCopy', 2), recipient('4', 'signer', 2, { clientUserId: 'c4' })]), T0).envelope;
  assert.equal(signerAccess(e, '2').kind, 'not-your-turn');
  assert.equal(signerAccess(e, '1').kind, 'sign');

  const view = recordView(e, '1', T1, actor);
  assert.ok(view);
  e = view.envelope;
  assert.equal(e.status, 'delivered');
  assert.deepEqual([status(e, '1'), e.recipients[0]?.deliveredAt, e.deliveredAt], ['delivered', T1, T1]);
  assert.equal(view.audit?.[0]?.action, 'Viewed');
  assert.equal(view.audit?.[0]?.ipAddress, '203.0.113.9');
  assert.equal(recordView(e, '1', T2, actor), undefined, 'a second view writes nothing');

  d.told.length = 0;
  const finish = finishSigning(d, e, '1', T2, actor);
  assert.ok(finish);
  e = finish.envelope;
  assert.deepEqual([status(e, '1'), status(e, '2'), status(e, '3'), status(e, '4')], ['completed', 'sent', 'completed', 'sent']);
  assert.equal(e.recipients[0]?.signedAt, T2);
  assert.equal(e.status, 'delivered');
  assert.equal(e.version, view.envelope.version + 1);
  // The next order's mails and tokens are in the same change as the signature.
  // Signer 4 is embedded (clientUserId): mailed nothing (recipient-kinds.ts isEmbedded).
  assert.deepEqual(d.told.map((x) => [x.recipientId, 'signingToken' in x && x.signingToken !== undefined]), [['2', true], ['3', false]]);
  assert.deepEqual(finish.signingTokens.map((t) => t.recipientId), ['2']);
  assert.deepEqual(finish.audit?.map((a) => `${a.action}:${a.recipientId}`), ['Signed:1', 'Sent:2', 'Sent:3', 'Sent:4']);

  e = finishSigning(d, e, '2', T2, actor)?.envelope ?? assert.fail('signer 2 finishes');
  assert.equal(e.status, 'delivered', 'signer 4 of the same order is still signing');
  d.told.length = 0;
  const last = finishSigning(d, e, '4', T2, actor);
  assert.equal(last?.envelope.status, 'signed');
  // The one mail an embedded signer gets: told they finished.
  assert.deepEqual(d.told.map((x) => [x.kind, x.recipientId]), [['finished-embedded', '4']]);
  assert.equal(last?.mails.length, 1);
});

test('finish and decline are idempotent; closed envelopes refuse with ENVELOPE_INVALID_STATUS', () => {
  const d = routingDeps();
  const sent = sendDraft(d, draft([recipient('1', 'signer', 1), recipient('2', 'signer', 1)]), T0).envelope;
  const signed = finishSigning(d, sent, '1', T1, actor)?.envelope ?? assert.fail();
  assert.equal(finishSigning(d, signed, '1', T2, actor), undefined, 'a second finish is a no-op');
  assert.equal(signerAccess(signed, '1').kind, 'finished');

  const declined = declineSigning(signed, '2', '  Wrong amount  ', T2, actor);
  assert.ok(declined);
  assert.equal(declined.envelope.status, 'declined');
  assert.equal(declined.envelope.declinedAt, T2);
  assert.equal(declined.envelope.recipients[1]?.declinedReason, 'Wrong amount');
  assert.equal(declineSigning(declined.envelope, '2', 'again', T2, actor), undefined);
  assert.deepEqual(signerAccess(declined.envelope, '1'), { kind: 'declined', recipient: declined.envelope.recipients[0], byThisSigner: false });
  assert.throws(() => finishSigning(d, declined.envelope, '1', T2, actor), (err: unknown) => err instanceof EsignError && err.code === 'ENVELOPE_INVALID_STATUS');
  assert.throws(() => declineSigning(sent, '2', '   ', T2, actor), (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_PARAMETER');
  const voided = { ...sent, status: 'voided' as const, voidedReason: 'Sent by mistake' };
  assert.deepEqual(signerAccess(voided, '1'), { kind: 'voided', recipient: voided.recipients[0], reason: 'Sent by mistake' });
  assert.equal(signerAccess(sent, 'nobody').kind, 'unknown-recipient');
});

test('markCompleted turns `signed` into `completed` once, with its mails and one audit line', () => {
  const d = routingDeps();
  const sent = sendDraft(d, draft([recipient('1', 'signer', 1)]), T0).envelope;
  const signed = finishSigning(d, sent, '1', T1, actor)?.envelope ?? assert.fail();
  const done = markCompleted(signed, T2, { mails: [], signingTokens: [] });
  assert.equal(done?.envelope.status, 'completed');
  assert.equal(done?.envelope.completedAt, T2);
  assert.deepEqual(done?.audit?.map((a) => a.action), ['Completed']);
  assert.equal(markCompleted(done.envelope, T2, { mails: [], signingTokens: [] }), undefined);
  assert.equal(markCompleted(sent, T2, { mails: [], signingTokens: [] }), undefined);
});

test('sending and voiding write their audit lines in the same change', () => {
  const d = routingDeps();
  const sent = sendDraft(d, draft([recipient('1', 'signer', 1), recipient('2', 'carbonCopy', 1)]), T0);
  assert.deepEqual(sent.audit?.map((a) => `${a.action}:${a.recipientId}:${a.source}`), ['Sent:1:api', 'Sent:2:api']);
  const voided = voidSent(d, sent.envelope, 'Wrong file', T1);
  assert.deepEqual(voided.audit?.map((a) => [a.action, a.envelopeStatus, a.at]), [['Voided', 'voided', T1]]);
  assert.match(voided.audit?.[0]?.message ?? '', /Wrong file/);
});
