import { EsignError } from '../../errors.ts';
import { getTemplate } from './create-template.ts';
import { getBrand } from '../brands/brand-use-cases.ts';
import type { Template } from './template.ts';
import type { TemplateDeps } from './template-deps.ts';
import type { TemplatePatch } from './template-draft.ts';

/** TemplatesApi.update: the template's own fields. Envelopes already made from it keep their copy. */
export async function updateTemplate(deps: TemplateDeps, accountId: string, templateId: string, patch: TemplatePatch): Promise<Template> {
  const current = await getTemplate(deps, accountId, templateId);
  if (patch.brandId !== undefined) await getBrand(deps.envelopes, accountId, patch.brandId);
  // Turning visibility off would leave a role's excludedDocuments a promise not kept.
  const excluding = current.roles.find((r) => r.excludedDocuments !== undefined);
  if (patch.enforceSignerVisibility === false && excluding) throw new EsignError('INVALID_REQUEST_BODY', `enforceSignerVisibility cannot be turned off while recipientId ${excluding.recipientId} has excludedDocuments; remove them first (updateRecipients).`);
  const next: Template = { ...current, ...patch, lastModifiedAt: deps.envelopes.clock() };
  if (!(await deps.templates.update(next))) throw new EsignError('TEMPLATE_ID_INVALID', `templateId "${templateId}"`);
  return next;
}

/** Deleting a template: its rows and PDFs go; envelopes made from it hold their own copies. */
export async function deleteTemplate(deps: Pick<TemplateDeps, 'templates'>, accountId: string, templateId: string): Promise<void> {
  if (!(await deps.templates.delete(accountId, templateId))) throw new EsignError('TEMPLATE_ID_INVALID', `templateId "${templateId}"`);
}
