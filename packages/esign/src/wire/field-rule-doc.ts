import { renderFieldRuleTables } from './field-rule-tables.ts';

/** Where the tables are published, from the repository's root. */
export const FIELD_RULES_DOC = 'docs/esign-envelope-fields.md';

const START = '<!-- generated from packages/esign/src/wire/field-rule-tables.ts: node --import tsx scripts/write-esign-field-doc.ts -->';
const END = '<!-- end of generated tables -->';

/** The document with its generated part (between the two markers) rendered again from the rules. */
export function replaceGeneratedPart(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`${FIELD_RULES_DOC} lacks its generated-part markers`);
  return doc.slice(0, start + START.length) + '\n\n' + renderFieldRuleTables() + '\n' + doc.slice(end);
}
