import { assertSendable } from './assert-sendable.ts';
import { assertEnvelopeTransition } from './envelope-transitions.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { advanceRouting, currentRoutingOrder } from './routing.ts';
import { notifyReached } from './signing-links.ts';
import { updateEnvelope } from './update-envelope.ts';

/**
 * The pure part of sending: the envelope becomes `sent`, the first routing order is reached,
 * each reached signer gets a fresh signing token (stored hashed) and everyone reached a mail.
 */
export function sendDraft(deps: Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>, envelope: Envelope, now: Date): EnvelopeChange {
  assertEnvelopeTransition(envelope.status, 'sent');
  assertSendable(envelope);
  const sent: Envelope = { ...envelope, status: 'sent', sentAt: now, statusChangedAt: now, version: envelope.version + 1 };
  const { envelope: after, reached } = advanceRouting(sent, now);
  // Nobody left to wait for (carbon copies only): straight to `signed`, which the completion
  // worker seals into `completed`, as finishSigning does after the last signer. Left `sent`, such
  // an envelope would wait forever for a signer it does not have.
  const routed: Envelope = currentRoutingOrder(after.recipients) === undefined ? { ...after, status: 'signed' } : after;
  const { mails, signingTokens } = notifyReached(deps, routed, reached, now);
  // The audit trail's first line; one per recipient reached, as DocuSign lists them.
  const audit = reached.map((r) => ({ envelopeId: envelope.envelopeId, at: now, action: 'Sent' as const, envelopeStatus: routed.status, source: 'api' as const, name: r.name, email: r.email, recipientId: r.recipientId, message: `Sent to ${r.name} <${r.email}> (routing order ${r.routingOrder}).` }));
  return { envelope: routed, signingTokens, mails, audit };
}

/** DocuSign Envelopes::update {status:"sent"}: sends a draft. */
export function sendEnvelope(deps: EnvelopeDeps, accountId: string, envelopeId: string): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => sendDraft(deps, current, deps.clock()));
}
