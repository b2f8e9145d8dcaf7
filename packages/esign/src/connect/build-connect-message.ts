import { toDocuSignDateTime } from '../wire/docusign-date-time.ts';
import { toWireEnvelope } from '../wire/to-wire-envelope.ts';
import type { ConnectMessage, ConnectMessageBuilder } from '../domain/connect/connect-message.ts';

/**
 * The message for one event and one subscription. The envelope summary (the REST Envelope
 * shape, as DocuSign puts it under data.envelopeSummary) is included only when the subscription
 * asks for data: `eventData.includeData` items, or `includeDocuments` (documents' metadata).
 */
export const buildConnectMessage: ConnectMessageBuilder = (input): ConnectMessage => {
  const { envelope, occurrence, subscription } = input;
  const wants = new Set(subscription.includeData);
  const withSummary = wants.size > 0 || subscription.includeDocuments;
  return {
    event: occurrence.event,
    apiVersion: 'v2.1',
    uri: `/restapi/v2.1/accounts/${envelope.accountId}/envelopes/${envelope.envelopeId}`,
    configurationId: Number(input.configurationId),
    generatedDateTime: toDocuSignDateTime(input.now),
    data: {
      accountId: envelope.accountId,
      userId: envelope.senderUserId,
      envelopeId: envelope.envelopeId,
      ...(occurrence.recipientId !== undefined ? { recipientId: occurrence.recipientId } : {}),
      ...(withSummary
        ? { envelopeSummary: toWireEnvelope(envelope, { recipients: wants.has('recipients') || wants.has('tabs'), tabs: wants.has('tabs'), documents: wants.has('documents') || subscription.includeDocuments, customFields: wants.has('custom_fields') }) }
        : {}),
    },
  };
};

/**
 * The message with each summary document's bytes (DocuSign's `PDFBytes`, base64), for
 * includeDocuments. `bytesOf` answers per documentId; a document it does not know keeps no bytes.
 */
export async function withDocumentBytes(message: ConnectMessage, bytesOf: (documentId: string) => Promise<Uint8Array | undefined>): Promise<ConnectMessage> {
  const summary = message.data.envelopeSummary as { envelopeDocuments?: { documentId: string }[] } | undefined;
  if (!summary?.envelopeDocuments) return message;
  const envelopeDocuments = await Promise.all(summary.envelopeDocuments.map(async (d) => {
    const bytes = await bytesOf(d.documentId);
    return bytes ? { ...d, PDFBytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') } : d;
  }));
  return { ...message, data: { ...message.data, envelopeSummary: { ...summary, envelopeDocuments } } };
}

/** The raw body of one attempt: the stored message with this attempt's retryCount (0 first). */
export function connectBody(message: ConnectMessage, retryCount: number): string {
  const { event, apiVersion, uri, configurationId, generatedDateTime, data } = message;
  // DocuSign's key order: event, apiVersion, uri, retryCount, configurationId, generatedDateTime, data.
  return JSON.stringify({ event, apiVersion, uri, retryCount, configurationId, generatedDateTime, data });
}
