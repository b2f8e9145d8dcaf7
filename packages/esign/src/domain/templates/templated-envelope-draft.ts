import type { DocumentDraft, EnvelopeDraft } from '../envelope/envelope-draft.ts';
import type { Tab } from '../tabs/tab.ts';
import type { TabPrefill } from './tab-prefill.ts';
import type { RecipientType } from '../envelope/envelope.ts';

/**
 * An EnvelopeDefinition that uses templates, in domain terms: `templateId` + `templateRoles` is
 * read as one composite template (the server template, then the roles as an inline overlay).
 */
export type TemplatedEnvelopeDraft = Pick<EnvelopeDraft, 'status' | 'emailBlurb' | 'eventNotification' | 'notification' | 'workflow' | 'customFields' | 'brandId' | 'enforceSignerVisibility' | 'envelopeIdStamping'> & {
  /** Absent: the first server template's subject. */
  readonly emailSubject?: string;
  readonly composites: readonly CompositeDraft[];
};

/** One compositeTemplate: its layers, applied in `sequence` order, and an optional document replacing the templates'. */
export type CompositeDraft = {
  readonly layers: readonly CompositeLayer[];
  readonly document?: DocumentDraft;
};

export type CompositeLayer =
  | { readonly kind: 'server'; readonly sequence: number; readonly templateId: string }
  | { readonly kind: 'inline'; readonly sequence: number; readonly documents: readonly DocumentDraft[]; readonly recipients: readonly OverlayRecipient[]; readonly fromTemplateRoles?: boolean };

/**
 * A recipient of an inline template or a templateRoles entry: it fills the template role of
 * the same roleName (else the same recipientId), or adds a recipient. Fields left out keep the
 * role's.
 */
export type OverlayRecipient = {
  readonly type?: RecipientType;
  readonly recipientId?: string;
  readonly roleName?: string;
  readonly name?: string;
  /** As given (validated when the envelope is assembled: an unfilled role has none). */
  readonly email?: string;
  readonly routingOrder?: number;
  readonly clientUserId?: string;
  /**
   * An in-person signer's host (InPersonSigner hostName/hostEmail). A templateRoles entry for an
   * in-person role gives the host as its name and email, and the signer as inPersonSignerName
   * (`signerName` here), as DocuSign's TemplateRole model describes.
   */
  readonly hostName?: string;
  readonly hostEmail?: string;
  readonly signerName?: string;
  /** A witness's signer (Witness.witnessFor). */
  readonly witnessFor?: string;
  readonly agentCanEditName?: boolean;
  readonly agentCanEditEmail?: boolean;
  /** Documents hidden from the recipient (with enforceSignerVisibility), by the composite's documentIds. */
  readonly excludedDocuments?: readonly string[];
  /** Tabs the recipient gains, placed on the composite's documents. */
  readonly tabs: readonly Tab[];
  /** templateRoles' values for the role's template tabs, matched by tabLabel (tab-prefill.ts). */
  readonly prefills?: readonly TabPrefill[];
};
