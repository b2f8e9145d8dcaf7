import type { WireReader } from './wire-reader.ts';
import { CONNECT_EVENTS, findSubscribableEvent, LEGACY_ENVELOPE_EVENTS, LEGACY_RECIPIENT_EVENTS, type SubscribableEvent } from '../domain/connect/connect-events.ts';
import type { EventSubscription } from '../domain/connect/event-subscription.ts';

// A listener URL longer than this is not a listener (DocuSign's own limit is not published).
export const MAX_LISTENER_URL = 2048;
const INCLUDE_DATA = ['custom_fields', 'documents', 'extensions', 'attachments', 'folders', 'payment_tabs', 'powerform', 'prefill_tabs', 'recipients', 'tabs'];

/** A legacy status code read from a string or from `{<field>: code}`. */
function legacy(item: WireReader, field: string, table: Readonly<Record<string, SubscribableEvent>>): SubscribableEvent {
  const code = (typeof item.value === 'object' ? item.field(field) : item).string(64);
  return table[code.toLowerCase()] ?? item.fail(`"${code}" is not a status code Connect publishes (${Object.keys(table).join(', ')}).`);
}

/**
 * The subscription part shared by EventNotification and ConnectCustomConfiguration: `events`
 * (SIM names), the legacy `envelopeEvents`/`recipientEvents` (objects in EventNotification,
 * plain strings in configurations), `eventData`, and the include flags. At least one event
 * is required. `url` is read by the caller, which knows the field's name.
 */
export function readSubscription(r: WireReader, url: string, ackField: 'requireAcknowledgment' | 'requiresAcknowledgement'): EventSubscription {
  const events = new Set<SubscribableEvent>();
  for (const item of r.field('events').items()) {
    const name = item.string(64);
    // Any of DocuSign's names is accepted (those this service never publishes just never fire);
    // anything else is a typo the listener would wait for forever.
    events.add(findSubscribableEvent(name) ?? item.fail(`"${name}" is not a DocuSign Connect event (this service publishes ${CONNECT_EVENTS.join(', ')}).`));
  }
  for (const item of r.field('envelopeEvents').items()) events.add(legacy(item, 'envelopeEventStatusCode', LEGACY_ENVELOPE_EVENTS));
  for (const item of r.field('recipientEvents').items()) events.add(legacy(item, 'recipientEventStatusCode', LEGACY_RECIPIENT_EVENTS));
  if (events.size === 0) r.fail('names no events: set events (e.g. "envelope-completed"), envelopeEvents or recipientEvents.');

  const eventData = r.field('eventData');
  const format = eventData.field('format').optionalString(16)?.toLowerCase();
  // Only the JSON SIM format is implemented; XML messages are not.
  if (format !== undefined && format !== 'json') eventData.field('format').fail('must be "json" (the JSON SIM format is the one this service sends).');
  // SIM (one message per event) is the only mode; "aggregate" messages have another shape.
  const deliveryMode = r.field('deliveryMode').optionalString(16)?.toLowerCase();
  if (deliveryMode !== undefined && deliveryMode !== 'sim') r.field('deliveryMode').fail('must be "SIM" (one JSON message per event is what this service sends).');
  if (r.field('useSoapInterface').boolean(false)) r.field('useSoapInterface').fail('must be false: SOAP delivery is not supported.');
  const includeData = eventData.field('includeData').items().map((item) => {
    const name = item.string(32).toLowerCase();
    if (!INCLUDE_DATA.includes(name)) item.fail(`must be one of ${INCLUDE_DATA.join(', ')}, got "${name}".`);
    return name;
  });
  return {
    url,
    events: [...events],
    includeHMAC: r.field('includeHMAC').boolean(false),
    includeDocuments: r.field('includeDocuments').boolean(false),
    includeData,
    requireAcknowledgment: r.field(ackField).boolean(false),
  };
}

/**
 * Reads an EnvelopeDefinition's `eventNotification` (docusign-esign src/model/EventNotification.js),
 * undefined when absent. The URL is checked here only for shape; the SSRF rules need the
 * service's settings and a DNS lookup, and run in the route (connect/assert-listener).
 */
export function parseEventNotification(r: WireReader): EventSubscription | undefined {
  if (!r.present) return undefined;
  if (r.object() === undefined) r.fail('must be an EventNotification object.');
  const url = r.field('url').string(MAX_LISTENER_URL);
  if (!URL.canParse(url)) r.field('url').fail(`must be an absolute URL, got "${url}".`);
  return readSubscription(r, url, 'requireAcknowledgment');
}
