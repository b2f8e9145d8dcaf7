import type { EnvelopeStatus, RecipientStatus } from '../envelope/envelope.ts';
import type { ConnectEvent } from './connect-events.ts';

/** The statuses an event is derived from: the stored envelope before a change, or after it. */
export type EnvelopeStatuses = {
  readonly status: EnvelopeStatus;
  readonly recipients: readonly { readonly recipientId: string; readonly status: RecipientStatus }[];
};

/** One event that happened in a change; `recipientId` is set for recipient-* events. */
export type ConnectOccurrence = { readonly event: ConnectEvent; readonly recipientId?: string };

const ENVELOPE_EVENT: Partial<Record<EnvelopeStatus, ConnectEvent>> = {
  sent: 'envelope-sent',
  delivered: 'envelope-delivered',
  completed: 'envelope-completed',
  declined: 'envelope-declined',
  voided: 'envelope-voided',
};

/**
 * A recipient's status mapped to the event that reaching it publishes. `signed` and
 * `completed` are both "finished their part" (DocuSign's recipient-completed); a signer goes
 * through one of them once, a carbon copy goes to `completed` when reached.
 */
function recipientStage(status: RecipientStatus): ConnectEvent | undefined {
  switch (status) {
    case 'sent': return 'recipient-sent';
    case 'delivered': return 'recipient-delivered';
    case 'signed':
    case 'completed': return 'recipient-completed';
    case 'declined': return 'recipient-declined';
    case 'autoresponded': return 'recipient-autoresponded';
    default: return undefined;
  }
}

/**
 * The Connect events one envelope change publishes, derived from the statuses before
 * (undefined for a new envelope) and after it. Order follows DocuSign's SIM mode: a send
 * publishes envelope-sent before the recipients' recipient-sent; any other change publishes
 * the recipients' events first, then the envelope's ("a single Recipient: complete event
 * followed by a single Envelope: complete event", ConnectConfigurations resource docs).
 * A status that does not change publishes nothing, so a retried or idempotent change is silent.
 */
export function deriveConnectEvents(before: EnvelopeStatuses | undefined, after: EnvelopeStatuses): ConnectOccurrence[] {
  const envelopeEvent = before?.status === after.status ? undefined : ENVELOPE_EVENT[after.status];
  const recipientEvents: ConnectOccurrence[] = [];
  for (const r of after.recipients) {
    const stage = recipientStage(r.status);
    if (stage === undefined) continue;
    const previous = before?.recipients.find((p) => p.recipientId === r.recipientId)?.status;
    if (previous !== undefined && recipientStage(previous) === stage) continue;
    recipientEvents.push({ event: stage, recipientId: r.recipientId });
  }
  if (envelopeEvent === undefined) return recipientEvents;
  return envelopeEvent === 'envelope-sent' ? [{ event: envelopeEvent }, ...recipientEvents] : [...recipientEvents, { event: envelopeEvent }];
}
