import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { expansionProblem } from './expanded-size.ts';

// The bound the loader uses is at least the text's length: a document without aliases must
// never weigh more than its own text, whatever its style.
test('expansionProblem: a document without aliases weighs no more than its text', () => {
  for (const text of [
    'a:\nb:\nc:\n',
    'a:',
    '[a, b, [], {}, {x}, "q", \'r\']',
    '- - - x\n- y\n',
    'k: |\n  block\n  text\n',
    '{a, b, c}',
    '? x\n: y\n',
  ]) {
    assert.equal(expansionProblem(parseDocument(text), text.length), undefined, text);
  }
});

test('expansionProblem: an alias weighs what it names, refused at the alias that takes its collection past the bound', () => {
  const text = 'a: &a [xxxxxxxxxx, yyyyyyyyyy]\nb: [*a, *a, *a]\n';
  const doc = parseDocument(text);
  assert.equal(expansionProblem(doc, 100), undefined);
  assert.deepEqual(expansionProblem(doc, 45), { reason: 'aliases expand the document past 45 characters', offset: text.indexOf('*a, *a]') });
});
