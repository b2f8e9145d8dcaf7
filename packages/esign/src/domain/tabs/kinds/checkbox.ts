import { COMMON_FIELDS, FONT_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { CheckboxTab } from '../tab.ts';

/** Checkbox: checked or not. Its value on the wire is "true"/"false" (selected); required means it must be checked. */
export const checkboxKind = defineKind<CheckboxTab>({
  type: 'checkbox', wireKey: 'checkboxTabs', model: 'Checkbox', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'locked', 'name', 'requireInitialOnSharedChange', 'required', 'selected', 'selectedOriginal', 'shareToRecipients', 'shared']),
  // DocuSign's checkboxes are not required unless the sender says so.
  parse: (tab, context) => ({
    ...parseTabBase(tab, 'checkbox', { requiredFrom: 'never', lockable: true, ...context }),
    required: tab.field('required').boolean(false),
    type: 'checkbox',
    place: parseTabPlace(tab),
    font: parseTabFont(tab),
    selected: tab.field('selected').boolean(false),
  }),
  findValueProblem: (_tab, value) => (/^(true|false)$/i.test(value.trim()) ? undefined : 'A checkbox is either checked (true) or not (false).'),
});
