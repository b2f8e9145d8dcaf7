import { EsignError } from '../../errors.ts';
import { signsDocuments } from './recipient-kinds.ts';
import { checkTabRelations } from '../tabs/check-tab-relations.ts';
import type { Tab } from '../tabs/tab.ts';
import { prepareContent } from './create-envelope.ts';
import type { DocumentDraft } from './envelope-draft.ts';
import type { Envelope, Recipient } from './envelope.ts';
import { getEnvelope } from './get-envelope.ts';
import type { PlacedTab } from './placed-tab.ts';
import type { EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';

/** What updateTabs makes of one tab: the tab it becomes (its stored fields with the request's over them, parsed again). */
export type EnvelopeTabPatch = { readonly tabId: string; readonly tab: Tab };

const FINISHED: ReadonlySet<Envelope['status']> = new Set(['completed', 'declined', 'voided']);

/**
 * The signer whose tabs a sender may still change: tabs and their values are the sender's until
 * the recipient has signed (DocuSign refuses a change after with INVALID_TAB_OPERATION), and a
 * finished envelope changes no more. A carbon copy has no tabs.
 */
export function editableSigner(envelope: Envelope, recipientId: string): Recipient {
  const recipient = envelope.recipients.find((r) => r.recipientId === recipientId);
  if (!recipient) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT', `recipientId "${recipientId}"`);
  if (!signsDocuments(recipient)) throw new EsignError('INVALID_TAB_OPERATION', `recipientId "${recipientId}" is ${recipient.type === 'certifiedDelivery' ? 'a certified delivery' : recipient.type === 'carbonCopy' ? 'a carbon copy' : `an ${recipient.type}`}: it has no tabs.`);
  if (FINISHED.has(envelope.status)) throw new EsignError('INVALID_TAB_OPERATION', `The envelope is ${envelope.status}; its tabs can no longer change.`);
  if (recipient.status !== 'created' && recipient.status !== 'sent' && recipient.status !== 'delivered') {
    throw new EsignError('INVALID_TAB_OPERATION', `recipientId "${recipientId}" has ${recipient.status === 'declined' ? 'declined' : 'signed'}; its tabs can no longer change.`);
  }
  return recipient;
}

/** Places tabs on the envelope's stored PDFs, through prepareContent (a PDF passes through the converter unchanged). */
export async function placeOnEnvelope(deps: EnvelopeDeps, envelope: Envelope, requests: readonly { recipientId: string; tabs: readonly Tab[] }[]): Promise<PlacedTab[][]> {
  const drafts: DocumentDraft[] = await Promise.all(envelope.documents.map(async (d) => {
    const bytes = await deps.store.documentPdf(envelope.accountId, envelope.envelopeId, d.documentId);
    if (!bytes) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${d.documentId}"`);
    return { documentId: d.documentId, name: d.name, fileExtension: 'pdf', bytes };
  }));
  return (await prepareContent(deps, envelope.accountId, drafts, requests)).tabs;
}

/** The envelope with one recipient's tabs replaced, their relations (conditions, formulas) checked together. */
function withTabs(current: Envelope, recipientId: string, edit: (tabs: readonly PlacedTab[]) => PlacedTab[]): Envelope {
  const recipient = editableSigner(current, recipientId);
  const tabs = edit(recipient.tabs);
  checkTabRelations(tabs.map((t) => t.tab), `recipientId ${recipientId}`);
  return { ...current, recipients: current.recipients.map((r) => (r === recipient ? { ...r, tabs } : r)), version: current.version + 1 };
}

async function save(deps: EnvelopeDeps, accountId: string, envelopeId: string, recipientId: string, edit: (tabs: readonly PlacedTab[]) => PlacedTab[]): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => ({ envelope: withTabs(current, recipientId, edit), signingTokens: [], mails: [], tabsOf: [recipientId] }));
}

/** EnvelopesApi.createTabs: more tabs for one signer, placed now. Returns the new tabs. */
export async function addEnvelopeTabs(deps: EnvelopeDeps, accountId: string, envelopeId: string, recipientId: string, tabs: readonly Tab[]): Promise<PlacedTab[]> {
  const before = await getEnvelope(deps, accountId, envelopeId);
  editableSigner(before, recipientId);
  const [placed = []] = await placeOnEnvelope(deps, before, [{ recipientId, tabs }]);
  await save(deps, accountId, envelopeId, recipientId, (existing) => [...existing, ...placed]);
  return placed;
}

/**
 * EnvelopesApi.updateTabs: each named tab replaced by its patch's tab, placed again, keeping its
 * tabId (and its value unless the patch gives one). An anchor may match several times: the first
 * match keeps the tabId, the others are new tabs.
 */
export async function updateEnvelopeTabs(deps: EnvelopeDeps, accountId: string, envelopeId: string, recipientId: string, patches: readonly EnvelopeTabPatch[]): Promise<Envelope> {
  const before = await getEnvelope(deps, accountId, envelopeId);
  const recipient = editableSigner(before, recipientId);
  for (const p of patches) if (!recipient.tabs.some((t) => t.tabId === p.tabId)) throw new EsignError('INVALID_TAB_OPERATION', `tabId "${p.tabId}" is not a tab of recipientId "${recipientId}".`);
  // One placing request per patch (one conversion for all), so each patch's matches stay apart.
  const placed = await placeOnEnvelope(deps, before, patches.map((p) => ({ recipientId, tabs: [p.tab] })));
  const byTab = new Map<string, PlacedTab[]>(patches.map((p, i) => [p.tabId, (placed[i] ?? []).map((x, j) => (j === 0 ? { ...x, tabId: p.tabId } : x))]));
  return save(deps, accountId, envelopeId, recipientId, (existing) => {
    for (const p of patches) if (!existing.some((t) => t.tabId === p.tabId)) throw new EsignError('INVALID_TAB_OPERATION', `tabId "${p.tabId}" is not a tab of recipientId "${recipientId}".`);
    return existing.flatMap((t) => byTab.get(t.tabId) ?? [t]);
  });
}

/** EnvelopesApi.deleteTabs: the named tabs go (a tab another one's condition or formula reads cannot). */
export async function deleteEnvelopeTabs(deps: EnvelopeDeps, accountId: string, envelopeId: string, recipientId: string, tabIds: readonly string[]): Promise<Envelope> {
  return save(deps, accountId, envelopeId, recipientId, (existing) => {
    for (const id of tabIds) if (!existing.some((t) => t.tabId === id)) throw new EsignError('INVALID_TAB_OPERATION', `tabId "${id}" is not a tab of recipientId "${recipientId}".`);
    return existing.filter((t) => !tabIds.includes(t.tabId));
  });
}
