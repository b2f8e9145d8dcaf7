import { EsignError } from '../../errors.ts';
import type { PdfFieldWidget, PdfFormField } from './pdf-form-field.ts';
import { pdfFieldNameKind } from './pdf-field-name-rule.ts';
import { boxedWidget, onlyWidget, shownFieldName, widgetPlace } from './pdf-field-widget.ts';
import type { RadioGroupTab, Tab, TabType } from './tab.ts';
import { labelOf } from './check-tab-relations.ts';
import { kindOf } from './tab-registry.ts';
import { keptNumberValue } from './values/number-value.ts';

/** A recipient's tabs as the claims see them. */
export type Claimant = { readonly recipientId: string; readonly tabs: readonly Tab[] };

/** A tab made from a claiming tab and the field it took. */
export type ClaimedTab = { readonly recipientId: string; readonly claimant: Tab; readonly tab: Tab };

/** What a document's fields became: the claimed ones as tabs of their claimants, the rest for assignTabsToRecipientId. */
export type FieldClaims = { readonly claimed: readonly ClaimedTab[]; readonly unclaimed: readonly PdfFormField[] };

// The tab types each field type can become.
const TAKES: Readonly<Record<PdfFormField['kind'], (type: TabType) => boolean>> = {
  text: (type) => type !== 'checkbox' && type !== 'radioGroup' && type !== 'list',
  checkbox: (type) => type === 'checkbox',
  choice: (type) => type === 'list',
  signature: (type) => type === 'signHere' || type === 'initialHere',
  radio: (type) => type === 'radioGroup',
};
const TAKEN_BY: Readonly<Record<PdfFormField['kind'], string>> = {
  text: 'any tab but a checkbox, radio group or list', checkbox: 'a checkbox tab', choice: 'a list tab', signature: 'a signHere or initialHere tab', radio: 'a radioGroup tab',
};

/** The label a tab claims by (a group's groupName), when it has no place of its own on this document. */
function claimLabel(tab: Tab, documentId: string): string | undefined {
  const places = tab.type === 'radioGroup' ? tab.radios.map((r) => r.place) : [tab.place];
  const free = places.every((p) => p.kind === 'formField' && (p.documentId === undefined || p.documentId === documentId));
  return free ? labelOf(tab) : undefined;
}

/**
 * DocuSign's PDF form field transformation with recipients' tabs (the Composite Templates rules
 * of createEnvelope, docusign-esign src/api/EnvelopesApi.js: form-generated tabs go to the
 * recipient whose tab label maps them, a label ending in `*` maps every field whose name starts
 * with the rest, tabLabel matching is case sensitive, and the last layer wins). A tab with no
 * place of its own (FormFieldPlace) takes each field of this document its tabLabel names, on
 * its documentId when it gives one: it is placed at the field's widget with the field's size,
 * and keeps the field's value unless the sender gave the tab one. Such a field becomes no other
 * tab. Refused by name: a field two tabs would take (which would win is not documented), a tab
 * of a type the field cannot become, a field in several places, a value the tab's rules refuse.
 */
export function claimPdfFields(fields: readonly PdfFormField[], documentId: string, claimants: readonly Claimant[]): FieldClaims {
  const exact = new Map<string, { recipientId: string; tab: Tab }[]>();
  const wildcards: { recipientId: string; tab: Tab; prefix: string }[] = [];
  for (const c of claimants) {
    for (const tab of c.tabs) {
      const label = claimLabel(tab, documentId);
      if (label === undefined) continue;
      exact.set(label, [...(exact.get(label) ?? []), { recipientId: c.recipientId, tab }]);
      // A radio group's radios name the field's buttons by value: it takes one field, by its groupName.
      if (tab.type !== 'radioGroup' && label.length > 1 && label.endsWith('*')) wildcards.push({ recipientId: c.recipientId, tab, prefix: label.slice(0, -1) });
    }
  }
  const claimed: ClaimedTab[] = [];
  const unclaimed: PdfFormField[] = [];
  for (const field of fields) {
    // A field DocuSign does not transform (…IgnoreTransform) is taken by no tab either.
    const takers = pdfFieldNameKind(field.name) === 'ignore' ? [] : [...(exact.get(field.name) ?? []), ...wildcards.filter((w) => field.name.startsWith(w.prefix) && labelOf(w.tab) !== field.name)];
    const [taker, second] = takers;
    if (!taker) {
      unclaimed.push(field);
      continue;
    }
    const what = `documentId ${documentId}: the PDF form field ${shownFieldName(field.name)}`;
    const tabName = (t: { recipientId: string; tab: Tab }) => `the ${t.tab.type} tab "${labelOf(t.tab) ?? ''}" of recipientId ${t.recipientId}`;
    // DocuSign does not say which of two would win: refused rather than guessed.
    if (second) throw new EsignError('INVALID_REQUEST_BODY', `${what} is named by ${tabName(taker)} and by ${tabName(second)}; a field goes to one tab.`);
    claimed.push({ recipientId: taker.recipientId, claimant: taker.tab, tab: takeField(taker.tab, field, documentId, `${what}, taken by ${tabName(taker)},`) });
  }
  return { claimed, unclaimed };
}

/** The claiming tab placed on the field, sized as it, holding the field's value unless the sender gave one. */
function takeField(tab: Tab, field: PdfFormField, documentId: string, what: string): Tab {
  const refuse = (why: string): never => {
    throw new EsignError('INVALID_REQUEST_BODY', `${what} cannot be taken: ${why}.`);
  };
  if (!TAKES[field.kind](tab.type)) refuse(`it is a ${field.kind} field, which ${TAKEN_BY[field.kind]} can take`);
  if (tab.type === 'radioGroup') return field.kind === 'radio' ? takeButtons(tab, field, documentId, refuse) : refuse('a radio group takes a radio field');
  if (tab.place.kind !== 'formField') throw new TypeError('only a tab without a place claims a field');
  if (field.kind === 'radio') return refuse('a radio field takes a radioGroup tab');
  if (field.kind === 'choice') {
    if (field.multiSelect) refuse('it allows several choices; a list tab holds one');
    if (field.selected.length > 1) refuse('it has several options chosen; a list tab holds one');
  }
  const widget = onlyWidget(field.widgets, refuse);
  const valueGiven = tab.place.valueGiven;
  const placed = { tabLabel: field.name, place: widgetPlace(documentId, widget), width: widget.width, height: widget.height };
  const fieldValue = field.kind === 'text' ? field.value : field.kind === 'choice' ? (field.selected[0] ?? '') : '';
  let made: Tab;
  if (tab.type === 'checkbox') {
    made = { ...tab, ...placed, selected: valueGiven ? tab.selected : field.kind === 'checkbox' && field.checked };
  } else if ('value' in tab) {
    made = { ...tab, ...placed, value: valueGiven ? tab.value : fieldValue };
  } else {
    // A signature, auto-filled, formula or button tab holds no value the field could hand it.
    if (fieldValue !== '') refuse(`a ${tab.type} tab takes no value, and the field holds "${fieldValue.slice(0, 100)}"`);
    made = { ...tab, ...placed };
  }
  const value = made.type === 'checkbox' ? '' : 'value' in made ? made.value : '';
  const problem = value === '' ? undefined : kindOf(made.type).findValueProblem(made, value);
  if (problem !== undefined) throw new EsignError('INVALID_TAB_VALUE', `${what} would hold "${value.slice(0, 100)}": ${problem}`);
  return made.type === 'number' || made.type === 'numerical' ? { ...made, value: keptNumberValue(made, made.value) } : made;
}

/**
 * A radio group on a PDF radio field: each radio at the button of its value, the group sized as
 * the first button. Every button needs a radio and every radio a button: none is dropped.
 */
function takeButtons(tab: RadioGroupTab, field: Extract<PdfFormField, { kind: 'radio' }>, documentId: string, refuse: (why: string) => never): RadioGroupTab {
  const buttons = new Map<string, PdfFieldWidget>();
  for (const o of field.options) {
    if (buttons.has(o.value)) refuse(`two of its buttons have the value "${o.value}"; each radio's value must differ`);
    buttons.set(o.value, boxedWidget(o.widget, refuse));
  }
  const missing = field.options.find((o) => !tab.radios.some((r) => r.value === o.value));
  if (missing) refuse(`its button "${missing.value}" has no radio of that value in the group`);
  const valueGiven = tab.radios.some((r) => r.place.kind === 'formField' && r.place.valueGiven);
  const radios = tab.radios.map((r) => {
    const widget = buttons.get(r.value) ?? refuse(`the radio "${r.value}" is none of its buttons (${[...buttons.keys()].slice(0, 20).join(', ')})`);
    return { ...r, place: widgetPlace(documentId, widget), selected: valueGiven ? r.selected : r.value === field.selected };
  });
  const first = field.options[0]?.widget;
  return { ...tab, groupName: field.name, documentId, radios, ...(first ? { width: first.width, height: first.height } : {}) };
}
