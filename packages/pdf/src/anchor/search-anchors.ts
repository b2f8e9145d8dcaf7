import { PdfError } from '../pdf-error.ts';
import type { AnchorSearch } from './anchor-options.ts';
import type { DocumentText, PageText, TextRun } from './page-text.ts';

/**
 * How many characters the searches of one budget may compare: a page's text is not bounded by
 * its file's size (a 1.4 KB PDF holds 300,000 characters), and an anchor of 499 characters that
 * almost matches everywhere costs length × anchor comparisons, on the event loop. Ordinary
 * searches compare a few characters per place the anchor's first character appears; a search
 * past this is refused rather than run (~1 s of CPU).
 */
export const ANCHOR_SEARCH_BUDGET = 50_000_000;

/** What the searches sharing it may still compare (one envelope's anchors share one). */
export type SearchBudget = { left: number };
export const newSearchBudget = (): SearchBudget => ({ left: ANCHOR_SEARCH_BUDGET });

/**
 * One place an anchor was found, and where its tab goes. Every coordinate is in DocuSign's tab
 * space: points from the page's top-left corner, y growing downwards (xPosition/yPosition).
 */
export type AnchorMatch = {
  documentIndex: number;
  /** 1-based. */
  pageNumber: number;
  /** The tab's top-left corner: the anchor's top-left (or top-right) corner plus the offsets. */
  x: number;
  y: number;
  /** The anchor text's own box. */
  anchorX: number;
  anchorY: number;
  width: number;
  height: number;
  pageWidth: number;
  pageHeight: number;
};

/** One character of page text, with its box in PDF space; `soft` marks an inserted line break. */
type Char = { c: string; soft: boolean; run?: TextRun; x0: number; x1: number };

const WHITESPACE = /\s/u;
const WORD = /[\p{L}\p{N}_]/u;

/**
 * The page as one character sequence. Runs on one line join with nothing (LibreOffice splits
 * "/sn1/" into "/sn" + "1/") unless there is a visible gap, which reads as a space; a line
 * break becomes a soft separator that matching may step over, so an anchor wrapped across
 * lines is still found (docs/pdf.md, "Anchors").
 */
function pageChars(page: PageText): Char[] {
  const chars: Char[] = [];
  let prev: TextRun | undefined;
  for (const run of page.runs) {
    if (run.str === '' && !run.eol) continue;
    if (prev) {
      const sameLine = !prev.eol && Math.abs(run.y - prev.y) < Math.max(prev.height, run.height) * 0.5;
      const gap = run.x - (prev.x + prev.width);
      if (!sameLine) chars.push({ c: ' ', soft: true, x0: 0, x1: 0 });
      else if (gap > Math.max(prev.height, run.height) * 0.2) chars.push({ c: ' ', soft: false, x0: 0, x1: 0 });
    }
    const glyphs = Array.from(run.str);
    const advance = glyphs.length > 0 ? run.width / glyphs.length : 0;
    glyphs.forEach((c, i) => chars.push({ c, soft: false, run, x0: run.x + advance * i, x1: run.x + advance * (i + 1) }));
    prev = run;
  }
  return chars;
}

/** A page's characters, and where each (lower-cased) character starts: built once per page, whatever the number of anchors. */
type PageIndex = { readonly chars: Char[]; readonly starts: Map<string, number[]> };
const pageIndexes = new WeakMap<PageText, PageIndex>();

function pageIndex(page: PageText): PageIndex {
  let index = pageIndexes.get(page);
  if (index === undefined) {
    const chars = pageChars(page);
    const starts = new Map<string, number[]>();
    chars.forEach((ch, i) => {
      if (ch.soft || WHITESPACE.test(ch.c)) return;
      const key = ch.c.toLowerCase();
      const list = starts.get(key);
      if (list === undefined) starts.set(key, [i]);
      else list.push(i);
    });
    index = { chars, starts };
    pageIndexes.set(page, index);
  }
  return index;
}

function same(a: string, b: string, caseSensitive: boolean): boolean {
  return caseSensitive ? a === b : a === b || a.toLowerCase() === b.toLowerCase();
}

/** Index just past the anchor if it matches at `start`, else -1. */
function matchAt(chars: readonly Char[], start: number, anchor: readonly string[], s: AnchorSearch, budget: SearchBudget): number {
  let i = start;
  budget.left -= anchor.length;
  if (budget.left < 0) throw new PdfError('INVALID_ANCHOR', `searching the documents for anchorString "${s.anchorString.slice(0, 40)}" would take too long: their text is too large or too repetitive for this many anchors; use shorter, more distinctive anchor strings.`);
  for (let k = 0; k < anchor.length; k++) {
    const want = anchor[k]!;
    if (WHITESPACE.test(want)) {
      // Any run of whitespace in the anchor matches any run of whitespace in the text.
      if (k > 0 && WHITESPACE.test(anchor[k - 1]!)) continue;
      if (i >= chars.length || !WHITESPACE.test(chars[i]!.c)) return -1;
      while (i < chars.length && WHITESPACE.test(chars[i]!.c)) i++;
      continue;
    }
    if (k > 0) {
      // Step over inserted line breaks; with anchorAllowWhiteSpaceInCharacters over spaces too.
      while (i < chars.length && WHITESPACE.test(chars[i]!.c) && (chars[i]!.soft || s.allowWhiteSpaceInCharacters)) i++;
    }
    const got = chars[i];
    if (!got || !same(got.c, want, s.caseSensitive)) return -1;
    i++;
  }
  return i;
}

function isWordChar(ch: Char | undefined): boolean {
  return ch !== undefined && !ch.soft && WORD.test(ch.c);
}

/** Finds every occurrence of the anchor on one page, without overlaps, in reading order. */
function searchPage(page: PageText, s: AnchorSearch, budget: SearchBudget): { first: Char; last: Char; chars: Char[] }[] {
  const { chars, starts } = pageIndex(page);
  const anchor = Array.from(s.anchorString.trim());
  const found: { first: Char; last: Char; chars: Char[] }[] = [];
  // A match starts where the anchor's first character is: only those places are tried.
  const candidates = starts.get(anchor[0]!.toLowerCase()) ?? [];
  let next = 0;
  for (const start of candidates) {
    if (start < next) continue;
    const end = matchAt(chars, start, anchor, s, budget);
    const wholeWordOk = end >= 0 && (!s.matchWholeWord || (
      !(isWordChar(chars[start - 1]) && WORD.test(anchor[0]!)) &&
      !(isWordChar(chars[end]) && WORD.test(anchor[anchor.length - 1]!))
    ));
    if (end >= 0 && wholeWordOk) {
      const span = chars.slice(start, end).filter((ch) => ch.run !== undefined);
      found.push({ first: span[0]!, last: span[span.length - 1]!, chars: span });
      next = end;
    }
  }
  return found;
}

/**
 * Searches every page of every document for the anchor and places one tab per occurrence.
 * Pure: the text comes from {@link extractText} (pdf.js) or from a test. Searches that share a
 * `budget` (an envelope's anchors) refuse to go past it (INVALID_ANCHOR).
 *
 * Placement: the tab's top-left corner sits on the anchor's top-left corner (with
 * anchorHorizontalAlignment "right", on its top-right: the tab starts where the text ends), then moves by anchorXOffset to the right
 * and anchorYOffset down, as DocuSign's tab coordinates grow right and down from the page's
 * top-left (docs/pdf.md explains the choice).
 */
export function searchAnchors(documents: readonly DocumentText[], s: AnchorSearch, budget: SearchBudget = newSearchBudget()): AnchorMatch[] {
  const matches: AnchorMatch[] = [];
  for (const doc of documents) {
    for (const page of doc.pages) {
      for (const hit of searchPage(page, s, budget)) {
        // The box is the anchor's part on its first line (an anchor wrapped across lines
        // keeps the tab where it starts).
        const run = hit.first.run!;
        const onLine = hit.chars.filter((ch) => Math.abs(ch.run!.y - run.y) < run.height * 0.5);
        const left = hit.first.x0;
        const right = Math.max(...onLine.map((ch) => ch.x1));
        const height = Math.max(...onLine.map((ch) => ch.run!.height));
        const ascent = Math.max(...onLine.map((ch) => ch.run!.ascent * ch.run!.height));
        const top = page.height - (run.y + ascent);
        const width = right - left;
        matches.push({
          documentIndex: doc.documentIndex,
          pageNumber: page.pageNumber,
          x: (s.alignRight ? right : left) + s.xOffset,
          y: top + s.yOffset,
          anchorX: left,
          anchorY: top,
          width,
          height,
          pageWidth: page.width,
          pageHeight: page.height,
        });
      }
    }
  }
  return matches;
}
