import { COMMON_FIELDS, FONT_FIELDS, NO_LOCALE_POLICY } from '../tab-field-rules.ts';
import { defineKind, fieldTable } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { NoteTab } from '../tab.ts';

/** Note: text the sender writes on the page for the signer to read; never editable. */
export const noteKind = defineKind<NoteTab>({
  type: 'note', wireKey: 'noteTabs', model: 'Note', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'localePolicy', 'name', 'shared', 'value'], NO_LOCALE_POLICY),
  parse: (tab, context) => ({
    ...parseTabBase(tab, 'note', { requiredFrom: 'never', lockable: false, ...context }),
    locked: true,
    type: 'note',
    place: parseTabPlace(tab),
    font: parseTabFont(tab),
    value: tab.field('value').optionalString(4000) ?? '',
  }),
  findValueProblem: () => 'A note is written by the sender and cannot be changed.',
});
