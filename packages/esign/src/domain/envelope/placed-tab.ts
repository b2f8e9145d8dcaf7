import type { Tab } from '../tabs/tab.ts';

/**
 * A point on a page where a tab (or one radio of a group) lies: the top-left corner of its box,
 * in points (DocuSign's "pixels") from the page's top-left, resolved once the documents were
 * converted (from an anchor match or the absolute position asked for).
 */
export type TabSpot = {
  readonly documentId: string;
  /** 1-based. */
  readonly pageNumber: number;
  readonly xPosition: number;
  readonly yPosition: number;
};

/** One radio of a placed radio group: its own tabId (the Radio model has one) and spot. */
export type PlacedRadio = TabSpot & { readonly tabId: string };

/**
 * A tab of any type placed on an envelope's (or a template's) documents, with its current value.
 * This is what a recipient holds (Recipient.tabs, TemplateRole.tabs). How to read it:
 *
 * - `tab` is the tab as the sender asked for it (domain/tabs/tab.ts, from parseTabs): `tab.type`,
 *   `tabLabel` (a radio group's `groupName`), `required`, `locked`, `width`/`height` (absent: the
 *   type's default size; a signature's is SIGN_HERE_SIZE × `scaleValue`), `font` on textual
 *   types, `conditional` (shown only while the tab labelled `parentLabel` has `parentValue`),
 *   `items` of a list, `radios` of a group (value, locked, font), `formula`/`formulaText`/
 *   `roundDecimalPlaces` of a formula, `maxLength`/`validation`/`locale`/`min`/`max` of typed
 *   tabs, `kindOf(tab.type)` for its value rule (findValueProblem, takesValue). `tab.place` is the
 *   placement as asked (anchor options or the absolute position), echoed on the wire; where
 *   the tab actually lies is below.
 * - The spot (documentId, pageNumber, xPosition, yPosition) is where the tab lies. An anchor
 *   that matched N times made N placed tabs, each with its own tabId and spot. A radio group's
 *   spot is its first radio's; `radios` holds every radio's, in `tab.radios` order.
 * - `value` is the tab's value as the wire carries it, prefilled from the sender's
 *   value/selected (domain/tabs/values/initial-tab-value.ts) and then changed by updateTabs,
 *   templateRoles prefill and the signer: text as typed; a checkbox "true"/"false"; a radio group
 *   the chosen radio's value ("" for none); a list the chosen item's value; "" for types that
 *   hold none (signatures, buttons, auto-filled tabs until the service fills them, formulas until
 *   computed). Wire output reads `value`, never the spec's own value/selected.
 */
export type PlacedTab = TabSpot & {
  readonly tabId: string;
  readonly recipientId: string;
  readonly tab: Tab;
  /** radioGroup only: each radio's tabId and spot, in `tab.radios` order. */
  readonly radios?: readonly PlacedRadio[];
  readonly value: string;
};
