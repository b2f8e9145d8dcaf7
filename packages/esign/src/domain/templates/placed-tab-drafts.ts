import type { DocumentDraft, SignHereDraft } from '../envelope/envelope-draft.ts';
import type { SignHereTab } from '../envelope/envelope.ts';

// Placed template tabs turned back into requests, to place them again on other or changed documents.

/** One anchor request placed N times is N tabs: placing it again needs it once. */
export function dedupe(tabs: readonly SignHereTab[]): SignHereTab[] {
  const seen = new Set<string>();
  return tabs.filter((t) => {
    if (!t.anchor) return true;
    const key = JSON.stringify([t.anchor, t.tabLabel, t.name, t.optional, t.scaleValue]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A placed template tab as a request to place it again: by its anchor, or at its position on the (replacing) document. */
export function toDraft(t: SignHereTab, documents: readonly DocumentDraft[], replacementId: string | undefined): SignHereDraft {
  const common = { optional: t.optional, ...(t.tabLabel !== undefined ? { tabLabel: t.tabLabel } : {}), ...(t.name !== undefined ? { name: t.name } : {}), ...(t.scaleValue !== undefined ? { scaleValue: t.scaleValue } : {}) };
  if (t.anchor) return { ...common, anchor: t.anchor };
  const documentId = documents.some((d) => d.documentId === t.documentId) ? t.documentId : (replacementId ?? t.documentId);
  return { ...common, documentId, pageNumber: t.pageNumber, xPosition: t.xPosition, yPosition: t.yPosition };
}
