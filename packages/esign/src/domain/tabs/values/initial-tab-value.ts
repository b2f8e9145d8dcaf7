import type { Tab } from '../tab.ts';

/**
 * A tab's value as the sender left it, in wire form: text as given, a checkbox "true"/"false",
 * a radio group its selected radio's value, a list its selected value; "" for tabs without one.
 */
export function initialTabValue(tab: Tab): string {
  switch (tab.type) {
    case 'checkbox':
      return tab.selected ? 'true' : 'false';
    case 'radioGroup':
      return tab.radios.find((r) => r.selected)?.value ?? '';
    case 'text': case 'company': case 'title': case 'date': case 'email': case 'zip': case 'ssn':
    case 'number': case 'numerical': case 'list': case 'note':
      return tab.value;
    default:
      return '';
  }
}
