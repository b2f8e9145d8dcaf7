import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { assertTabOnPage } from './assert-tab-on-page.ts';

// Letter portrait, then A4 landscape: each page is checked against its own size.
const PAGES = [{ width: 612, height: 792 }, { width: 842, height: 595 }];

const CASES: Array<{ name: string; pageNumber: number; x: number; y: number; code?: 'TAB_OUT_OF_BOUNDS' | 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT' }> = [
  { name: 'top-left corner', pageNumber: 1, x: 0, y: 0 },
  { name: 'last point of page 1', pageNumber: 1, x: 611.99, y: 791.99 },
  { name: 'box running over the right edge (its corner is on the page)', pageNumber: 1, x: 600, y: 100 },
  { name: 'wide landscape page 2', pageNumber: 2, x: 800, y: 500 },
  { name: 'x = width', pageNumber: 1, x: 612, y: 10, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'y = height', pageNumber: 1, x: 10, y: 792, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'page 1 x fits page 2 only', pageNumber: 1, x: 800, y: 10, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'page 2 y fits page 1 only', pageNumber: 2, x: 10, y: 700, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'negative x (an anchor offset can produce it)', pageNumber: 1, x: -0.5, y: 10, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'negative y', pageNumber: 1, x: 10, y: -20, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'far off', pageNumber: 1, x: 99999, y: 99999, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'NaN', pageNumber: 1, x: Number.NaN, y: 10, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'Infinity', pageNumber: 1, x: 10, y: Number.POSITIVE_INFINITY, code: 'TAB_OUT_OF_BOUNDS' },
  { name: 'page beyond the document', pageNumber: 3, x: 10, y: 10, code: 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT' },
  { name: 'page 0', pageNumber: 0, x: 10, y: 10, code: 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT' },
  { name: 'fractional page', pageNumber: 1.5, x: 10, y: 10, code: 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT' },
];

for (const c of CASES) {
  test(`assertTabOnPage: ${c.name} → ${c.code ?? 'on the page'}`, () => {
    const check = () => assertTabOnPage({ documentId: '7', pageNumber: c.pageNumber, xPosition: c.x, yPosition: c.y }, PAGES, 'The tab');
    if (!c.code) return assert.doesNotThrow(check);
    assert.throws(check, (e: unknown) => e instanceof EsignError && e.code === c.code && e.status === 400 && e.message.includes('documentId 7'));
  });
}

test('assertTabOnPage: the message says where the tab is and how big the page is, in DocuSign words', () => {
  assert.throws(
    () => assertTabOnPage({ documentId: '1', pageNumber: 2, xPosition: 900.126, yPosition: 10 }, PAGES, 'The SignHere tab of recipientId 3'),
    { message: 'Tab is placed off of the page. The SignHere tab of recipientId 3 is located off of page 2 of documentId 1: (900.13, 10) on a page of 842 × 595 points.' },
  );
  assert.throws(() => assertTabOnPage({ documentId: '1', pageNumber: 1, xPosition: 0, yPosition: 0 }, [], 'The tab'), { message: /page 1 of documentId 1, which has 0 page\(s\)/ });
});
