import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope, Recipient } from '../../domain/envelope/envelope.ts';
import { EsignError } from '../../errors.ts';
import { findEmbeddedSigner } from './find-embedded-signer.ts';
import { parseRecipientViewRequest } from './parse-recipient-view-request.ts';

const code = (c: string) => (err: unknown) => err instanceof EsignError && err.code === c;

test('parseRecipientViewRequest takes the SDK body (ids as numbers or strings) and requires returnUrl (clientUserId: findEmbeddedSigner)', () => {
  const req = parseRecipientViewRequest({ returnUrl: 'http://localhost:3000/ds-return?state=123', authenticationMethod: 'none', email: 'signer@example.com', userName: 'Sam Signer', clientUserId: 1001, pingFrequency: 600 });
  assert.deepEqual(req, { returnUrl: 'http://localhost:3000/ds-return?state=123', clientUserId: '1001', userName: 'Sam Signer', email: 'signer@example.com', authenticationMethod: 'none' });
  assert.throws(() => parseRecipientViewRequest({ clientUserId: '1', recipientId: '1' }), code('INVALID_REQUEST_PARAMETER'));
  assert.throws(() => parseRecipientViewRequest({ returnUrl: 'javascript:alert(1)', clientUserId: '1', recipientId: '1' }), code('INVALID_REQUEST_PARAMETER'));
  // Without clientUserId the request is read (an in-person host's view); findEmbeddedSigner decides.
  assert.deepEqual(parseRecipientViewRequest({ returnUrl: 'https://a.example/', recipientId: '1' }), { returnUrl: 'https://a.example/', recipientId: '1' });
  assert.throws(() => parseRecipientViewRequest({ returnUrl: 'https://a.example/', clientUserId: '1', email: 'x@example.com' }), code('UNKNOWN_ENVELOPE_RECIPIENT'));
  assert.throws(() => parseRecipientViewRequest([]), code('INVALID_REQUEST_BODY'));
});

function signer(over: Partial<Recipient>): Recipient {
  return { recipientId: '1', recipientIdGuid: 'g', type: 'signer', email: 'sam@example.com', name: 'Sam', routingOrder: 1, status: 'sent', tabs: [], ...over };
}

test('findEmbeddedSigner matches clientUserId and recipientId, or name and e-mail', () => {
  const envelope = { recipients: [signer({ clientUserId: 'c1' }), signer({ recipientId: '2', email: 'Kim@Example.com', name: 'Kim', clientUserId: 'c2' }), signer({ recipientId: '3', name: 'Lee', email: 'lee@example.com' })] } as unknown as Envelope;
  assert.equal(findEmbeddedSigner(envelope, { returnUrl: 'https://a/', clientUserId: 'c1', recipientId: '1' }).recipientId, '1');
  assert.equal(findEmbeddedSigner(envelope, { returnUrl: 'https://a/', clientUserId: 'c2', userName: 'Kim', email: 'kim@example.com' }).recipientId, '2');
  assert.throws(() => findEmbeddedSigner(envelope, { returnUrl: 'https://a/', clientUserId: 'c2', recipientId: '1' }), code('UNKNOWN_ENVELOPE_RECIPIENT'));
  // A signer without clientUserId is reached by e-mail, never through a recipient view.
  assert.throws(() => findEmbeddedSigner(envelope, { returnUrl: 'https://a/', clientUserId: 'x', recipientId: '3' }), code('UNKNOWN_ENVELOPE_RECIPIENT'));
  // Nor without a clientUserId: that is only for an in-person signer's host.
  assert.throws(() => findEmbeddedSigner(envelope, { returnUrl: 'https://a/', recipientId: '3' }), code('UNKNOWN_ENVELOPE_RECIPIENT'));
  assert.throws(() => findEmbeddedSigner(envelope, { returnUrl: 'https://a/', userName: 'Lee', email: 'lee@example.com' }), code('UNKNOWN_ENVELOPE_RECIPIENT'));
  const inPerson = { recipients: [...envelope.recipients, signer({ recipientId: '4', type: 'inPersonSigner', name: 'Ivy', email: 'host@example.com', host: { name: 'Hal', email: 'host@example.com' } })] } as unknown as Envelope;
  assert.equal(findEmbeddedSigner(inPerson, { returnUrl: 'https://a/', userName: 'Hal', email: 'HOST@example.com' }).recipientId, '4');
  assert.throws(() => findEmbeddedSigner(inPerson, { returnUrl: 'https://a/', userName: 'Ivy', email: 'host@example.com' }), code('UNKNOWN_ENVELOPE_RECIPIENT'), 'the host, not the signer, names the view');
});
