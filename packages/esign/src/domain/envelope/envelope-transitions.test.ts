import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { assertEnvelopeTransition, canTransitionEnvelope, ENVELOPE_TRANSITIONS } from './envelope-transitions.ts';
import type { EnvelopeStatus } from './envelope.ts';

const ALL = Object.keys(ENVELOPE_TRANSITIONS) as EnvelopeStatus[];

test('the envelope lifecycle allows exactly DocuSign’s transitions', () => {
  const allowed = ALL.flatMap((from) => ALL.filter((to) => canTransitionEnvelope(from, to)).map((to) => `${from}->${to}`));
  assert.deepEqual(allowed.sort(), [
    'created->sent',
    'delivered->completed', 'delivered->declined', 'delivered->signed', 'delivered->voided',
    'sent->completed', 'sent->declined', 'sent->delivered', 'sent->signed', 'sent->voided',
    'signed->completed',
  ].sort());
});

test('terminal statuses go nowhere', () => {
  for (const s of ['completed', 'declined', 'voided'] as const) assert.deepEqual(ENVELOPE_TRANSITIONS[s], []);
});

test('voiding a draft or a completed envelope is ENVELOPE_CANNOT_VOID_INVALID_STATE', () => {
  for (const from of ['created', 'completed', 'voided'] as const) {
    assert.throws(() => assertEnvelopeTransition(from, 'voided'), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_CANNOT_VOID_INVALID_STATE' && e.message.includes(from));
  }
});

test('sending twice is ENVELOPE_INVALID_STATUS', () => {
  assert.throws(() => assertEnvelopeTransition('sent', 'sent'), (e: unknown) => e instanceof EsignError && e.code === 'ENVELOPE_INVALID_STATUS');
  assert.doesNotThrow(() => assertEnvelopeTransition('created', 'sent'));
});
