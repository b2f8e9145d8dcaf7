import { COMMON_FIELDS, ENTRY_FIELDS, NO_LOCALE_POLICY, SHARING_FIELDS, VALIDATION_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable } from '../tab-kind.ts';
import type { TextTab } from '../tab.ts';
import { parseDateValue } from '../values/parse-date-value.ts';
import { findEmailProblem, findSsnProblem, findZipProblem } from '../values/text-formats.ts';
import { findTextProblem, parseTextLike } from './text.ts';

const FIELDS = [...COMMON_FIELDS, ...ENTRY_FIELDS, ...SHARING_FIELDS, ...VALIDATION_FIELDS];

const dateFormat = (_tab: TextTab, value: string) => (parseDateValue(value) ? undefined : 'Enter a date as MM/DD/YYYY or YYYY-MM-DD.');
const emailFormat = (_tab: TextTab, value: string) => findEmailProblem(value);
const zipFormat = (tab: TextTab, value: string) => findZipProblem(value, tab.useDash4 ?? false);
const ssnFormat = (_tab: TextTab, value: string) => findSsnProblem(value);

/** Date: a calendar date the signer types (the page offers a date picker). */
export const dateKind = defineKind<TextTab>({
  type: 'date', wireKey: 'dateTabs', model: 'ModelDate', takesValue: true,
  fields: fieldTable(FIELDS, NO_LOCALE_POLICY),
  parse: parseTextLike('date', dateFormat),
  findValueProblem: (tab, value) => findTextProblem(tab, value, dateFormat),
});

/** Email: an e-mail address the signer types. */
export const emailKind = defineKind<TextTab>({
  type: 'email', wireKey: 'emailTabs', model: 'Email', takesValue: true,
  fields: fieldTable(FIELDS, NO_LOCALE_POLICY),
  parse: parseTextLike('email', emailFormat),
  findValueProblem: (tab, value) => findTextProblem(tab, value, emailFormat),
});

/** Zip: a US ZIP code, ZIP+4 allowed. */
export const zipKind = defineKind<TextTab>({
  type: 'zip', wireKey: 'zipTabs', model: 'Zip', takesValue: true,
  fields: fieldTable([...FIELDS, 'useDash4'], NO_LOCALE_POLICY),
  parse: parseTextLike('zip', zipFormat),
  findValueProblem: (tab, value) => findTextProblem(tab, value, zipFormat),
});

/** Ssn: a US social security number. */
export const ssnKind = defineKind<TextTab>({
  type: 'ssn', wireKey: 'ssnTabs', model: 'Ssn', takesValue: true,
  fields: fieldTable(FIELDS, NO_LOCALE_POLICY),
  parse: parseTextLike('ssn', ssnFormat),
  findValueProblem: (tab, value) => findTextProblem(tab, value, ssnFormat),
});
