import { EsignError } from '../../errors.ts';
import { prepareContent } from '../envelope/create-envelope.ts';
import { getBrand } from '../brands/brand-use-cases.ts';
import { addFields } from '../envelope/custom-field-edits.ts';
import type { Template } from './template.ts';
import type { TemplateDeps } from './template-deps.ts';
import type { TemplateDraft, TemplateRoleDraft } from './template-draft.ts';
import type { TemplateRole } from './template.ts';
import type { PlacedTab } from '../envelope/placed-tab.ts';
import { assertWitnesses } from '../envelope/witnesses.ts';
import { assertVisibility } from '../envelope/document-visibility.ts';

/**
 * DocuSign createTemplate. The documents are converted and the tabs placed by the envelopes'
 * own prepareContent, once: an envelope made from the template later copies the result.
 */
export async function createTemplate(deps: TemplateDeps, input: { accountId: string; ownerUserId: string; draft: TemplateDraft }): Promise<Template> {
  const { draft } = input;
  assertDistinctRoleNames(draft.roles.map((r) => r.roleName));
  assertWitnesses(draft.roles, 'the template');
  if (draft.brandId !== undefined) await getBrand(deps.envelopes, input.accountId, draft.brandId);
  const content = await prepareContent(deps.envelopes, input.accountId, draft.documents, draft.roles);
  const now = deps.envelopes.clock();
  const template: Template = {
    templateId: deps.envelopes.random.uuid(),
    accountId: input.accountId,
    ownerUserId: input.ownerUserId,
    name: draft.name,
    ...(draft.description !== undefined ? { description: draft.description } : {}),
    emailSubject: draft.emailSubject,
    ...(draft.emailBlurb !== undefined ? { emailBlurb: draft.emailBlurb } : {}),
    shared: draft.shared,
    ...(draft.brandId !== undefined ? { brandId: draft.brandId } : {}),
    ...(draft.customFields && draft.customFields.length > 0 ? { customFields: addFields([], draft.customFields).fields } : {}),
    ...(draft.notification ? { notification: draft.notification } : {}),
    ...(draft.enforceSignerVisibility ? { enforceSignerVisibility: true } : {}),
    createdAt: now,
    lastModifiedAt: now,
    documents: content.documents,
    roles: draft.roles.map((r, i) => toTemplateRole(r, content.tabs[i] ?? [])),
  };
  assertVisibility(template.documents, template.roles);
  await deps.templates.create(template, new Map(content.documents.map((d, i) => [d.documentId, content.pdfs[i] ?? new Uint8Array()])));
  return template;
}

/** Roles are filled by name: two with one name would make templateRoles ambiguous. */
export function assertDistinctRoleNames(names: readonly (string | undefined)[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (name === undefined) continue;
    const key = name.toLowerCase();
    if (seen.has(key)) throw new EsignError('TEMPLATE_ROLE_NAME_DUPLICATE', `roleName "${name}" is used more than once.`);
    seen.add(key);
  }
}

/** A stored template of the account, or DocuSign's TEMPLATE_ID_INVALID: another account's template is never found. */
export async function getTemplate(deps: Pick<TemplateDeps, 'templates'>, accountId: string, templateId: string): Promise<Template> {
  const template = await deps.templates.find(accountId, templateId);
  if (!template) throw new EsignError('TEMPLATE_ID_INVALID', `templateId "${templateId}"`);
  return template;
}

/** A role as the template keeps it: a recipient draft of any type with its tabs placed. */
export function toTemplateRole(r: TemplateRoleDraft, tabs: readonly PlacedTab[]): TemplateRole {
  return {
    recipientId: r.recipientId,
    ...(r.roleName !== undefined ? { roleName: r.roleName } : {}),
    type: r.type,
    name: r.name,
    email: r.email,
    routingOrder: r.routingOrder,
    ...(r.clientUserId !== undefined ? { clientUserId: r.clientUserId } : {}),
    ...(r.host ? { host: r.host } : {}),
    ...(r.witnessFor !== undefined ? { witnessFor: r.witnessFor } : {}),
    ...(r.agentCanEditName === true ? { agentCanEditName: true } : {}),
    ...(r.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
    ...(r.excludedDocuments && r.excludedDocuments.length > 0 ? { excludedDocuments: r.excludedDocuments } : {}),
    tabs,
  };
}
