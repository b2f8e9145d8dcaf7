/**
 * The text of one page as pdf.js reports it, reduced to what anchor search needs. Coordinates
 * are PDF points relative to the page's visible box (CropBox) corner, origin bottom-left and
 * y up, exactly pdf.js's and pdf-lib's user space (docs/pdf.md, "Anchors").
 */
export type TextRun = {
  str: string;
  /** Left end of the baseline. */
  x: number;
  /** The baseline. */
  y: number;
  /** Advance width of the whole run. */
  width: number;
  /** Font size, the height pdf.js reports. */
  height: number;
  /** Share of `height` above the baseline (the font's ascent; 0.8 when unknown). */
  ascent: number;
  /** pdf.js saw a line break after this run. */
  eol: boolean;
};

export type PageText = { pageNumber: number; width: number; height: number; runs: TextRun[] };

/** Every page of one document; `documentIndex` is its position in the envelope's list. */
export type DocumentText = { documentIndex: number; pages: PageText[] };
