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
  readonly createdAt: Date;
  readonly lastModifiedAt: Date;
  readonly documents: readonly EnvelopeDocument[];
  readonly roles: readonly TemplateRole[];
};

/**
 * A template recipient: a role that an envelope fills by `roleName` (templateRoles), or a
 * recipient given in full in the template. Name and email may be empty until filled.
 */
export type TemplateRole = {
  readonly recipientId: string;
  readonly roleName?: string;
  readonly type: RecipientType;
  readonly name: string;
  readonly email: string;
  readonly routingOrder: number;
  readonly clientUserId?: string;
  /** Tabs of every type, placed on the template's documents; values are the sender's prefill. */
  readonly tabs: readonly PlacedTab[];
};
