import type { Tab } from './tab.ts';

/** A tab's box in points. */
export type TabSize = { readonly width: number; readonly height: number };

// The defaults of a box the sender did not size: a signature is the signature stamp's box
// (@signet/pdf SIGN_HERE_SIZE, 144 × 40), a mark (checkbox, radio) 14 points square, text and
// buttons a single line (@signet/pdf TAB_VALUE_SIZES).
const SIGNATURE: TabSize = { width: 144, height: 40 };
const MARK: TabSize = { width: 14, height: 14 };
const LINE: TabSize = { width: 120, height: 20 };
const BUTTON: TabSize = { width: 100, height: 24 };

/**
 * The box a tab is shown in on the signing page and drawn in on the completed PDF: the sender's
 * width/height where given, else its type's default; a signature's scaleValue scales it.
 */
export function tabSize(tab: Tab): TabSize {
  const base = tab.type === 'signHere' || tab.type === 'initialHere' || tab.type === 'signerAttachment' ? SIGNATURE
    : tab.type === 'checkbox' || tab.type === 'radioGroup' ? MARK
      : tab.type === 'approve' || tab.type === 'decline' || tab.type === 'view' ? BUTTON : LINE;
  const scale = tab.type === 'signHere' || tab.type === 'initialHere' || tab.type === 'signerAttachment' ? tab.scaleValue ?? 1 : 1;
  return { width: (tab.width ?? base.width) * scale, height: (tab.height ?? base.height) * scale };
}
