import type { DocumentDraft } from '../envelope/envelope-draft.ts';
import type { PlacedTab, TabSpot } from '../envelope/placed-tab.ts';
import type { Tab, TabPlace } from '../tabs/tab.ts';

// Placed template tabs turned back into requests, to place them again on other or changed documents.

/** Whether the tab (or a radio of it) was placed by anchor: it is searched again, not kept where it was. */
export function isAnchored(t: PlacedTab): boolean {
  return t.tab.type === 'radioGroup' ? t.tab.radios.some((r) => r.place.kind === 'anchor') : t.tab.place.kind === 'anchor';
}

/** One anchor request placed N times is N tabs: placing it again needs it once. */
export function dedupe(tabs: readonly PlacedTab[]): PlacedTab[] {
  const seen = new Set<string>();
  return tabs.filter((t) => {
    if (!isAnchored(t)) return true;
    const key = JSON.stringify(t.tab);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A placed template tab as a request to place it again: by its anchor, or at its spot on the
 * (replacing) document. Its value is carried in as the sender's prefill.
 */
export function toDraft(t: PlacedTab, documents: readonly DocumentDraft[], replacementId: string | undefined): Tab {
  const at = (place: TabPlace, spot: TabSpot | undefined): TabPlace => {
    if (place.kind === 'anchor' || !spot) return place;
    const documentId = documents.some((d) => d.documentId === spot.documentId) ? spot.documentId : (replacementId ?? spot.documentId);
    return { kind: 'absolute', documentId, pageNumber: spot.pageNumber, xPosition: spot.xPosition, yPosition: spot.yPosition };
  };
  const tab = t.tab;
  if (tab.type === 'radioGroup') return { ...tab, radios: tab.radios.map((r, i) => ({ ...r, place: at(r.place, t.radios?.[i]), selected: r.value === t.value })) };
  return withValue({ ...tab, place: at(tab.place, t) }, t.value);
}

/** The tab with `value` as its sender's value, so that placing it again starts from it. */
function withValue(tab: Tab, value: string): Tab {
  switch (tab.type) {
    case 'checkbox':
      return { ...tab, selected: value === 'true' };
    case 'text': case 'company': case 'title': case 'date': case 'email': case 'zip': case 'ssn':
    case 'number': case 'numerical': case 'list': case 'note':
      return { ...tab, value };
    default:
      return tab;
  }
}
