/**
 * The Connect event vocabulary (compat/esign-wire.md §6.8): the `events` names of the JSON SIM
 * format, and the legacy `envelopeEvents`/`recipientEvents` status codes that name the same
 * events in older EventNotification and ConnectCustomConfiguration bodies.
 */
export const CONNECT_EVENTS = [
  'envelope-sent',
  'envelope-delivered',
  'envelope-completed',
  'envelope-declined',
  'envelope-voided',
  'recipient-sent',
  'recipient-delivered',
  'recipient-completed',
  'recipient-declined',
  'recipient-autoresponded',
] as const;

/** One Connect event name, as DocuSign spells it in `event` of a SIM message. */
export type ConnectEvent = (typeof CONNECT_EVENTS)[number];

/** Is `name` (any case) one of the events this service publishes? */
export function findConnectEvent(name: string): ConnectEvent | undefined {
  const lower = name.toLowerCase();
  return CONNECT_EVENTS.find((e) => e === lower);
}

/**
 * Legacy EnvelopeEvent.envelopeEventStatusCode values (DocuSign's EnvelopeEvent model: Sent,
 * Delivered, Completed, Declined, Voided), compared case-insensitively.
 */
export const LEGACY_ENVELOPE_EVENTS: Readonly<Record<string, ConnectEvent>> = {
  sent: 'envelope-sent',
  delivered: 'envelope-delivered',
  completed: 'envelope-completed',
  declined: 'envelope-declined',
  voided: 'envelope-voided',
};

/**
 * Legacy RecipientEvent.recipientEventStatusCode values (Sent, Delivered, Completed, Declined,
 * AuthenticationFailed, AutoResponded). AuthenticationFailed is accepted but never fires here:
 * this service has no recipient authentication to fail.
 */
export const LEGACY_RECIPIENT_EVENTS: Readonly<Record<string, ConnectEvent | undefined>> = {
  sent: 'recipient-sent',
  delivered: 'recipient-delivered',
  completed: 'recipient-completed',
  declined: 'recipient-declined',
  autoresponded: 'recipient-autoresponded',
  authenticationfailed: undefined,
};
