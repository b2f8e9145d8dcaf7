import type { SubscribableEvent } from './connect-events.ts';

/**
 * What a listener subscribed to and how its messages are shaped: the common part of an
 * envelope's own `eventNotification` and of an account Connect configuration, in domain terms.
 */
export type EventSubscription = {
  /** The listener: an absolute http(s) URL, checked against the SSRF rules when it was set. */
  readonly url: string;
  /** The events it asked for (legacy status codes already mapped); those this service never publishes never fire. */
  readonly events: readonly SubscribableEvent[];
  /** Sign each message with the account's active HMAC keys (X-DocuSign-Signature-N). */
  readonly includeHMAC: boolean;
  /** DocuSign `includeDocuments`: the envelope summary carries its documents with their PDFBytes (the sealed ones once completed). */
  readonly includeDocuments: boolean;
  /** `eventData.includeData` items (recipients, documents, ...), lower case. */
  readonly includeData: readonly string[];
  /** Kept as given; every delivery here waits for a 2xx whatever this says. */
  readonly requireAcknowledgment: boolean;
};

/** An account-level Connect configuration (DocuSign ConnectCustomConfiguration). */
export type ConnectConfiguration = EventSubscription & {
  /** DocuSign's connectId: a numeric string. */
  readonly connectId: string;
  readonly accountId: string;
  readonly name: string;
  /** `allowEnvelopePublish`: false pauses the configuration (the console's Disable). */
  readonly enabled: boolean;
  /** `allUsers`: every sender of the account; else only the senders in `userIds`. */
  readonly allUsers: boolean;
  readonly userIds: readonly string[];
};

/** A configuration as the client asked for it; the service adds connectId and accountId. */
export type ConnectConfigurationDraft = Omit<ConnectConfiguration, 'connectId' | 'accountId'>;

/** Does this configuration publish envelopes sent by `senderUserId`? */
export function coversSender(configuration: ConnectConfiguration, senderUserId: string): boolean {
  return configuration.enabled && (configuration.allUsers || configuration.userIds.includes(senderUserId));
}
