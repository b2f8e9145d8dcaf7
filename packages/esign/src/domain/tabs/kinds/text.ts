import { assertPrefill, findEntryProblem, readEntry } from '../read-entry.ts';
import { COMMON_FIELDS, ENTRY_FIELDS, NO_LOCALE_POLICY, SHARING_FIELDS, VALIDATION_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable, type TabContext } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { TextTab } from '../tab.ts';
import type { WireField } from '../wire-field.ts';

/**
 * A typed-in tab of the text family: common fields, then its own value rule (`format`, for
 * date, email, zip and ssn), then the sender's maxLength and validationPattern.
 */
export function parseTextLike(type: TextTab['type'], format: (tab: TextTab, value: string) => string | undefined = () => undefined) {
  return (tab: WireField, context: TabContext): TextTab => {
    const entry = readEntry(tab, true);
    const useDash4 = type === 'zip' ? tab.field('useDash4').boolean(false) : undefined;
    const parsed: TextTab = {
      ...parseTabBase(tab, type, { requiredFrom: 'required', lockable: true, ...context }),
      type,
      place: parseTabPlace(tab),
      font: parseTabFont(tab),
      ...entry,
      ...(useDash4 !== undefined ? { useDash4 } : {}),
    };
    assertPrefill(tab, entry.value, findTextProblem(parsed, entry.value, format));
    return parsed;
  };
}

export function findTextProblem(tab: TextTab, value: string, format: (tab: TextTab, value: string) => string | undefined = () => undefined): string | undefined {
  if (value.length > tab.maxLength) return `Enter at most ${tab.maxLength} characters.`;
  return format(tab, value) ?? findEntryProblem(tab, value);
}

/** Text: free text, with the sender's optional maxLength and validationPattern. */
export const textKind = defineKind<TextTab>({
  type: 'text', wireKey: 'textTabs', model: 'Text', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...ENTRY_FIELDS, ...SHARING_FIELDS, ...VALIDATION_FIELDS, 'formula', 'isPaymentAmount'], NO_LOCALE_POLICY),
  parse: parseTextLike('text'),
  findValueProblem: (tab, value) => findTextProblem(tab, value),
});

/** Company: text the signer types (their company), prefilled when the sender knows it. */
export const companyKind = defineKind<TextTab>({
  type: 'company', wireKey: 'companyTabs', model: 'Company', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...ENTRY_FIELDS], NO_LOCALE_POLICY),
  parse: parseTextLike('company'),
  findValueProblem: (tab, value) => findTextProblem(tab, value),
});

/** Title: text the signer types (their job title). */
export const titleKind = defineKind<TextTab>({
  type: 'title', wireKey: 'titleTabs', model: 'Title', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...ENTRY_FIELDS], NO_LOCALE_POLICY),
  parse: parseTextLike('title'),
  findValueProblem: (tab, value) => findTextProblem(tab, value),
});
