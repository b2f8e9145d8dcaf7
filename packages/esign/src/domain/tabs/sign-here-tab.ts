import type { AnchorSpec } from '../envelope/envelope.ts';
import type { Tab } from './tab.ts';

/** A signHere tab in the SignHere vocabulary (what was stored before the tab family, and what tests write). */
export type SignHereSpec = {
  readonly anchor?: AnchorSpec | undefined;
  readonly documentId?: string | undefined;
  readonly pageNumber?: number | undefined;
  readonly xPosition?: number | undefined;
  readonly yPosition?: number | undefined;
  readonly tabLabel?: string | undefined;
  readonly name?: string | undefined;
  readonly optional?: boolean | undefined;
  readonly scaleValue?: number | undefined;
};

/** The domain Tab of a SignHere spec: by its anchor, else at documentId (default "1") / pageNumber / position. */
export function signHereTab(s: SignHereSpec): Tab {
  return {
    type: 'signHere',
    ...(s.tabLabel !== undefined ? { tabLabel: s.tabLabel } : {}),
    ...(s.name !== undefined ? { name: s.name } : {}),
    required: !(s.optional ?? false),
    locked: false,
    place: s.anchor
      ? { kind: 'anchor', anchor: { ...s.anchor, allowWhiteSpaceInCharacters: s.anchor.allowWhiteSpaceInCharacters ?? false } }
      : { kind: 'absolute', documentId: s.documentId ?? '1', pageNumber: s.pageNumber ?? 1, xPosition: s.xPosition ?? 0, yPosition: s.yPosition ?? 0 },
    ...(s.scaleValue !== undefined ? { scaleValue: s.scaleValue } : {}),
  };
}

/** Several SignHere specs as domain Tabs. */
export function signHereTabs(specs: readonly SignHereSpec[]): Tab[] {
  return specs.map(signHereTab);
}
