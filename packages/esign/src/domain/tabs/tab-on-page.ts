import type { Tab } from './tab.ts';

/** A resolved place on a document page: points from the page's top-left corner, y down. */
export type PagePlace = { readonly documentId: string; readonly pageNumber: number; readonly xPosition: number; readonly yPosition: number };

/**
 * A recipient's tab as the signing page and completion see it: the domain tab, its id, where it
 * was placed (one place; a radio group one per radio, in the order of its radios) and its
 * current value in wire form (initialTabValue until the signer changes it).
 */
export type TabOnPage = { readonly tabId: string; readonly tab: Tab; readonly places: readonly PagePlace[]; readonly value: string };
