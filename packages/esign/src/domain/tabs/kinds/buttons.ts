import { COMMON_FIELDS, FONT_FIELDS, NO_LOCALE_POLICY } from '../tab-field-rules.ts';
import { defineKind, fieldTable, type TabContext } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { ButtonTab, ViewTab } from '../tab.ts';
import type { WireField } from '../wire-field.ts';

function parseButton(type: ButtonTab['type']) {
  return (tab: WireField, context: TabContext): ButtonTab => {
    const buttonText = tab.field('buttonText').optionalString(100);
    const declineReason = type === 'decline' ? tab.field('declineReason').optionalString(500) : undefined;
    return {
      ...parseTabBase(tab, type, { requiredFrom: 'never', lockable: false, ...context }),
      type,
      place: parseTabPlace(tab),
      font: parseTabFont(tab),
      ...(buttonText !== undefined ? { buttonText } : {}),
      ...(declineReason !== undefined ? { declineReason } : {}),
    };
  };
}

const pressed = () => 'This tab is a button; it takes no value.';

/** Approve: a button that finishes signing without a signature. */
export const approveKind = defineKind<ButtonTab>({
  type: 'approve', wireKey: 'approveTabs', model: 'Approve', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'buttonText', 'localePolicy'], NO_LOCALE_POLICY),
  parse: parseButton('approve'),
  findValueProblem: pressed,
});

/** Decline: a button that declines the envelope (declineReason prefills the reason). */
export const declineKind = defineKind<ButtonTab>({
  type: 'decline', wireKey: 'declineTabs', model: 'Decline', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'buttonText', 'declineReason', 'localePolicy'], NO_LOCALE_POLICY),
  parse: parseButton('decline'),
  findValueProblem: pressed,
});

/** View: a button that opens a supplemental document; requiredRead makes opening it necessary to finish. */
export const viewKind = defineKind<ViewTab>({
  type: 'view', wireKey: 'viewTabs', model: 'View', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, 'buttonText', 'localePolicy', 'required', 'requiredRead'], NO_LOCALE_POLICY),
  parse: (tab, context) => {
    const buttonText = tab.field('buttonText').optionalString(100);
    const requiredRead = tab.field('requiredRead').boolean(false);
    const tabView: ViewTab = {
      ...parseTabBase(tab, 'view', { requiredFrom: 'never', lockable: false, ...context }),
      required: tab.field('required').boolean(false) || requiredRead,
      type: 'view',
      place: parseTabPlace(tab),
      font: parseTabFont(tab),
      requiredRead,
      ...(buttonText !== undefined ? { buttonText } : {}),
    };
    return tabView;
  },
  findValueProblem: pressed,
});
