import type { DocumentDraft, RecipientDraft } from '../envelope/envelope-draft.ts';
import type { CustomFieldDraft } from '../envelope/custom-fields.ts';
import type { NotificationSettings } from '../notification/envelope-notification.ts';

/** A validated EnvelopeTemplate (createTemplate), in domain terms; email and name of a role may be empty. */
export type TemplateDraft = {
  readonly name: string;
  readonly description?: string;
  readonly emailSubject: string;
  readonly emailBlurb?: string;
  readonly shared: boolean;
  /** A brand of the account (checked when the template is created). */
  readonly brandId?: string;
  /** `customFields` (EnvelopeTemplate): copied into every envelope made from it. */
  readonly customFields?: readonly CustomFieldDraft[];
  /** `notification` (EnvelopeTemplate), over the API defaults. */
  readonly notification?: NotificationSettings;
  /** enforceSignerVisibility (EnvelopeTemplate): the roles' excludedDocuments are read only with it. */
  readonly enforceSignerVisibility?: boolean;
  readonly documents: readonly DocumentDraft[];
  readonly roles: readonly TemplateRoleDraft[];
};

export type TemplateRoleDraft = RecipientDraft & { readonly roleName?: string };

/** TemplatesApi.update: the template's own fields; what is absent stays. */
export type TemplatePatch = {
  readonly name?: string;
  readonly description?: string;
  readonly emailSubject?: string;
  readonly emailBlurb?: string;
  readonly shared?: boolean;
  readonly brandId?: string;
  readonly enforceSignerVisibility?: boolean;
};
