import type { AuditEvent } from '../../domain/signing/audit-event.ts';
import { toDocuSignDateTime } from '../../wire/docusign-date-time.ts';

/** DocuSign's EnvelopeAuditEventResponse: each event is a list of name/value fields. */
export type WireAuditEvents = { auditEvents: { eventFields: { name: string; value: string }[] }[] };

/**
 * The audit trail in listAuditEvents' shape (docusign-esign
 * src/model/EnvelopeAuditEventResponse.js). Field names are DocuSign's (logTime, Source, UserName,
 * Action, Message, EnvelopeStatus, ClientIPAddress); UserEmail, RecipientId and UserAgent are ours,
 * added because the issue asks for the user agent.
 */
export function toWireAuditEvents(events: readonly AuditEvent[]): WireAuditEvents {
  return {
    auditEvents: events.map((e) => ({
      eventFields: [
        { name: 'logTime', value: toDocuSignDateTime(e.at) },
        { name: 'Source', value: e.source },
        { name: 'UserName', value: e.name ?? '' },
        { name: 'UserEmail', value: e.email ?? '' },
        { name: 'RecipientId', value: e.recipientId ?? '' },
        { name: 'Action', value: e.action },
        { name: 'Message', value: e.message },
        { name: 'EnvelopeStatus', value: e.envelopeStatus },
        { name: 'ClientIPAddress', value: e.ipAddress ?? '' },
        { name: 'UserAgent', value: e.userAgent ?? '' },
      ],
    })),
  };
}
