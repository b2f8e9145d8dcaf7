import { EsignError } from '../../errors.ts';
import { checkTabRelations } from '../tabs/check-tab-relations.ts';
import { dedupe, isAnchored, toDraft } from '../templates/placed-tab-drafts.ts';
import { prepareContent } from './create-envelope.ts';
import { inDocumentOrder } from './document-order.ts';
import type { DocumentDraft } from './envelope-draft.ts';
import type { EnvelopeDocument } from './envelope.ts';
import type { PlacedTab } from './placed-tab.ts';
import type { EnvelopeDeps } from './ports.ts';

/** Documents added (a new documentId), replaced (an existing one) or removed. */
export type DocumentsChange = { readonly upsert: readonly DocumentDraft[]; readonly remove: readonly string[] };

/** The content after the change: documents in order, each holder's placed tabs (same order), and the PDFs of the upserted documents. */
export type ReplacedContent = { readonly documents: EnvelopeDocument[]; readonly tabs: PlacedTab[][]; readonly pdfs: ReadonlyMap<string, Uint8Array> };

/** A recipient or template role: who holds placed tabs. */
type TabHolder = { readonly recipientId: string; readonly tabs: readonly PlacedTab[] };

/**
 * A draft's or a template's documents changed, and every placed tab placed again on the new set
 * through prepareContent: each anchored tab is searched again across all the documents; a
 * positioned tab stays where it was (checked against the replacing page) and keeps its tabId,
 * and goes with its document when that is removed (a radio group keeps the radios of the other
 * documents, and goes when none is left), so no placed tab points at a document that is gone.
 * Kept documents are read back from the store as PDFs (a PDF passes through the converter
 * unchanged); only the upserted ones are converted anew, with the same checks as a create.
 * A tab whose conditional parent or formula input went with a removed document is refused by
 * checkTabRelations rather than left dangling. `what` names the owner in errors.
 */
export async function replaceDocuments(
  deps: Pick<EnvelopeDeps, 'converter' | 'anchors' | 'random' | 'hashBytes'>,
  current: { readonly accountId: string; readonly documents: readonly EnvelopeDocument[]; readonly holders: readonly TabHolder[]; readonly what: string },
  storedPdf: (documentId: string) => Promise<Uint8Array | undefined>,
  change: DocumentsChange,
): Promise<ReplacedContent> {
  // The form's tabs are made once, with the envelope or template: a replaced document would have to re-place them all.
  for (const d of change.upsert) if (d.transformPdfFields) throw new EsignError('INVALID_REQUEST_BODY', `documentId ${d.documentId}: transformPdfFields is honoured when an envelope or template is created, not when a document is added or replaced.`);
  for (const id of change.remove) if (!current.documents.some((d) => d.documentId === id)) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${id}" is not in ${current.what}.`);
  const removed = new Set(change.remove);
  const upserted = new Map(change.upsert.map((d) => [d.documentId, d]));
  const kept = current.documents.filter((d) => !removed.has(d.documentId) && !upserted.has(d.documentId));
  const stored = new Map(await Promise.all(kept.map(async (d) => {
    const bytes = await storedPdf(d.documentId);
    if (!bytes) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${d.documentId}" of ${current.what}`);
    return [d.documentId, { documentId: d.documentId, name: d.name, fileExtension: 'pdf', bytes, ...(d.supplement ? { supplement: d.supplement } : {}) }] as const;
  })));
  const listed = [...current.documents.map((d) => d.documentId).filter((id) => !removed.has(id)), ...change.upsert.map((d) => d.documentId).filter((id) => !current.documents.some((d) => d.documentId === id))];
  // Document.order (document-order.ts): a document keeps its place unless its order is given; a
  // new one without order goes after the others. The drafts then go to prepareContent in place.
  const places = new Map(current.documents.map((d) => [d.documentId, d.order]));
  const drafts = inDocumentOrder(
    listed.map((id) => upserted.get(id) ?? stored.get(id)).filter((d): d is DocumentDraft => d !== undefined),
    (d, i) => places.get(d.documentId) ?? current.documents.length + i + 1,
  ).map(({ order: _placed, ...d }) => d);
  const requests = current.holders.map((h) => {
    const keptTabs = dedupe(h.tabs).map((x) => withoutRemoved(x, removed)).filter((x): x is PlacedTab => x !== undefined);
    return { holder: h, kept: keptTabs, drafts: keptTabs.map((x) => toDraft(x, drafts, undefined)) };
  });
  const content = await prepareContent(deps, current.accountId, drafts, requests.map((q) => ({ recipientId: q.holder.recipientId, tabs: q.drafts })));
  const tabs = requests.map((q, i) => {
    const placed = content.tabs[i] ?? [];
    // Positioned tabs come back one for one, in order: they keep their ids.
    const positioned = q.kept.filter((x) => !isAnchored(x));
    let next = 0;
    const again = placed.map((x) => (isAnchored(x) ? x : keepIds(x, positioned[next++])));
    checkTabRelations(again.map((x) => x.tab), `recipientId ${q.holder.recipientId} (after the documents changed)`);
    return again;
  });
  // The stored bytes are PDF whatever the upload was; a kept document keeps its original extension.
  const documents = content.documents.map((d) => ({ ...d, fileExtension: upserted.get(d.documentId)?.fileExtension ?? current.documents.find((x) => x.documentId === d.documentId)?.fileExtension ?? d.fileExtension }));
  const pdfs = new Map(content.documents.map((d, i) => [d.documentId, content.pdfs[i] ?? new Uint8Array()] as const).filter(([id]) => upserted.has(id)));
  return { documents, tabs, pdfs };
}

/** A positioned tab placed again keeps its tabId, and a radio group its positioned radios' ids. */
function keepIds(placed: PlacedTab, was: PlacedTab | undefined): PlacedTab {
  if (!was) return placed;
  const radios = placed.radios?.map((r, i) => (placed.tab.type === 'radioGroup' && placed.tab.radios[i]?.place.kind !== 'anchor' ? { ...r, tabId: was.radios?.[i]?.tabId ?? r.tabId } : r));
  return { ...placed, tabId: was.tabId, ...(radios ? { radios } : {}) };
}

/**
 * The placed tab without what lay on a removed document: a positioned tab there goes; a radio
 * group loses its positioned radios there (and goes when none is left); anchored ones are
 * searched again anyway.
 */
function withoutRemoved(t: PlacedTab, removed: ReadonlySet<string>): PlacedTab | undefined {
  if (t.tab.type !== 'radioGroup') return isAnchored(t) || !removed.has(t.documentId) ? t : undefined;
  const spots = t.radios ?? [];
  const keep = t.tab.radios.map((r, i) => r.place.kind === 'anchor' || !removed.has(spots[i]?.documentId ?? t.documentId));
  if (keep.every(Boolean)) return t;
  const radios = t.tab.radios.filter((_, i) => keep[i]);
  if (radios.length === 0) return undefined;
  const placedRadios = spots.filter((_, i) => keep[i]);
  const first = placedRadios[0];
  return { ...t, ...(first ? { documentId: first.documentId, pageNumber: first.pageNumber, xPosition: first.xPosition, yPosition: first.yPosition } : {}), tab: { ...t.tab, radios }, radios: placedRadios };
}
