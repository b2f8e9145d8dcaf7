// Rewrites the generated part of docs/esign-envelope-fields.md from the field rules
// (packages/esign/src/wire/field-rule-tables.ts); its test fails until this is run after a rule changes.
//   node --import tsx scripts/write-esign-field-doc.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FIELD_RULES_DOC, replaceGeneratedPart } from '../packages/esign/src/wire/field-rule-doc.ts';

const path = fileURLToPath(new URL(`../${FIELD_RULES_DOC}`, import.meta.url));
writeFileSync(path, replaceGeneratedPart(readFileSync(path, 'utf8')));
console.log(`wrote ${FIELD_RULES_DOC}`);
