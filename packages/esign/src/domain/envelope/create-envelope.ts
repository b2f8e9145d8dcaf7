import type { DocumentDraft, EnvelopeDraft } from './envelope-draft.ts';
import type { Envelope, EnvelopeDocument, Recipient } from './envelope.ts';
import { assertNoTabsOnSupplements } from './document-supplement.ts';
import { assertVisibility } from './document-visibility.ts';
import { inDocumentOrder } from './document-order.ts';
import type { PlacedTab } from './placed-tab.ts';
import { placeTabs } from './place-tabs.ts';
import { addFormTabs, type ContentRecipient } from './add-form-tabs.ts';
import type { ConvertedDocument, EnvelopeDeps } from './ports.ts';
import { sendDraft } from './send-envelope.ts';
import { envelopeWrite } from './envelope-write.ts';
import { assertSendable } from './assert-sendable.ts';
import { API_DEFAULT_SETTINGS } from '../notification/envelope-notification.ts';
import { newWorkflow } from './workflow.ts';
import type { EnvelopeBrand } from '../brands/brand.ts';
import { resolveEnvelopeBrand } from '../brands/brand-use-cases.ts';
import { inheritAccountFields } from '../account/account-custom-fields.ts';
import { assertEnvelopeSize } from './envelope-limits.ts';
import { newPasscode } from '../signing/passcode.ts';

/**
 * DocuSign CreateEnvelope: the content prepared (prepareContent), then stored, sent at once when
 * `status` is `sent` (storeNewEnvelope).
 */
export async function createEnvelope(deps: EnvelopeDeps, input: { accountId: string; senderUserId: string; draft: EnvelopeDraft }): Promise<Envelope> {
  const { draft } = input;
  // Fail before the (expensive) conversions when the envelope could not be sent anyway.
  if (draft.status === 'sent') assertSendable(draft);
  const brand = await resolveEnvelopeBrand(deps.brands, input.accountId, draft.brandId);
  const content = await prepareContent(deps, input.accountId, draft.documents, draft.recipients);
  const codeHashes = await Promise.all(draft.recipients.map((r) => (r.accessCode !== undefined ? deps.hashAccessCode(r.accessCode) : Promise.resolve(undefined))));
  const recipients: Recipient[] = draft.recipients.map((r, i) => ({
    recipientId: r.recipientId,
    recipientIdGuid: deps.random.uuid(),
    type: r.type,
    email: r.email,
    name: r.name,
    routingOrder: r.routingOrder,
    status: 'created',
    ...(r.clientUserId !== undefined ? { clientUserId: r.clientUserId } : {}),
    ...(r.roleName !== undefined ? { roleName: r.roleName } : {}),
    ...(r.host ? { host: r.host } : {}),
    ...(r.witnessFor !== undefined ? { witnessFor: r.witnessFor } : {}),
    ...(r.language !== undefined ? { language: r.language } : {}),
    ...(r.agentCanEditName === true ? { agentCanEditName: true } : {}),
    ...(r.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
    ...(codeHashes[i] !== undefined ? { accessCode: { hash: codeHashes[i], failures: 0 } } : {}),
    ...(r.passcode ? { passcode: newPasscode(r.passcode) } : {}),
    ...(r.excludedDocuments && r.excludedDocuments.length > 0 ? { excludedDocuments: r.excludedDocuments } : {}),
    tabs: content.tabs[i] ?? [],
  }));
  assertVisibility(content.documents, recipients);
  return storeNewEnvelope(deps, { ...input, documents: content.documents, pdfs: content.pdfs, recipients, brand });
}

/** Documents converted to PDF and every recipient's tabs placed on them: what an envelope and a template both hold. */
export type PreparedContent = {
  readonly documents: EnvelopeDocument[];
  /** The PDFs, in document order. */
  readonly pdfs: Uint8Array[];
  /** Each recipient's placed tabs, in the order the recipients were given. */
  readonly tabs: PlacedTab[][];
};

/**
 * Converts every document to PDF and places every tab of every type (place-tabs.ts: anchor
 * search across all the documents, or an absolute position, each checked to lie on a page of
 * its document). The one path by which envelopes and templates get their content.
 */
export async function prepareContent(
  deps: Pick<EnvelopeDeps, 'converter' | 'anchors' | 'random' | 'hashBytes'>,
  accountId: string,
  draftDocuments: readonly DocumentDraft[],
  draftRecipients: readonly ContentRecipient[],
): Promise<PreparedContent> {
  // Document.order places documents (document-order.ts); the content is built in that order.
  const drafts = inDocumentOrder(draftDocuments);
  // Documents convert concurrently; the converter bounds its own concurrency per engine.
  const converted: ConvertedDocument[] = await Promise.all(drafts.map((d) => deps.converter.convert(d, accountId)));
  const pdfs = converted.map((c) => c.pdf);
  // Every path that makes or changes content comes here with all its documents, kept and new.
  assertEnvelopeSize({ bytes: pdfs.reduce((n, pdf) => n + pdf.byteLength, 0), pages: converted.reduce((n, c) => n + c.pages.length, 0) }, 'An envelope or template');
  const pageSizes = converted.map((c) => c.pages);
  const documents: EnvelopeDocument[] = drafts.map((d, i) => ({
    documentId: d.documentId,
    name: d.name,
    fileExtension: d.fileExtension,
    order: i + 1,
    pageCount: converted[i]?.pages.length ?? 0,
    sha256: deps.hashBytes(pdfs[i] ?? new Uint8Array()),
    ...(d.supplement ? { supplement: d.supplement } : {}),
  }));
  const tabs: PlacedTab[][] = [];
  const withFormTabs = addFormTabs(drafts, converted, draftRecipients);
  for (const r of withFormTabs) tabs.push(await placeTabs({ deps, documents, pdfs, pageSizes }, r.tabs, r.recipientId));
  withFormTabs.forEach((r, i) => assertNoTabsOnSupplements(documents, r.recipientId, tabs[i] ?? []));
  return { documents, pdfs, tabs };
}

/**
 * Stores a new envelope made of prepared content, and when `status` is `sent` also the signing
 * tokens and mails of the first routing order, in one store call: nothing is stored unless all
 * of it succeeded.
 */
export async function storeNewEnvelope(
  deps: EnvelopeDeps,
  input: {
    accountId: string;
    senderUserId: string;
    draft: Pick<EnvelopeDraft, 'status' | 'emailSubject' | 'emailBlurb' | 'notification' | 'eventNotification' | 'workflow' | 'customFields' | 'enforceSignerVisibility' | 'envelopeIdStamping'>;
    documents: readonly EnvelopeDocument[];
    pdfs: readonly Uint8Array[];
    recipients: readonly Recipient[];
    /** The look resolved for it (resolveEnvelopeBrand); absent: the service's own. */
    brand: EnvelopeBrand | undefined;
    /** A bulk send copy's id, fixed by its batch and row (domain/bulk-send/send-bulk-copy.ts); absent: a new random one. */
    envelopeId?: string;
  },
): Promise<Envelope> {
  const { draft, documents, pdfs } = input;
  const now = deps.clock();
  const account = await deps.accounts.look(input.accountId);
  // The account's custom fields first, with the envelope's values (domain/account/account-custom-fields.ts).
  const customFields = deps.accountFields ? inheritAccountFields(await deps.accountFields.list(input.accountId), draft.customFields ?? []) : draft.customFields;
  const envelope: Envelope = {
    envelopeId: input.envelopeId ?? deps.random.uuid(),
    accountId: input.accountId,
    senderUserId: input.senderUserId,
    status: 'created',
    emailSubject: draft.emailSubject,
    ...(draft.emailBlurb !== undefined ? { emailBlurb: draft.emailBlurb } : {}),
    createdAt: now,
    statusChangedAt: now,
    documents,
    recipients: input.recipients,
    // Custom fields are numbered within the envelope, as DocuSign gives each a fieldId.
    ...(customFields && customFields.length > 0 ? { customFields: customFields.map((f, i) => ({ ...withoutId(f), fieldId: String(i + 1) })) } : {}),
    // Reminders and expiration: the store derives the scheduler's due time from it.
    notification: { settings: draft.notification ?? API_DEFAULT_SETTINGS, reminded: {} },
    ...(draft.workflow ? { workflow: newWorkflow(draft.workflow, input.recipients, () => deps.random.uuid()) } : {}),
    ...(input.brand ? { brand: input.brand } : {}),
    ...(Object.keys(account).length > 0 ? { account } : {}),
    ...(draft.enforceSignerVisibility ? { enforceSignerVisibility: true } : {}),
    ...(draft.envelopeIdStamping ? { envelopeIdStamping: true } : {}),
    version: 1,
  };
  const change = draft.status === 'sent' ? sendDraft(deps, envelope, now) : { envelope, signingTokens: [], mails: [] };
  // A new envelope starts at version 1 whether or not it was sent on creation.
  const stored = { ...change, envelope: { ...change.envelope, version: 1 }, ...(draft.eventNotification ? { eventNotification: draft.eventNotification } : {}) };
  await deps.store.create(envelopeWrite(undefined, stored), new Map(documents.map((d, i) => [d.documentId, pdfs[i] ?? new Uint8Array()])));
  return stored.envelope;
}

function withoutId<T extends { fieldId?: string }>(f: T): Omit<T, 'fieldId'> {
  const { fieldId: _ignored, ...rest } = f;
  return rest;
}
