import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EnvelopeStatus, RecipientStatus } from '../envelope/envelope.ts';
import { deriveConnectEvents, type EnvelopeStatuses } from './derive-connect-events.ts';

const at = (status: EnvelopeStatus, ...recipients: RecipientStatus[]): EnvelopeStatuses => ({ status, recipients: recipients.map((s, i) => ({ recipientId: String(i + 1), status: s })) });

// A full life: two signers in routing order and a carbon copy reached with the second.
const CASES: { name: string; before: EnvelopeStatuses | undefined; after: EnvelopeStatuses; events: string[] }[] = [
  { name: 'a draft publishes nothing', before: undefined, after: at('created', 'created', 'created'), events: [] },
  { name: 'create and send: envelope-sent, then recipient-sent for the first routing order', before: undefined, after: at('sent', 'sent', 'created', 'created'), events: ['envelope-sent', 'recipient-sent:1'] },
  { name: 'sending a draft', before: at('created', 'created'), after: at('sent', 'sent'), events: ['envelope-sent', 'recipient-sent:1'] },
  { name: 'the first signer opens the link', before: at('sent', 'sent', 'created', 'created'), after: at('sent', 'delivered', 'created', 'created'), events: ['recipient-delivered:1'] },
  { name: 'the first signer finishes; order 2 reached (signer sent, copy completed)', before: at('sent', 'delivered', 'created', 'created'), after: at('sent', 'completed', 'sent', 'completed'), events: ['recipient-completed:1', 'recipient-sent:2', 'recipient-completed:3'] },
  { name: 'everyone has viewed: envelope-delivered after the recipient event', before: at('sent', 'completed', 'sent', 'completed'), after: at('delivered', 'completed', 'delivered', 'completed'), events: ['recipient-delivered:2', 'envelope-delivered'] },
  { name: 'the last signer finishes: signed publishes no envelope event', before: at('delivered', 'completed', 'delivered', 'completed'), after: at('signed', 'completed', 'signed', 'completed'), events: ['recipient-completed:2'] },
  { name: 'sealing completes it: envelope-completed only (signed → completed is the same recipient stage)', before: at('signed', 'completed', 'signed', 'completed'), after: at('completed', 'completed', 'completed', 'completed'), events: ['envelope-completed'] },
  { name: 'a decline: recipient-declined then envelope-declined', before: at('sent', 'delivered'), after: at('declined', 'declined'), events: ['recipient-declined:1', 'envelope-declined'] },
  { name: 'a void', before: at('sent', 'sent'), after: at('voided', 'sent'), events: ['envelope-voided'] },
  { name: 'an unchanged envelope (idempotent retry) publishes nothing', before: at('sent', 'sent'), after: at('sent', 'sent'), events: [] },
  { name: 'an auto-responded mail', before: at('sent', 'sent'), after: at('sent', 'autoresponded'), events: ['recipient-autoresponded:1'] },
];

for (const c of CASES) {
  test(`deriveConnectEvents: ${c.name}`, () => {
    const got = deriveConnectEvents(c.before, c.after).map((o) => (o.recipientId ? `${o.event}:${o.recipientId}` : o.event));
    assert.deepEqual(got, c.events);
  });
}
