import type { EnvelopeDocument, RecipientType } from '../envelope/envelope.ts';
import type { PlacedTab } from '../envelope/placed-tab.ts';
import type { CustomField } from '../envelope/custom-fields.ts';
import type { NotificationSettings } from '../notification/envelope-notification.ts';

/**
 * A stored template (DocuSign's EnvelopeTemplate): documents already converted to PDF and tabs
 * already placed, so an envelope made from it copies them without converting or searching again.
 */
export type Template = {
  readonly templateId: string;
  readonly accountId: string;
  readonly ownerUserId: string;
  readonly name: string;
  readonly description?: string;
  readonly emailSubject: string;
  readonly emailBlurb?: string;
  /** DocuSign's `shared`: echoed; every template is visible to its whole account here. */
  readonly shared: boolean;
  /** `brandId`: the brand its envelopes take unless they name one (a reference: a deleted brand leaves none). */
  readonly brandId?: string;
  /** Envelope custom fields its envelopes start with (TemplatesApi custom_fields); absent: none. */
  readonly customFields?: readonly CustomField[];
  /** Reminders and expiration its envelopes take unless they say otherwise (TemplatesApi notification); absent: the API defaults. */
  readonly notification?: NotificationSettings;
  /** enforceSignerVisibility: its envelopes enforce it, each role's excludedDocuments hidden (domain/envelope/document-visibility.ts). */
  readonly enforceSignerVisibility?: boolean;
  readonly createdAt: Date;
  readonly lastModifiedAt: Date;
  readonly documents: readonly EnvelopeDocument[];
  readonly roles: readonly TemplateRole[];
};

/**
 * A template recipient of any type (signer, carbon copy, in-person signer, certified delivery,
 * agent, editor, intermediary, witness): a role that an envelope fills by `roleName`
 * (templateRoles, compositeTemplates), or a recipient given in full in the template. Name and
 * email may be empty until filled; the type's own fields are an envelope recipient's
 * (domain/envelope/envelope.ts Recipient) and are copied into every envelope made from it.
 */
export type TemplateRole = {
  readonly recipientId: string;
  readonly roleName?: string;
  readonly type: RecipientType;
  /** An in-person signer: the signer's name; email the signer's, or empty (then the host's). */
  readonly name: string;
  readonly email: string;
  readonly routingOrder: number;
  readonly clientUserId?: string;
  /** An in-person signer's host; name and email may be empty until templateRoles fill them. */
  readonly host?: { readonly name: string; readonly email: string };
  /** A witness's signer (domain/envelope/witnesses.ts). */
  readonly witnessFor?: string;
  /** What an earlier agent or intermediary may change (domain/signing/manage-recipients.ts). */
  readonly agentCanEditName?: boolean;
  readonly agentCanEditEmail?: boolean;
  /** Documents hidden from the role when the template enforces visibility (domain/envelope/document-visibility.ts). */
  readonly excludedDocuments?: readonly string[];
  /** Tabs of every type, placed on the template's documents; values are the sender's prefill. */
  readonly tabs: readonly PlacedTab[];
};
