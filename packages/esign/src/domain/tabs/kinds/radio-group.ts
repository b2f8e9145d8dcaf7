import { EsignError } from '../../../errors.ts';
import { checkTabFields } from '../check-tab-fields.ts';
import { defineKind, fieldTable, type TabContext } from '../tab-kind.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { FormFieldPlace, Radio, RadioGroupTab } from '../tab.ts';
import type { WireField } from '../wire-field.ts';

/** The Radio model's fields (each button of a group). */
export const RADIO_FIELDS = fieldTable([
  'anchorAllowWhiteSpaceInCharacters', 'anchorCaseSensitive', 'anchorHorizontalAlignment', 'anchorIgnoreIfNotPresent', 'anchorMatchWholeWord',
  'anchorString', 'anchorTabProcessorVersion', 'anchorTabScope', 'anchorUnits', 'anchorXOffset', 'anchorYOffset', 'bold', 'caption',
  'connectedObjectDetails', 'errorDetails', 'extensionData', 'font', 'fontColor', 'fontSize', 'italic', 'locked', 'mergeFieldXml', 'pageNumber',
  'required', 'selected', 'status', 'tabFullyQualifiedPath', 'tabId', 'tabOrder', 'underline', 'value', 'xPosition', 'yPosition',
]);
const MAX_RADIOS = 100;

function parseRadio(radio: WireField, documentId: string | undefined, valueGiven: boolean): Radio & { required: boolean } {
  checkTabFields(radio, 'Radio', RADIO_FIELDS);
  const value = radio.field('value').optionalString(500) ?? radio.field('value').fail('is required: it is what the group is set to when this radio is selected.');
  // A radio with neither an anchor nor a position takes its button of the PDF radio field of the
  // groupName (claim-pdf-fields.ts); else it takes its document from the group, its page and position are its own.
  if (!placeless(radio) && !radio.field('anchorString').present && documentId === undefined) radio.fail('needs an anchorString, or the group needs a documentId for its pageNumber, xPosition and yPosition.');
  const place = placeless(radio) ? formFieldPlace(radio, documentId, valueGiven) : parseTabPlace(radio, documentId);
  const tabOrder = radio.field('tabOrder').optionalInteger(0, 1_000_000);
  return {
    value, place, selected: radio.field('selected').boolean(false), locked: radio.field('locked').boolean(false), font: parseTabFont(radio),
    required: radio.field('required').boolean(true), ...(tabOrder !== undefined ? { tabOrder } : {}),
  };
}

function placeless(radio: WireField): boolean {
  return !radio.field('anchorString').present && !radio.field('xPosition').present && !radio.field('yPosition').present;
}

/** A placeless radio's FormFieldPlace: on the group's documentId when it gives one (its page's corner when no field is named so). */
function formFieldPlace(radio: WireField, documentId: string | undefined, valueGiven: boolean): FormFieldPlace {
  const pageNumber = radio.field('pageNumber').optionalInteger(1, 100_000) ?? 1;
  return { kind: 'formField', ...(documentId !== undefined ? { documentId, otherwise: { kind: 'absolute', documentId, pageNumber, xPosition: 0, yPosition: 0 } } : {}), valueGiven };
}

function parseRadioGroup(tab: WireField, context: TabContext): RadioGroupTab {
  const groupName = tab.field('groupName').optionalString(500) ?? tab.field('groupName').fail('is required: it names the group, as tabLabel names other tabs.');
  const documentId = tab.field('documentId').optionalString(10);
  const readers = tab.field('radios').items();
  if (readers.length === 0) tab.field('radios').fail('must hold at least one radio.');
  if (readers.length > MAX_RADIOS) tab.field('radios').fail(`may hold at most ${MAX_RADIOS} radios.`);
  // The sender chose a radio: that choice wins over a PDF field's (claim-pdf-fields.ts).
  const valueGiven = tab.field('value').present || readers.some((r) => r.field('selected').present);
  const parsed = readers.map((r) => parseRadio(r, documentId, valueGiven));
  const values = new Set<string>();
  for (const r of parsed) {
    if (values.has(r.value)) tab.field('radios').fail(`has two radios with the value "${r.value}"; each radio's value must differ.`);
    values.add(r.value);
  }
  // The group's own value selects a radio too; it must name one.
  const value = tab.field('value').optionalString(500);
  if (value !== undefined && !values.has(value)) throw new EsignError('INVALID_TAB_VALUE', `${tab.path}.value "${value}" is not the value of any of its radios (${[...values].join(', ')}).`);
  const radios = parsed.map(({ required: _required, ...r }) => ({ ...r, selected: value !== undefined ? r.value === value : r.selected }));
  if (radios.filter((r) => r.selected).length > 1) tab.field('radios').fail('selects more than one radio; a group has at most one selected.');
  const base = parseTabBase(tab, 'radioGroup', { requiredFrom: 'never', lockable: false, labelField: 'groupName', ...context });
  return {
    ...base,
    type: 'radioGroup',
    groupName,
    // DocuSign marks required per radio; the group needs a choice unless a radio says otherwise.
    required: parsed.every((r) => r.required),
    locked: radios.every((r) => r.locked),
    radios,
    ...(documentId !== undefined ? { documentId } : {}),
  };
}

/** RadioGroup: one choice among radios placed separately; groupName is its label. */
export const radioGroupKind = defineKind<RadioGroupTab>({
  type: 'radioGroup', wireKey: 'radioGroupTabs', model: 'RadioGroup', takesValue: true,
  fields: fieldTable([
    'conditionalParentLabel', 'conditionalParentValue', 'documentId', 'groupName', 'originalValue', 'radios', 'recipientId', 'recipientIdGuid',
    'requireAll', 'requireInitialOnSharedChange', 'shared', 'shareToRecipients', 'source', 'tabType', 'templateLocked', 'templateRequired', 'tooltip', 'value',
  ], { groupName: { rule: 'honoured' }, radios: { rule: 'honoured' } }),
  parse: parseRadioGroup,
  findValueProblem: (tab, value) => (tab.radios.some((r) => r.value === value) ? undefined : `Choose one of ${tab.radios.map((r) => r.value).join(', ')}.`),
});
