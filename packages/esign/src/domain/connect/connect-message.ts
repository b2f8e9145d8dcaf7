import type { Envelope } from '../envelope/envelope.ts';
import type { ConnectOccurrence } from './derive-connect-events.ts';
import type { EventSubscription } from './event-subscription.ts';

/**
 * A JSON SIM message as stored before its first attempt (DocuSign's connect.schema-v2.json,
 * docs/esign-connect.md). `retryCount` is filled in at each attempt, so the stored part never
 * changes and each attempt's raw body is what its HMAC signs.
 */
export type ConnectMessage = {
  readonly event: string;
  readonly apiVersion: 'v2.1';
  readonly uri: string;
  readonly configurationId: number;
  readonly generatedDateTime: string;
  readonly data: {
    readonly accountId: string;
    readonly userId: string;
    readonly envelopeId: string;
    readonly recipientId?: string;
    readonly envelopeSummary?: unknown;
  };
};

/** The configurationId of messages from an envelope's own eventNotification (it has no connectId). */
export const ENVELOPE_LEVEL_CONFIGURATION_ID = '0';

/** Renders the message of one event for one subscription (connect/build-connect-message.ts: the wire format). */
export type ConnectMessageBuilder = (input: { envelope: Envelope; occurrence: ConnectOccurrence; subscription: EventSubscription; configurationId: string; now: Date }) => ConnectMessage;
