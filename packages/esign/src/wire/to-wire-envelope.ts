import type { Envelope, EnvelopeDocument, Recipient } from '../domain/envelope/envelope.ts';
import { toWireTabs } from './to-wire-tabs.ts';
import { actsOnSigningPage, signsDocuments } from '../domain/envelope/recipient-kinds.ts';
import { currentRoutingOrder } from '../domain/envelope/routing.ts';
import { notificationOf } from '../domain/notification/envelope-notification.ts';
import { expiresAt } from '../domain/notification/notification-schedule.ts';
import { toWireNotification } from './to-wire-notification.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';
import { toWireCustomFields } from './to-wire-custom-fields.ts';
import { toWireRecipientAuthentication } from './to-wire-recipient-authentication.ts';
import type { WireEnvelope, WireEnvelopeDocument, WireEnvelopeSummary, WireRecipient, WireRecipients } from './wire-types.ts';

/** What a read asked to include (GET envelope `include`, listRecipients `include_tabs`...). */
export type WireIncludes = { recipients?: boolean; documents?: boolean; tabs?: boolean; anchorTabLocations?: boolean; notification?: boolean; customFields?: boolean };

const at = (d: Date | undefined) => (d === undefined ? undefined : toDocuSignDateTime(d));

/** Drops undefined fields so JSON carries neither null nor undefined. */
function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** CreateEnvelope's 201 body. */
export function toWireEnvelopeSummary(envelope: Envelope): WireEnvelopeSummary {
  return { envelopeId: envelope.envelopeId, uri: `/envelopes/${envelope.envelopeId}`, statusDateTime: toDocuSignDateTime(envelope.statusChangedAt), status: envelope.status };
}

/** recipientType as DocuSign spells it on the wire (lower case). */
const WIRE_TYPES = { signer: 'signer', carbonCopy: 'carboncopy', inPersonSigner: 'inpersonsigner', certifiedDelivery: 'certifieddelivery', agent: 'agent', editor: 'editor', intermediary: 'intermediary', witness: 'witness' } as const;

export function toWireRecipient(r: Recipient, includeTabs: boolean): WireRecipient {
  return compact({
    recipientId: r.recipientId,
    recipientIdGuid: r.recipientIdGuid,
    recipientType: WIRE_TYPES[r.type],
    email: r.email,
    name: r.name,
    routingOrder: String(r.routingOrder),
    status: r.status,
    deliveryMethod: 'email' as const,
    clientUserId: r.clientUserId,
    roleName: r.roleName,
    excludedDocuments: r.excludedDocuments ? [...r.excludedDocuments] : undefined,
    emailNotification: r.language !== undefined ? { supportedLanguage: r.language } : undefined,
    // InPersonSigner (docusign-esign src/model/InPersonSigner.js): the host, and the signer by name.
    hostName: r.host?.name,
    hostEmail: r.host?.email,
    signerName: r.host ? r.name : undefined,
    signerEmail: r.host ? r.email : undefined,
    inPersonSigningType: r.host ? 'inPersonSigner' : undefined,
    // Said only where set: what an earlier agent or intermediary may change (domain/signing/manage-recipients.ts).
    agentCanEditName: r.agentCanEditName === true ? 'true' : undefined,
    agentCanEditEmail: r.agentCanEditEmail === true ? 'true' : undefined,
    witnessFor: r.witnessFor,
    // The one-time passcode check, as the sender set it; never a code (to-wire-recipient-authentication.ts).
    ...toWireRecipientAuthentication(r.passcode),
    sentDateTime: at(r.sentAt),
    deliveredDateTime: at(r.deliveredAt),
    signedDateTime: at(r.signedAt),
    declinedDateTime: at(r.declinedAt),
    declinedReason: r.declinedReason,
    completedCount: actsOnSigningPage(r) ? String(r.status === 'completed' ? 1 : 0) : undefined,
    // Every tab type, in its SDK model's shape; the spot is always given (anchors are resolved at creation).
    tabs: includeTabs && signsDocuments(r) ? toWireTabs(r.tabs, r) : undefined,
  });
}

/** The Recipients object: every list present, the unsupported kinds empty (the SDK's convertToType throws on a null array). */
export function toWireRecipients(envelope: Pick<Envelope, 'recipients'>, includeTabs: boolean): WireRecipients {
  const sorted = [...envelope.recipients].sort((a, b) => a.routingOrder - b.routingOrder);
  const current = currentRoutingOrder(envelope.recipients);
  return compact({
    signers: sorted.filter((r) => r.type === 'signer').map((r) => toWireRecipient(r, includeTabs)),
    carbonCopies: sorted.filter((r) => r.type === 'carbonCopy').map((r) => toWireRecipient(r, includeTabs)),
    agents: sorted.filter((r) => r.type === 'agent').map((r) => toWireRecipient(r, includeTabs)),
    editors: sorted.filter((r) => r.type === 'editor').map((r) => toWireRecipient(r, includeTabs)),
    intermediaries: sorted.filter((r) => r.type === 'intermediary').map((r) => toWireRecipient(r, includeTabs)),
    certifiedDeliveries: sorted.filter((r) => r.type === 'certifiedDelivery').map((r) => toWireRecipient(r, includeTabs)),
    inPersonSigners: sorted.filter((r) => r.type === 'inPersonSigner').map((r) => toWireRecipient(r, includeTabs)),
    seals: [] as [],
    witnesses: sorted.filter((r) => r.type === 'witness').map((r) => toWireRecipient(r, includeTabs)),
    notaries: [] as [],
    recipientCount: String(envelope.recipients.length),
    currentRoutingOrder: current === undefined ? undefined : String(current),
  });
}

export function toWireEnvelopeDocument(envelope: Envelope, d: EnvelopeDocument): WireEnvelopeDocument {
  return {
    documentId: d.documentId,
    name: d.name,
    type: 'content',
    uri: `/envelopes/${envelope.envelopeId}/documents/${d.documentId}`,
    order: String(d.order),
    pages: Array.from({ length: d.pageCount }, (_, i) => ({ sequence: String(i + 1) })),
    display: d.supplement?.display ?? 'inline',
    includeInDownload: d.supplement?.includeInDownload === false ? 'false' : 'true',
    signerMustAcknowledge: d.supplement?.signerMustAcknowledge ?? 'no_interaction',
    authoritativeCopy: 'false',
  };
}

/**
 * listDocuments' entry for the certificate of completion, as DocuSign lists it (documentId
 * "certificate", type "summary"); only once the envelope is completed, when getDocument can
 * serve it (restapi/signing/signing-api-routes.ts).
 */
export function toWireCertificateEntry(envelope: Envelope): WireEnvelopeDocument {
  return {
    documentId: 'certificate',
    name: 'Summary',
    type: 'summary',
    uri: `/envelopes/${envelope.envelopeId}/documents/certificate`,
    order: String(envelope.documents.length + 1),
    display: 'inline',
    includeInDownload: 'true',
    signerMustAcknowledge: 'no_interaction',
    authoritativeCopy: 'false',
  };
}

/** GET envelope / the entries of listStatusChanges. */
export function toWireEnvelope(envelope: Envelope, includes: WireIncludes = {}): WireEnvelope {
  const uri = `/envelopes/${envelope.envelopeId}`;
  return compact({
    envelopeId: envelope.envelopeId,
    status: envelope.status,
    emailSubject: envelope.emailSubject,
    emailBlurb: envelope.emailBlurb,
    enforceSignerVisibility: envelope.enforceSignerVisibility ? 'true' as const : undefined,
    envelopeIdStamping: envelope.envelopeIdStamping ? 'true' as const : undefined,
    brandId: envelope.brand?.brandId,
    envelopeUri: uri,
    documentsUri: `${uri}/documents`,
    recipientsUri: `${uri}/recipients`,
    notificationUri: `${uri}/notification`,
    customFieldsUri: `${uri}/custom_fields`,
    createdDateTime: toDocuSignDateTime(envelope.createdAt),
    lastModifiedDateTime: toDocuSignDateTime(envelope.statusChangedAt),
    statusChangedDateTime: toDocuSignDateTime(envelope.statusChangedAt),
    sentDateTime: at(envelope.sentAt),
    deliveredDateTime: at(envelope.deliveredAt),
    completedDateTime: at(envelope.completedAt),
    declinedDateTime: at(envelope.declinedAt),
    voidedDateTime: at(envelope.voidedAt),
    voidedReason: envelope.voidedReason,
    deletedDateTime: at(envelope.deletedAt),
    expireEnabled: 'true',
    expireAfter: String(notificationOf(envelope).settings.expireAfterDays),
    expireDateTime: at(expiresAt(envelope)),
    sender: { userId: envelope.senderUserId, accountId: envelope.accountId },
    recipients: includes.recipients ? toWireRecipients(envelope, includes.tabs ?? false) : undefined,
    envelopeDocuments: includes.documents ? envelope.documents.map((d) => toWireEnvelopeDocument(envelope, d)) : undefined,
    notification: includes.notification ? toWireNotification(notificationOf(envelope).settings) : undefined,
    customFields: includes.customFields ? toWireCustomFields(envelope.customFields ?? []) : undefined,
  });
}
