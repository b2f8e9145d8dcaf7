import type { EnvelopeDocument } from '../domain/envelope/envelope.ts';
import { toWireTabs } from './to-wire-tabs.ts';
import type { Template, TemplateRole } from '../domain/templates/template.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';
import { API_DEFAULT_SETTINGS } from '../domain/notification/envelope-notification.ts';
import { toWireCustomFields } from './to-wire-custom-fields.ts';
import { toWireNotification } from './to-wire-notification.ts';
import { signsDocuments } from '../domain/envelope/recipient-kinds.ts';

/** What a template read asked to include (GET template / listTemplates `include`). */
export type TemplateIncludes = { recipients?: boolean; documents?: boolean; tabs?: boolean; customFields?: boolean; notification?: boolean };

function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** createTemplate's 201 body (TemplateSummary). */
export function toWireTemplateSummary(t: Template): Record<string, unknown> {
  return { templateId: t.templateId, name: t.name, uri: `/templates/${t.templateId}` };
}

/** A template document as EnvelopeTemplate.documents lists it (the Document model: `pages` is a count). */
export function toWireTemplateDocument(t: Template, d: EnvelopeDocument): Record<string, unknown> {
  return {
    documentId: d.documentId,
    name: d.name,
    type: 'content',
    uri: `/templates/${t.templateId}/documents/${d.documentId}`,
    order: String(d.order),
    pages: String(d.pageCount),
    display: 'inline',
    includeInDownload: 'true',
  };
}

/** A template document as listDocuments lists it (the EnvelopeDocument model: `pages` lists the pages). */
export function toWireTemplateDocumentEntry(t: Template, d: EnvelopeDocument): Record<string, unknown> {
  return { ...toWireTemplateDocument(t, d), pages: Array.from({ length: d.pageCount }, (_, i) => ({ sequence: String(i + 1) })) };
}

/** recipientType as DocuSign spells it on the wire (lower case), as envelopes answer it. */
const WIRE_TYPES = { signer: 'signer', carbonCopy: 'carboncopy', inPersonSigner: 'inpersonsigner', certifiedDelivery: 'certifieddelivery', agent: 'agent', editor: 'editor', intermediary: 'intermediary', witness: 'witness' } as const;

/** A role as a template recipient, in its type's SDK model with roleName; a role not filled yet has empty name and email. */
export function toWireTemplateRole(r: TemplateRole, includeTabs: boolean): Record<string, unknown> {
  return compact({
    recipientId: r.recipientId,
    roleName: r.roleName,
    name: r.name,
    email: r.email,
    routingOrder: String(r.routingOrder),
    clientUserId: r.clientUserId,
    recipientType: WIRE_TYPES[r.type],
    // InPersonSigner (docusign-esign src/model/InPersonSigner.js): the host, and the signer by name.
    hostName: r.host?.name,
    hostEmail: r.host?.email,
    signerName: r.host ? r.name : undefined,
    signerEmail: r.host && r.email !== '' ? r.email : undefined,
    witnessFor: r.witnessFor,
    agentCanEditName: r.agentCanEditName === true ? 'true' : undefined,
    agentCanEditEmail: r.agentCanEditEmail === true ? 'true' : undefined,
    excludedDocuments: r.excludedDocuments ? [...r.excludedDocuments] : undefined,
    // A template tab is an envelope tab's shape, without the recipientIdGuid a role does not have.
    tabs: includeTabs && signsDocuments(r) ? toWireTabs(r.tabs, { recipientId: r.recipientId }) : undefined,
  });
}

/** Recipients of a template, DocuSign's Recipients model: every list present, as envelopes answer it. */
export function toWireTemplateRecipients(t: Template, includeTabs: boolean): Record<string, unknown> {
  const of = (type: TemplateRole['type']) => t.roles.filter((r) => r.type === type).map((r) => toWireTemplateRole(r, includeTabs));
  return {
    signers: of('signer'),
    carbonCopies: of('carbonCopy'),
    agents: of('agent'),
    editors: of('editor'),
    intermediaries: of('intermediary'),
    certifiedDeliveries: of('certifiedDelivery'),
    inPersonSigners: of('inPersonSigner'),
    seals: [],
    witnesses: of('witness'),
    notaries: [],
    recipientCount: String(t.roles.length),
  };
}

/** GET template / the entries of listTemplates (EnvelopeTemplate). */
export function toWireTemplate(t: Template, includes: TemplateIncludes = {}): Record<string, unknown> {
  return compact({
    templateId: t.templateId,
    uri: `/templates/${t.templateId}`,
    name: t.name,
    description: t.description ?? '',
    shared: String(t.shared),
    brandId: t.brandId,
    enforceSignerVisibility: t.enforceSignerVisibility ? 'true' : undefined,
    emailSubject: t.emailSubject,
    emailBlurb: t.emailBlurb ?? '',
    created: toDocuSignDateTime(t.createdAt),
    createdDateTime: toDocuSignDateTime(t.createdAt),
    lastModified: toDocuSignDateTime(t.lastModifiedAt),
    lastModifiedDateTime: toDocuSignDateTime(t.lastModifiedAt),
    pageCount: String(t.documents.reduce((n, d) => n + d.pageCount, 0)),
    owner: { userId: t.ownerUserId },
    documentsUri: `/templates/${t.templateId}/documents`,
    recipientsUri: `/templates/${t.templateId}/recipients`,
    documents: includes.documents ? t.documents.map((d) => toWireTemplateDocument(t, d)) : undefined,
    recipients: includes.recipients ? toWireTemplateRecipients(t, includes.tabs ?? false) : undefined,
    customFields: includes.customFields ? toWireCustomFields(t.customFields ?? []) : undefined,
    notification: includes.notification ? toWireNotification(t.notification ?? API_DEFAULT_SETTINGS) : undefined,
  });
}
