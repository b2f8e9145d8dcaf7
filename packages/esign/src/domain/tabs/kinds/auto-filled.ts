import { COMMON_FIELDS, FONT_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable, type TabContext } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { AutoFilledTab } from '../tab.ts';
import type { WireField } from '../wire-field.ts';

// The service writes these tabs' value (the signer's name or e-mail, the signing date): a value
// on the wire is what a client read back, accepted and ignored. localePolicy would pick the
// date and name formats, which are not implemented.
const FIELDS = fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'localePolicy', 'name', 'value'], {
  value: { rule: 'output' },
  localePolicy: { rule: 'refused', why: 'date and name formats are not implemented; the account format is used' },
});

function kind(type: AutoFilledTab['type'], wireKey: string, model: string, fields = FIELDS) {
  return defineKind<AutoFilledTab>({
    type, wireKey, model, fields, takesValue: false,
    parse: (tab: WireField, context: TabContext) => ({
      ...parseTabBase(tab, type, { requiredFrom: 'never', lockable: false, ...context }),
      type,
      place: parseTabPlace(tab),
      font: parseTabFont(tab),
    }),
    findValueProblem: () => 'This tab is filled in by the service when the recipient signs.',
  });
}

export const dateSignedKind = kind('dateSigned', 'dateSignedTabs', 'DateSigned', fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'localePolicy', 'name', 'timestampStandardized', 'value'], {
  value: { rule: 'output' },
  localePolicy: { rule: 'refused', why: 'date formats are not implemented; the account format is used' },
}));
export const fullNameKind = kind('fullName', 'fullNameTabs', 'FullName');
export const firstNameKind = kind('firstName', 'firstNameTabs', 'FirstName');
export const lastNameKind = kind('lastName', 'lastNameTabs', 'LastName');
export const emailAddressKind = kind('emailAddress', 'emailAddressTabs', 'EmailAddress');
