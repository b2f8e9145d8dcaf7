import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FIELD_RULES_DOC, replaceGeneratedPart } from './field-rule-doc.ts';
import { CORRECTION_RULE_TABLES, FIELD_RULE_TABLES, renderFieldRuleTables, UPDATE_RULE_TABLE } from './field-rule-tables.ts';

const doc = readFileSync(fileURLToPath(new URL(`../../../../${FIELD_RULES_DOC}`, import.meta.url)), 'utf8');

test(`${FIELD_RULES_DOC} lists every field of every model as the rules treat it`, () => {
  assert.equal(doc, replaceGeneratedPart(doc), `${FIELD_RULES_DOC} differs from the rules: run node --import tsx scripts/write-esign-field-doc.ts`);
  // Every field of every table is a row of its model's table.
  for (const { model, rules, heading = model } of [...FIELD_RULE_TABLES, UPDATE_RULE_TABLE, ...CORRECTION_RULE_TABLES]) {
    const section = doc.slice(doc.indexOf(`### ${heading}\n`), doc.indexOf('\n### ', doc.indexOf(`### ${heading}\n`) + 1));
    for (const field of Object.keys(rules)) assert.match(section, new RegExp(`\\| \`${field}\` \\|`), `${heading}.${field}`);
  }
});

test('renderFieldRuleTables: a refusal shows why; a limited field its values; pipes in a reason are escaped', () => {
  const text = renderFieldRuleTables([{ model: 'M', rules: { b: { rule: 'refused', why: 'no a|b' }, a: { rule: 'honoured' }, c: { rule: 'limited', why: 'mail only', allow: ['email'] }, d: { rule: 'output' } } }]);
  assert.match(text, /^### M\n\n4 fields: 2 supported, 1 output only, 1 refused\./);
  assert.ok(text.indexOf('| `a` |') < text.indexOf('| `b` |'), 'fields in alphabetical order');
  assert.match(text, /\| `b` \| \*\*refused\*\* \| no a\\\|b \|/);
  assert.match(text, /\| `c` \| only `email` \| mail only \|/);
});
