import type { ConnectDeliveryRow } from '../store/connect-tables.ts';
import { toDocuSignDateTime } from '../wire/docusign-date-time.ts';
import { LEGACY_ENVELOPE_EVENTS, LEGACY_RECIPIENT_EVENTS } from '../domain/connect/connect-events.ts';
import type { ConnectConfiguration } from '../domain/connect/event-subscription.ts';

// Wire shapes of the docusign-esign models (all scalars are strings: docusign-esign src/model/ConnectCustomConfiguration.js and siblings).
export type WireConnectCustomConfiguration = Record<string, string | string[] | Record<string, string | string[]>>;
export type WireConnectLog = Record<string, string>;

const bool = (b: boolean) => (b ? 'true' : 'false');

// DocuSign's spelling of the legacy codes (the tables are keyed in lower case).
const CODE_SPELLING: Readonly<Record<string, string>> = { autoresponded: 'AutoResponded', authenticationfailed: 'AuthenticationFailed' };

/** The legacy status codes that name the same events (DocuSign lists both in a configuration). */
function legacyCodes(events: readonly string[], table: Readonly<Record<string, string>>): string[] {
  return Object.entries(table).filter(([, e]) => events.includes(e)).map(([code]) => CODE_SPELLING[code] ?? code.charAt(0).toUpperCase() + code.slice(1));
}

/** ConnectCustomConfiguration. */
export function toWireConnectConfiguration(c: ConnectConfiguration): WireConnectCustomConfiguration {
  return {
    connectId: c.connectId,
    configurationType: 'custom',
    name: c.name,
    urlToPublishTo: c.url,
    allowEnvelopePublish: bool(c.enabled),
    allUsers: bool(c.allUsers),
    userIds: [...c.userIds],
    deliveryMode: 'SIM',
    events: [...c.events],
    envelopeEvents: legacyCodes(c.events, LEGACY_ENVELOPE_EVENTS),
    recipientEvents: legacyCodes(c.events, LEGACY_RECIPIENT_EVENTS),
    eventData: { format: 'json', version: 'restv2.1', includeData: [...c.includeData] },
    includeHMAC: bool(c.includeHMAC),
    includeDocuments: bool(c.includeDocuments),
    requiresAcknowledgement: bool(c.requireAcknowledgment),
  };
}

/** ConnectConfigResults. */
export function toWireConnectConfigResults(configurations: readonly ConnectConfiguration[]): { configurations: WireConnectCustomConfiguration[]; totalRecords: string } {
  return { configurations: configurations.map(toWireConnectConfiguration), totalRecords: String(configurations.length) };
}

/**
 * ConnectLog, for the failure log: one failed delivery. `status` says whether it is still
 * being retried ("retrying") or was given up ("failed"); `retryCount` counts the attempts made.
 */
export function toWireConnectFailure(row: ConnectDeliveryRow): WireConnectLog {
  return {
    failureId: row.id,
    accountId: row.account_id,
    envelopeId: row.envelope_id,
    connectId: row.configuration_id,
    configUrl: row.url,
    created: toDocuSignDateTime(new Date(row.created_at)),
    ...(row.last_attempt_at !== null ? { lastTry: toDocuSignDateTime(new Date(row.last_attempt_at)) } : {}),
    retryCount: String(row.attempts),
    status: row.status === 'failed' ? 'failed' : 'retrying',
    error: row.last_error ?? '',
    subject: row.event,
    failureUri: `/connect/failures/${row.id}`,
    retryUri: `/connect/envelopes/${row.envelope_id}/retry_queue`,
  };
}

/** ConnectFailureResult, one per delivery a republish queued (or one per envelope that had none). */
export function toWireRetryResult(envelopeId: string, requeued: readonly ConnectDeliveryRow[]): Record<string, string>[] {
  if (requeued.length === 0) return [{ envelopeId, status: 'NotFound', statusMessage: 'The envelope has no failed Connect deliveries to republish.' }];
  return requeued.map((row) => ({ envelopeId, configId: row.configuration_id, configUrl: row.url, status: 'Queued', statusMessage: `${row.event} is queued for delivery.` }));
}
