import type { AnchorUnits } from './envelope.ts';

// DocuSign's "pixels" are 1/72 inch, the same as PDF points, so a Letter page is 612 × 792.
const POINTS_PER_UNIT: Readonly<Record<AnchorUnits, number>> = { pixels: 1, inches: 72, mms: 72 / 25.4, cms: 72 / 2.54 };

/** An anchorXOffset/anchorYOffset in PDF points. */
export function anchorOffsetInPoints(value: number, units: AnchorUnits): number {
  return value * POINTS_PER_UNIT[units];
}
