import { EsignError } from '../../errors.ts';
import { normalizeEmail } from '../email-address.ts';
import { assertSendable } from '../envelope/assert-sendable.ts';
import { prepareContent, storeNewEnvelope } from '../envelope/create-envelope.ts';
import { resolveEnvelopeBrand } from '../brands/brand-use-cases.ts';
import type { CustomFieldDraft } from '../envelope/custom-fields.ts';
import type { DocumentDraft } from '../envelope/envelope-draft.ts';
import type { Envelope, EnvelopeDocument, Recipient, RecipientType } from '../envelope/envelope.ts';
import type { PlacedTab } from '../envelope/placed-tab.ts';
import type { Tab } from '../tabs/tab.ts';
import { applyPrefills, type TabPrefill } from './tab-prefill.ts';
import { checkTabRelations } from '../tabs/check-tab-relations.ts';
import { getTemplate } from './create-template.ts';
import type { Template } from './template.ts';
import type { TemplateDeps } from './template-deps.ts';
import type { CompositeDraft, CompositeLayer, OverlayRecipient, TemplatedEnvelopeDraft } from './templated-envelope-draft.ts';
import { dedupe, toDraft } from './placed-tab-drafts.ts';
import { managesRecipients, signsDocuments } from '../envelope/recipient-kinds.ts';
import { assertWitnesses } from '../envelope/witnesses.ts';
import { assertVisibility } from '../envelope/document-visibility.ts';
import { assertEnvelopeSize } from '../envelope/envelope-limits.ts';

/** A recipient while the layers are applied: placed tabs (copied from a template) and tabs still to place. */
type Working = {
  recipientId: string;
  roleName?: string;
  type: RecipientType;
  name: string;
  email: string;
  routingOrder: number;
  clientUserId?: string;
  host?: { name: string; email: string };
  witnessFor?: string;
  agentCanEditName?: boolean;
  agentCanEditEmail?: boolean;
  excludedDocuments?: string[];
  placed: PlacedTab[];
  toPlace: Tab[];
  /** templateRoles' values for template tabs, applied once every tab is placed. */
  prefills: TabPrefill[];
};

/** One composite's share of the envelope: its documents (ids local to it) and its recipients. */
type CompositeResult = { documents: EnvelopeDocument[]; pdfs: Uint8Array[]; recipients: Working[]; templates: Template[] };

/**
 * CreateEnvelope from templates (templateId + templateRoles, or compositeTemplates). Each
 * composite applies its layers in `sequence` order: a server template brings its roles with
 * their placed tabs, an inline template fills or adds recipients. A composite's `document`
 * (or an inline template's documents) replaces the template's, and the template's tabs are
 * placed again on it by the envelopes' own prepareContent; otherwise the stored PDFs and tab
 * positions are copied as they are, never converted or searched again. Composites are then
 * joined: documents in order (a repeated documentId is renumbered), recipients merged by
 * roleName, else recipientId. Roles left without name and email are dropped. The envelope is a
 * copy: editing or deleting a template later never changes it.
 */
export async function createEnvelopeFromTemplates(deps: TemplateDeps, input: { accountId: string; senderUserId: string; draft: TemplatedEnvelopeDraft }): Promise<Envelope> {
  const { draft, accountId } = input;
  // A brand the definition names is checked before any work; else the first template's applies.
  const named = draft.brandId === undefined ? undefined : await resolveEnvelopeBrand(deps.envelopes.brands, accountId, draft.brandId);
  const results: CompositeResult[] = [];
  for (const composite of draft.composites) results.push(await buildComposite(deps, accountId, composite));

  const documents: EnvelopeDocument[] = [];
  const pdfs: Uint8Array[] = [];
  const merged: Working[] = [];
  for (const result of results) {
    const idMap = new Map<string, string>();
    result.documents.forEach((d, i) => {
      let id = d.documentId;
      if (documents.some((x) => x.documentId === id)) id = String(Math.max(0, ...documents.map((x) => Number(x.documentId))) + 1);
      idMap.set(d.documentId, id);
      documents.push({ ...d, documentId: id, order: documents.length + 1 });
      pdfs.push(result.pdfs[i] ?? new Uint8Array());
    });
    for (const w of result.recipients) {
      const tabs = w.placed.map((t) => ({ ...t, documentId: idMap.get(t.documentId) ?? t.documentId }));
      // Hidden documents follow their document's number in the envelope.
      if (w.excludedDocuments) w.excludedDocuments = w.excludedDocuments.map((id) => idMap.get(id) ?? id);
      const same = merged.find((m) => (m.roleName !== undefined && w.roleName !== undefined ? m.roleName.toLowerCase() === w.roleName.toLowerCase() : m.recipientId === w.recipientId));
      if (!same) {
        if (merged.some((m) => m.recipientId === w.recipientId)) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${w.recipientId}" names two different recipients of the composite templates.`);
        merged.push({ ...w, placed: tabs });
        continue;
      }
      if (same.name === '') same.name = w.name;
      if (same.email === '') same.email = w.email;
      if (same.clientUserId === undefined && w.clientUserId !== undefined) same.clientUserId = w.clientUserId;
      if (same.host && w.host) same.host = { name: same.host.name || w.host.name, email: same.host.email || w.host.email };
      if (w.excludedDocuments) same.excludedDocuments = [...(same.excludedDocuments ?? []), ...w.excludedDocuments];
      same.placed.push(...tabs);
      same.prefills.push(...w.prefills);
    }
  }
  const first = results.flatMap((r) => r.templates)[0];
  if (documents.length === 0) throw new EsignError('ENVELOPE_IS_INCOMPLETE', first ? `Template "${first.templateId}" has no documents.` : 'It has no documents.');

  // A role nobody filled is dropped, as DocuSign drops it; one routed after an agent, editor or
  // intermediary who stays may be left for them to fill (a placeholder, domain/signing/manage-
  // recipients.ts); any other filled by half is an error.
  const filled = (w: Working) => w.name !== '' || w.email !== '' || (w.host !== undefined && (w.host.name !== '' || w.host.email !== ''));
  const managers = merged.filter((w) => managesRecipients(w) && filled(w));
  const namedLater = (w: Working) => managers.some((m) => m !== w && m.routingOrder < w.routingOrder);
  const recipients: Recipient[] = merged.filter((w) => filled(w) || namedLater(w)).map((w) => {
    const who = `recipientId ${w.recipientId}${w.roleName ? ` (role "${w.roleName}")` : ''}`;
    const placeholder = namedLater(w);
    const address = (raw: string, what: string) => {
      if (raw === '' && placeholder) return '';
      try {
        return normalizeEmail(raw);
      } catch {
        throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `${who}${what}${raw ? ` ("${raw}")` : ' (no email given)'}`);
      }
    };
    // An in-person signer: the host gets the mail and the link; the signer's own address, else the host's, gets the copy.
    const host = w.host ? { name: w.host.name, email: address(w.host.email, ': the host') } : undefined;
    if (host && host.name === '' && !placeholder) throw new EsignError('INVALID_REQUEST_BODY', `${who}: the in-person signer's host needs a name.`);
    const email = w.email === '' && host ? host.email : address(w.email, '');
    if (w.name === '' && !placeholder) throw new EsignError('INVALID_REQUEST_BODY', `${who}: name is required.`);
    const tabs = signsDocuments(w) ? applyPrefills(w.placed, w.prefills, who) : [];
    // The template's tabs and those the envelope added, checked together (conditions, formulas).
    checkTabRelations(tabs.map((t) => t.tab), who);
    return {
      recipientId: w.recipientId,
      recipientIdGuid: deps.envelopes.random.uuid(),
      type: w.type,
      email,
      name: w.name,
      routingOrder: w.routingOrder,
      status: 'created',
      ...(w.clientUserId !== undefined ? { clientUserId: w.clientUserId } : {}),
      ...(host ? { host } : {}),
      ...(w.witnessFor !== undefined ? { witnessFor: w.witnessFor } : {}),
      ...(w.agentCanEditName === true ? { agentCanEditName: true } : {}),
      ...(w.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
      ...(w.excludedDocuments && w.excludedDocuments.length > 0 ? { excludedDocuments: [...new Set(w.excludedDocuments)] } : {}),
      // Fresh tab ids: the envelope's tabs are its own, not the template's.
      tabs: tabs.map((t) => ({ ...t, tabId: deps.envelopes.random.uuid(), recipientId: w.recipientId, ...(t.radios ? { radios: t.radios.map((r) => ({ ...r, tabId: deps.envelopes.random.uuid() })) } : {}) })),
    };
  });
  // Document visibility: the definition's, or any of its templates'; excludedDocuments alone would hide nothing.
  const templates = results.flatMap((r) => r.templates);
  const enforceSignerVisibility = draft.enforceSignerVisibility === true || templates.some((t) => t.enforceSignerVisibility === true);
  const excluding = recipients.find((r) => r.excludedDocuments !== undefined);
  if (excluding && !enforceSignerVisibility) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${excluding.recipientId}'s excludedDocuments is read only with enforceSignerVisibility "true" (on the definition or a template).`);
  assertEnvelopeSize({ documents: documents.length, recipients: recipients.length, bytes: pdfs.reduce((n, pdf) => n + pdf.byteLength, 0), pages: documents.reduce((n, d) => n + d.pageCount, 0) }, 'The envelope made from the templates');
  assertVisibility(documents, recipients);
  assertWitnesses(recipients, 'the envelope made from the templates');
  // The templates' custom fields, then the definition's (a field of the same name replaces the template's).
  const customFields = mergeCustomFields([...results.flatMap((r) => r.templates).flatMap((t) => t.customFields ?? []), ...(draft.customFields ?? [])]);
  // Reminders and expiration: the definition's, else the first template's.
  const notification = draft.notification ?? first?.notification;
  if (draft.status === 'sent') assertSendable({ documents, recipients, customFields });
  const emailSubject = draft.emailSubject ?? first?.emailSubject ?? `Please sign: ${documents[0]?.name ?? ''}`.slice(0, 100);
  const emailBlurb = draft.emailBlurb ?? first?.emailBlurb;
  const brand = named ?? (await resolveEnvelopeBrand(deps.envelopes.brands, accountId, undefined, first?.brandId));
  return storeNewEnvelope(deps.envelopes, {
    accountId,
    senderUserId: input.senderUserId,
    draft: { ...draft, emailSubject, ...(emailBlurb !== undefined ? { emailBlurb } : {}), customFields, ...(notification ? { notification } : {}), ...(enforceSignerVisibility ? { enforceSignerVisibility } : {}) },
    documents,
    pdfs,
    recipients,
    brand,
  });
}

/** Custom fields by name (case folded): a later one replaces an earlier one in its place. */
function mergeCustomFields(fields: readonly CustomFieldDraft[]): CustomFieldDraft[] {
  const byName = new Map<string, CustomFieldDraft>();
  for (const f of fields) byName.set(f.name.toLowerCase(), f);
  return [...byName.values()];
}

/** Lower sequence first; a server template before an inline one of the same sequence. */
function ordered(layers: readonly CompositeLayer[]): CompositeLayer[] {
  return layers.map((l, i) => ({ l, i })).sort((a, b) => a.l.sequence - b.l.sequence || (a.l.kind === b.l.kind ? a.i - b.i : a.l.kind === 'server' ? -1 : 1)).map((x) => x.l);
}

async function buildComposite(deps: TemplateDeps, accountId: string, composite: CompositeDraft): Promise<CompositeResult> {
  const recipients: Working[] = [];
  const templates: Template[] = [];
  // Where the composite's documents come from: the first layer, in sequence order, that has some.
  let source: { kind: 'template'; template: Template } | { kind: 'drafts'; documents: readonly DocumentDraft[] } | undefined = composite.document ? { kind: 'drafts', documents: [composite.document] } : undefined;
  const placedFrom = new Map<PlacedTab, Template>();
  for (const layer of ordered(composite.layers)) {
    if (layer.kind === 'server') {
      const template = await getTemplate(deps, accountId, layer.templateId);
      templates.push(template);
      if (!source && template.documents.length > 0) source = { kind: 'template', template };
      for (const role of template.roles) {
        const existing = findRecipient(recipients, role.roleName, role.recipientId);
        const tabs = role.tabs.map((t) => ({ ...t }));
        for (const t of tabs) placedFrom.set(t, template);
        if (existing) {
          existing.placed.push(...tabs);
          continue;
        }
        recipients.push({
          recipientId: role.recipientId, ...(role.roleName !== undefined ? { roleName: role.roleName } : {}), type: role.type, name: role.name, email: role.email, routingOrder: role.routingOrder,
          ...(role.clientUserId !== undefined ? { clientUserId: role.clientUserId } : {}),
          ...(role.host ? { host: { ...role.host } } : {}),
          ...(role.witnessFor !== undefined ? { witnessFor: role.witnessFor } : {}),
          ...(role.agentCanEditName === true ? { agentCanEditName: true } : {}),
          ...(role.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
          ...(role.excludedDocuments ? { excludedDocuments: [...role.excludedDocuments] } : {}),
          placed: tabs, toPlace: [], prefills: [],
        });
      }
    } else {
      if (!source && layer.documents.length > 0) source = { kind: 'drafts', documents: layer.documents };
      for (const overlay of layer.recipients) applyOverlay(recipients, overlay, layer.fromTemplateRoles ?? false);
    }
  }
  if (!source) return { documents: [], pdfs: [], recipients, templates };

  // The fast path: the template's own PDFs, its tabs where they were placed.
  const fast = source.kind === 'template' && recipients.every((w) => w.toPlace.length === 0 && w.placed.every((t) => placedFrom.get(t) === (source.kind === 'template' ? source.template : undefined)));
  if (fast && source.kind === 'template') {
    const template = source.template;
    const pdfs = await Promise.all(template.documents.map(async (d) => (await deps.templates.documentPdf(accountId, template.templateId, d.documentId)) ?? new Uint8Array()));
    return { documents: [...template.documents], pdfs, recipients, templates };
  }

  // Otherwise every tab is placed again on the composite's documents.
  const drafts: readonly DocumentDraft[] = source.kind === 'drafts' ? source.documents : await templateDocumentsAsDrafts(deps, accountId, source.template);
  const replacementId = drafts.length === 1 ? drafts[0]?.documentId : undefined;
  const content = await prepareContent(deps.envelopes, accountId, drafts, recipients.map((w) => ({
    recipientId: w.recipientId,
    type: w.type,
    tabs: [...dedupe(w.placed).map((t) => toDraft(t, drafts, replacementId)), ...w.toPlace],
  })));
  recipients.forEach((w, i) => {
    w.placed = content.tabs[i] ?? [];
    w.toPlace = [];
  });
  return { documents: content.documents, pdfs: content.pdfs, recipients, templates };
}

function findRecipient(recipients: readonly Working[], roleName: string | undefined, recipientId: string | undefined): Working | undefined {
  if (roleName !== undefined) {
    const byRole = recipients.find((r) => r.roleName?.toLowerCase() === roleName.toLowerCase());
    if (byRole) return byRole;
  }
  return recipientId === undefined ? undefined : recipients.find((r) => r.recipientId === recipientId && (roleName === undefined || r.roleName === undefined));
}

function applyOverlay(recipients: Working[], o: OverlayRecipient, fromTemplateRoles: boolean): void {
  const existing = findRecipient(recipients, o.roleName, o.recipientId);
  if (!existing) {
    if (fromTemplateRoles) throw new EsignError('TEMPLATE_ROLE_NOT_FOUND', `roleName "${o.roleName ?? ''}"; the template's roles are ${recipients.map((r) => `"${r.roleName ?? r.recipientId}"`).join(', ') || 'none'}.`);
    if (o.recipientId === undefined) throw new EsignError('INVALID_REQUEST_BODY', `The inline recipient with roleName "${o.roleName ?? ''}" fills no role of the composite's server templates and has no recipientId.`);
    const type = o.type ?? 'signer';
    recipients.push({
      recipientId: o.recipientId,
      ...(o.roleName !== undefined ? { roleName: o.roleName } : {}),
      type,
      name: o.name ?? '',
      email: o.email ?? '',
      routingOrder: o.routingOrder ?? 1,
      ...(o.clientUserId !== undefined ? { clientUserId: o.clientUserId } : {}),
      ...(type === 'inPersonSigner' ? { host: { name: o.hostName ?? '', email: o.hostEmail ?? '' } } : {}),
      ...typeFields(o),
      placed: [],
      toPlace: [...o.tabs],
      prefills: [...(o.prefills ?? [])],
    });
    return;
  }
  const who = `roleName "${o.roleName ?? existing.roleName ?? ''}" (recipientId ${existing.recipientId})`;
  if (o.type !== undefined && o.type !== existing.type) throw new EsignError('INVALID_REQUEST_BODY', `${who} is a ${existing.type} in the template, given as a ${o.type}: a role's type cannot be changed.`);
  if (o.signerName !== undefined && existing.type !== 'inPersonSigner') throw new EsignError('INVALID_REQUEST_BODY', `${who}: inPersonSignerName fills an in-person signer role; this role is a ${existing.type}.`);
  if (existing.type === 'inPersonSigner' && existing.host) {
    // templateRoles (TemplateRole model): name and email are the host's, inPersonSignerName the signer's.
    const hostName = fromTemplateRoles ? o.name : o.hostName;
    const hostEmail = fromTemplateRoles ? o.email : o.hostEmail;
    existing.host = { name: hostName ?? existing.host.name, email: hostEmail ?? existing.host.email };
    const signerName = fromTemplateRoles ? o.signerName : o.name;
    if (signerName !== undefined) existing.name = signerName;
    if (!fromTemplateRoles && o.email !== undefined) existing.email = o.email;
  } else {
    if (o.name !== undefined) existing.name = o.name;
    if (o.email !== undefined) existing.email = o.email;
  }
  if (o.routingOrder !== undefined) existing.routingOrder = o.routingOrder;
  if (o.clientUserId !== undefined) existing.clientUserId = o.clientUserId;
  Object.assign(existing, typeFields(o));
  existing.toPlace.push(...o.tabs);
  existing.prefills.push(...(o.prefills ?? []));
}

/** What an overlay says of a witness, an agent's rights and hidden documents; absent fields keep the role's. */
function typeFields(o: OverlayRecipient): Pick<Working, 'witnessFor' | 'agentCanEditName' | 'agentCanEditEmail' | 'excludedDocuments'> {
  return {
    ...(o.witnessFor !== undefined ? { witnessFor: o.witnessFor } : {}),
    ...(o.agentCanEditName === true ? { agentCanEditName: true } : {}),
    ...(o.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
    ...(o.excludedDocuments ? { excludedDocuments: [...o.excludedDocuments] } : {}),
  };
}

/** A stored template's PDFs as documents to prepare again (when other tabs must be placed on them). */
async function templateDocumentsAsDrafts(deps: TemplateDeps, accountId: string, template: Template): Promise<DocumentDraft[]> {
  return Promise.all(template.documents.map(async (d) => {
    const bytes = await deps.templates.documentPdf(accountId, template.templateId, d.documentId);
    if (!bytes) throw new EsignError('TEMPLATE_ID_INVALID', `templateId "${template.templateId}" (its documents changed while the envelope was made).`);
    return { documentId: d.documentId, name: d.name, fileExtension: 'pdf', bytes };
  }));
}
