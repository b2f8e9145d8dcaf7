import { EsignError } from '../../../errors.ts';
import { COMMON_FIELDS, FONT_FIELDS, NO_LOCALE_POLICY, SHARING_FIELDS } from '../tab-field-rules.ts';
import { checkTabFields } from '../check-tab-fields.ts';
import { defineKind, fieldTable, type TabContext } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { ListItem, ListTab } from '../tab.ts';
import type { WireField } from '../wire-field.ts';

const ITEM_FIELDS = { selected: { rule: 'honoured' }, text: { rule: 'honoured' }, value: { rule: 'honoured' } } as const;
const MAX_ITEMS = 500;

function parseList(tab: WireField, context: TabContext): ListTab {
  const readers = tab.field('listItems').items();
  if (readers.length === 0) tab.field('listItems').fail('must hold at least one item.');
  if (readers.length > MAX_ITEMS) tab.field('listItems').fail(`may hold at most ${MAX_ITEMS} items.`);
  let selected: string | undefined;
  const items: ListItem[] = readers.map((item) => {
    checkTabFields(item, 'ListItem', ITEM_FIELDS);
    const text = item.field('text').optionalString(500);
    // DocuSign shows text and stores value; either alone serves as both.
    const value = item.field('value').optionalString(500) ?? text ?? item.fail('needs a text or a value.');
    if (item.field('selected').boolean(false)) {
      if (selected !== undefined) tab.field('listItems').fail('selects more than one item.');
      selected = value;
    }
    return { text: text ?? value, value };
  });
  const values = new Set(items.map((i) => i.value));
  if (values.size !== items.length) tab.field('listItems').fail('has two items with the same value.');
  // The selected value: value, else listSelectedValue, else the item marked selected.
  const value = tab.field('value').optionalString(500) ?? tab.field('listSelectedValue').optionalString(500) ?? selected ?? '';
  if (value !== '' && !values.has(value)) throw new EsignError('INVALID_TAB_VALUE', `${tab.path}: "${value}" is not among its listItems (${[...values].slice(0, 20).join(', ')}).`);
  return {
    ...parseTabBase(tab, 'list', { requiredFrom: 'required', lockable: true, ...context }),
    type: 'list',
    place: parseTabPlace(tab),
    font: parseTabFont(tab),
    items,
    value,
  };
}

/** List: a drop-down of listItems; its value must be one of them. */
export const listKind = defineKind<ListTab>({
  type: 'list', wireKey: 'listTabs', model: 'List', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...FONT_FIELDS, ...SHARING_FIELDS, 'listItems', 'listSelectedValue', 'localePolicy', 'locked', 'originalValue', 'required', 'value'], NO_LOCALE_POLICY),
  parse: parseList,
  findValueProblem: (tab, value) => (tab.items.some((i) => i.value === value) ? undefined : 'Choose one of the listed values.'),
});
