/**
 * The Connect event vocabulary (DocuSign "Webhook event triggers"; docs/esign-connect.md, "When events happen"):
 * the `events` names of the JSON SIM format, and the legacy `envelopeEvents`/`recipientEvents`
 * status codes that name the same events in older EventNotification and
 * ConnectCustomConfiguration bodies.
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

/** One Connect event this service publishes, as DocuSign spells it in `event` of a SIM message. */
export type ConnectEvent = (typeof CONNECT_EVENTS)[number];

/**
 * The other event names DocuSign publishes. A subscription may name them (integrations send
 * DocuSign's whole list, and a 400 would fail their createEnvelope), but nothing here ever
 * happens that would publish one: there is no correction, purge, delegation, Click, template
 * event or recipient authentication in this service.
 */
export const UNPUBLISHED_EVENTS = [
  'envelope-created',
  'envelope-resent',
  'envelope-corrected',
  'envelope-purge',
  'envelope-deleted',
  'envelope-discard',
  'envelope-removed',
  'recipient-authenticationfailed',
  'recipient-resent',
  'recipient-delegate',
  'recipient-reassign',
  'recipient-finish-later',
  'template-created',
  'template-modified',
  'template-deleted',
  'click-agreed',
  'click-declined',
  'identity-verification-completed',
  'identity-verification-pending',
  'sms-opt-in',
  'sms-opt-out',
] as const;

/** Any DocuSign event name a subscription may list (the ones published here, or not). */
export type SubscribableEvent = ConnectEvent | (typeof UNPUBLISHED_EVENTS)[number];

/** Is `name` (any case) one of the events this service publishes? */
export function findConnectEvent(name: string): ConnectEvent | undefined {
  const lower = name.toLowerCase();
  return CONNECT_EVENTS.find((e) => e === lower);
}

/** Is `name` (any case) an event DocuSign publishes, here or not? */
export function findSubscribableEvent(name: string): SubscribableEvent | undefined {
  const lower = name.toLowerCase();
  return findConnectEvent(lower) ?? UNPUBLISHED_EVENTS.find((e) => e === lower);
}

/**
 * Legacy EnvelopeEvent.envelopeEventStatusCode values (DocuSign's EnvelopeEvent model: Sent,
 * Delivered, Completed, Declined, Voided), compared case-insensitively.
 */
export const LEGACY_ENVELOPE_EVENTS: Readonly<Record<string, SubscribableEvent>> = {
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
export const LEGACY_RECIPIENT_EVENTS: Readonly<Record<string, SubscribableEvent>> = {
  sent: 'recipient-sent',
  delivered: 'recipient-delivered',
  completed: 'recipient-completed',
  declined: 'recipient-declined',
  autoresponded: 'recipient-autoresponded',
  authenticationfailed: 'recipient-authenticationfailed',
};
