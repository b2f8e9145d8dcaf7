import { EsignError } from '../../errors.ts';
import { labelOf, MAX_TABS_PER_RECIPIENT } from '../tabs/check-tab-relations.ts';
import type { Radio, Tab, TabPlace } from '../tabs/tab.ts';
import { initialTabValue } from '../tabs/values/initial-tab-value.ts';
import { assertTabOnPage, type PageSize } from './assert-tab-on-page.ts';
import type { EnvelopeDocument } from './envelope.ts';
import type { PlacedRadio, PlacedTab, TabSpot } from './placed-tab.ts';
import type { EnvelopeDeps } from './ports.ts';

/** The converted documents tabs are placed on. */
export type PlacingContext = {
  readonly deps: Pick<EnvelopeDeps, 'anchors' | 'random'>;
  readonly documents: readonly EnvelopeDocument[];
  readonly pdfs: readonly Uint8Array[];
  readonly pageSizes: readonly (readonly PageSize[])[];
};

function describe(tab: Tab, recipientId: string): string {
  const label = labelOf(tab);
  return `The ${tab.type} tab${label !== undefined ? ` "${label}"` : ''} of recipientId ${recipientId}`;
}

/**
 * Every spot a place resolves to: the matches of its anchor across all the documents (none when
 * absent and anchorIgnoreIfNotPresent, else ANCHOR_TAB_STRING_NOT_FOUND), or its absolute
 * position. Each spot must lie on a page of its document (assertTabOnPage).
 */
async function resolvePlace(ctx: PlacingContext, place: TabPlace, what: string): Promise<TabSpot[]> {
  if (place.kind === 'anchor') {
    const anchor = place.anchor;
    const matches = await ctx.deps.anchors.find(ctx.pdfs, anchor);
    if (matches.length === 0) {
      // DocuSign drops an anchor tab silently only when anchorIgnoreIfNotPresent is true.
      if (anchor.ignoreIfNotPresent) return [];
      throw new EsignError('ANCHOR_TAB_STRING_NOT_FOUND', `Anchor string "${anchor.anchorString}" (${what}) is in none of the documents.`);
    }
    return matches.map((m) => {
      const document = ctx.documents[m.documentIndex];
      if (!document) throw new TypeError(`anchor finder returned document index ${m.documentIndex} of ${ctx.documents.length}`);
      const spot = { documentId: document.documentId, pageNumber: m.pageNumber, xPosition: m.xPosition, yPosition: m.yPosition };
      // An offset can push an anchored tab off its page: refused as an absolute one is, never moved (docs/reliability.md).
      assertTabOnPage(spot, ctx.pageSizes[m.documentIndex] ?? [], `${what} at anchor "${anchor.anchorString}" (offset ${anchor.xOffset}, ${anchor.yOffset} ${anchor.units})`);
      return spot;
    });
  }
  if (place.kind === 'formField') {
    // No PDF form field took it (claim-pdf-fields.ts runs first): its documentId's corner, else nowhere.
    if (place.otherwise) return resolvePlace(ctx, place.otherwise, what);
    throw new EsignError('INVALID_REQUEST_BODY', `${what} needs an anchorString, or a documentId with pageNumber, xPosition and yPosition: no PDF form field of a document sent with transformPdfFields is named by its tabLabel${place.documentId !== undefined ? ` on documentId ${place.documentId}` : ''}.`);
  }
  const document = ctx.documents.find((d) => d.documentId === place.documentId);
  if (!document) throw new EsignError('TAB_REFERS_TO_MISSING_DOCUMENT', `${what} refers to documentId "${place.documentId}", which is not present.`);
  const spot = { documentId: document.documentId, pageNumber: place.pageNumber, xPosition: place.xPosition, yPosition: place.yPosition };
  assertTabOnPage(spot, ctx.pageSizes[document.order - 1] ?? [], what);
  return [spot];
}

// A tab or radio that fell back from a form field to its page's corner is kept with that place,
// so that it reads back as placed.
function asPlaced<T extends { readonly place: TabPlace }>(t: T): T {
  return t.place.kind === 'formField' && t.place.otherwise ? { ...t, place: t.place.otherwise } : t;
}

/**
 * One recipient's tabs placed on the documents, in the order given: one PlacedTab per anchor
 * match (each with a new tabId), one per absolute tab. A radio group is one PlacedTab whose
 * radios each have one spot: a radio's anchor must match exactly once (a radio placed twice
 * would be two buttons of one choice), and a radio whose anchor is absent with
 * anchorIgnoreIfNotPresent leaves the group; a group left without radios is dropped. Values
 * start as the sender left them (initialTabValue).
 */
export async function placeTabs(ctx: PlacingContext, tabs: readonly Tab[], recipientId: string): Promise<PlacedTab[]> {
  const placed: PlacedTab[] = [];
  for (const tab of tabs) {
    const what = describe(tab, recipientId);
    if (tab.type !== 'radioGroup') {
      const kept = asPlaced(tab);
      for (const spot of await resolvePlace(ctx, tab.place, what)) placed.push({ ...spot, tabId: ctx.deps.random.uuid(), recipientId, tab: kept, value: initialTabValue(tab) });
      // Each anchor match is a tab: a document repeating its anchor must not carry the recipient past the bound.
      if (placed.length > MAX_TABS_PER_RECIPIENT) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${recipientId} would hold ${placed.length} tabs or more once anchors are matched (one tab per match); a recipient holds at most ${MAX_TABS_PER_RECIPIENT}.`);
      continue;
    }
    const radios: Radio[] = [];
    const spots: PlacedRadio[] = [];
    for (const radio of tab.radios) {
      const found = await resolvePlace(ctx, radio.place, `${what}, radio "${radio.value}"`);
      if (found.length > 1) throw new EsignError('INVALID_REQUEST_BODY', `${what}: the anchor of radio "${radio.value}" matches ${found.length} places; a radio's anchor must match exactly once.`);
      const [spot] = found;
      if (!spot) continue;
      radios.push(asPlaced(radio));
      spots.push({ ...spot, tabId: ctx.deps.random.uuid() });
    }
    const [first] = spots;
    if (!first) continue;
    const group = radios.length === tab.radios.length ? tab : { ...tab, radios };
    placed.push({ documentId: first.documentId, pageNumber: first.pageNumber, xPosition: first.xPosition, yPosition: first.yPosition, tabId: ctx.deps.random.uuid(), recipientId, tab: group, radios: spots, value: initialTabValue(group) });
  }
  if (placed.length > MAX_TABS_PER_RECIPIENT) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${recipientId} would hold ${placed.length} tabs once anchors are matched (one tab per match); a recipient holds at most ${MAX_TABS_PER_RECIPIENT}.`);
  return placed;
}
