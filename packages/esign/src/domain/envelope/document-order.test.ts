import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inDocumentOrder } from './document-order.ts';

type Doc = { readonly id: string; readonly order?: number };
const ids = (docs: readonly Doc[]) => docs.map((d) => d.id).join(' ');
const d = (id: string, order?: number): Doc => (order === undefined ? { id } : { id, order });

test('inDocumentOrder: by order, lowest first; without any order, as listed', () => {
  assert.equal(ids(inDocumentOrder([d('a'), d('b'), d('c')])), 'a b c');
  assert.equal(ids(inDocumentOrder([d('a', 3), d('b', 1), d('c', 2)])), 'b c a');
  // Gaps are only a ranking.
  assert.equal(ids(inDocumentOrder([d('a', 50), d('b', 7)])), 'b a');
});

test('inDocumentOrder: a document without order keeps its place; a given order wins a tie; equal orders stay as listed', () => {
  // c asks for place 1: before a, which only keeps its place 1.
  assert.equal(ids(inDocumentOrder([d('a'), d('b'), d('c', 1)])), 'c a b');
  assert.equal(ids(inDocumentOrder([d('a'), d('b'), d('c', 2)])), 'a c b');
  assert.equal(ids(inDocumentOrder([d('a', 1), d('b', 1)])), 'a b');
});

test('inDocumentOrder: the places of documents already there, new ones after them', () => {
  const current = new Map([['a', 1], ['b', 2], ['c', 3]]);
  const placeOf = (doc: Doc, i: number) => current.get(doc.id) ?? current.size + i + 1;
  // b replaced without an order keeps its place; n is new and goes last; m asks for place 2.
  assert.equal(ids(inDocumentOrder([d('a'), d('b'), d('c'), d('n'), d('m', 2)], placeOf)), 'a m b c n');
  // c moved to the front.
  assert.equal(ids(inDocumentOrder([d('a'), d('b'), d('c', 1)], placeOf)), 'c a b');
});
