import type { DocumentDraft, RecipientDraft } from '../envelope/envelope-draft.ts';

/** A validated EnvelopeTemplate (createTemplate), in domain terms; email and name of a role may be empty. */
export type TemplateDraft = {
  readonly name: string;
  readonly description?: string;
  readonly emailSubject: string;
  readonly emailBlurb?: string;
  readonly shared: boolean;
  /** A brand of the account (checked when the template is created). */
  readonly brandId?: string;
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
};
