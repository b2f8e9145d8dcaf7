import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING, jsonTooDeep, yamlTooDeep } from './nesting-depth.ts';

const flow = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

test('jsonTooDeep: the bound itself passes, one more level is refused at its bracket', () => {
  assert.equal(jsonTooDeep(flow(MAX_NESTING)), undefined);
  assert.equal(jsonTooDeep(flow(MAX_NESTING + 1)), MAX_NESTING);
  assert.equal(jsonTooDeep(`{"a": ${'{"b": '.repeat(300)}1${'}'.repeat(300)}}`), 6 + 6 * (MAX_NESTING - 1));
});

test('jsonTooDeep: brackets inside strings (escaped quotes too) do not count', () => {
  assert.equal(jsonTooDeep(JSON.stringify({ a: '['.repeat(1000), b: '\\"' + '{'.repeat(1000) })), undefined);
});

test('yamlTooDeep: flow collections, exactly', () => {
  assert.equal(yamlTooDeep(flow(MAX_NESTING)), undefined);
  assert.equal(yamlTooDeep(flow(MAX_NESTING + 1)), MAX_NESTING);
  assert.equal(yamlTooDeep('a: ' + '{b: '.repeat(MAX_NESTING) + '1' + '}'.repeat(MAX_NESTING)), 3 + 4 * (MAX_NESTING - 1));
  // Unclosed (a syntax error the parser would report after recursing into it).
  assert.notEqual(yamlTooDeep('['.repeat(200_000)), undefined);
});

test('yamlTooDeep: block collections, compact and indented', () => {
  assert.equal(yamlTooDeep('- '.repeat(MAX_NESTING) + 'x\n'), undefined);
  assert.notEqual(yamlTooDeep('- '.repeat(MAX_NESTING + 1) + 'x\n'), undefined);
  const indented = (depth: number): string => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k${i}:\n`).join('') + `${' '.repeat(depth)}v\n`;
  assert.equal(yamlTooDeep(indented(MAX_NESTING)), undefined);
  assert.notEqual(yamlTooDeep(indented(MAX_NESTING + 1)), undefined);
  // Siblings close their levels: a long, shallow document is shallow.
  assert.equal(yamlTooDeep('services:\n' + '  - name: s\n    tags: [a, b]\n    routes:\n      - paths: [/x]\n'.repeat(5000)), undefined);
});

test('yamlTooDeep: brackets in quoted and block scalars and in comments do not count', () => {
  const many = '['.repeat(1000);
  assert.equal(yamlTooDeep(`a: "${many}"\nb: '${many}'\nc: |\n  ${many}\n# ${many}\nd: x ${many}\n`), undefined);
});
