import { addFields, patchFields, removeFields, type FieldEdit } from '../envelope/custom-field-edits.ts';
import type { CustomField, CustomFieldDraft, CustomFieldPatch } from '../envelope/custom-fields.ts';
import { API_DEFAULT_SETTINGS, type NotificationSettings } from '../notification/envelope-notification.ts';
import { applyNotificationRequest, type NotificationRequest } from '../notification/notification-request.ts';
import { editTemplate } from './edit-template-content.ts';
import type { TemplateDeps } from './template-deps.ts';

/**
 * What a template's envelopes start with: its custom fields (TemplatesApi custom_fields calls,
 * the envelopes' own edits, custom-field-edits.ts) and its reminder and expiration settings
 * (TemplatesApi notification, the envelopes' own rules, notification-request.ts). Saved as
 * template edits are: only over the version read, retried on a concurrent edit.
 */
async function editFields(deps: TemplateDeps, accountId: string, templateId: string, edit: (fields: readonly CustomField[]) => FieldEdit): Promise<CustomField[]> {
  let touched: CustomField[] = [];
  await editTemplate(deps, accountId, templateId, (t) => {
    const result = edit(t.customFields ?? []);
    touched = result.touched;
    return Promise.resolve({ ...t, customFields: result.fields });
  });
  return touched;
}

export function addTemplateCustomFields(deps: TemplateDeps, accountId: string, templateId: string, drafts: readonly CustomFieldDraft[]): Promise<CustomField[]> {
  return editFields(deps, accountId, templateId, (fields) => addFields(fields, drafts));
}

export function updateTemplateCustomFields(deps: TemplateDeps, accountId: string, templateId: string, patches: readonly CustomFieldPatch[]): Promise<CustomField[]> {
  return editFields(deps, accountId, templateId, (fields) => patchFields(fields, patches, 'template'));
}

export function deleteTemplateCustomFields(deps: TemplateDeps, accountId: string, templateId: string, patches: readonly CustomFieldPatch[]): Promise<CustomField[]> {
  return editFields(deps, accountId, templateId, (fields) => removeFields(fields, patches, 'template'));
}

/** TemplatesApi.updateNotificationSettings: the request over the template's settings (what it leaves out stays). */
export async function updateTemplateNotification(deps: TemplateDeps, accountId: string, templateId: string, request: NotificationRequest): Promise<NotificationSettings> {
  const t = await editTemplate(deps, accountId, templateId, (current) => Promise.resolve({ ...current, notification: applyNotificationRequest(current.notification ?? API_DEFAULT_SETTINGS, request) }));
  return t.notification ?? API_DEFAULT_SETTINGS;
}
