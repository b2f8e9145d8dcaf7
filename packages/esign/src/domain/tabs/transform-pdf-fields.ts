import { EsignError } from '../../errors.ts';
import { DEFAULT_LOCALE } from './parse-number-locale.ts';
import { DEFAULT_FONT } from './parse-tab-font.ts';
import type { PdfFieldWidget, PdfFormField } from './pdf-form-field.ts';
import { boxedWidget, onlyWidget, shownFieldName, widgetPlace } from './pdf-field-widget.ts';
import { pdfFieldNameKind, type PdfFieldNameKind } from './pdf-field-name-rule.ts';
import type { Tab, TabBase, TabPlace, TextTab } from './tab.ts';
import { kindOf } from './tab-registry.ts';

// A tab label's bound (parse-tab-base.ts), a typed value's (DocuSign: 4000 characters).
const MAX_LABEL = 500;
const MAX_TEXT = 4000;
// C0 and C1 controls (and DEL): a name holding them is not a label anyone typed.
const CONTROL = /\p{Cc}/u;

/**
 * The tabs DocuSign's transformPdfFields makes of one document's form fields (DocuSign
 * "PDF form field transformation"): each field becomes one tab at its widget's place, labelled
 * with the field's name, keeping its value, required, read-only (locked) and maxLength. The
 * field's type decides the tab (text → text, checkbox → checkbox, radio → radioGroup, choice →
 * list, signature → signHere); a text field's name can ask for another kind (pdf-field-name-rule.ts),
 * and a signature field's for initials or an optional signature. Fields named IgnoreTransform
 * are left out. What cannot become a tab is refused by name (INVALID_REQUEST_BODY), and a value
 * the tab's rules refuse is INVALID_TAB_VALUE: nothing is dropped in silence.
 */
export function transformPdfFields(fields: readonly PdfFormField[], documentId: string): Tab[] {
  const tabs: Tab[] = [];
  for (const field of fields) {
    const what = `documentId ${documentId}: the PDF form field ${shownFieldName(field.name)}`;
    const refuse = (why: string): never => {
      throw new EsignError('INVALID_REQUEST_BODY', `${what} cannot become a tab: ${why}.`);
    };
    if (field.name === '') refuse('it has no name');
    if (field.name.length > MAX_LABEL) refuse(`its name is ${field.name.length} characters long; a tab label holds at most ${MAX_LABEL}`);
    if (CONTROL.test(field.name)) refuse('its name holds control characters');
    const nameKind = pdfFieldNameKind(field.name);
    if (nameKind === 'ignore') continue;
    const tab = toTab(field, documentId, nameKind, refuse);
    const value = valueOf(tab);
    const problem = value === '' ? undefined : kindOf(tab.type).findValueProblem(tab, value);
    if (problem !== undefined) throw new EsignError('INVALID_TAB_VALUE', `${what} holds "${value.slice(0, 100)}": ${problem}`);
    tabs.push(tab);
  }
  return tabs;
}

/** The value a field brings that a kind's rule can judge (a list's chosen item, typed text). */
function valueOf(tab: Tab): string {
  return tab.type === 'list' || 'maxLength' in tab ? tab.value : '';
}

function toTab(field: PdfFormField, documentId: string, nameKind: Exclude<PdfFieldNameKind, 'ignore'> | undefined, refuse: (why: string) => never): Tab {
  const base = (widget: PdfFieldWidget, required: boolean, locked: boolean): TabBase & { place: TabPlace } => ({
    type: 'text', tabLabel: field.name, width: widget.width, height: widget.height, required, locked, place: widgetPlace(documentId, widget),
  });
  const font = DEFAULT_FONT;
  switch (field.kind) {
    case 'signature': {
      // DocuSign: any other signature field becomes a SignHere.
      const widget = onlyWidget(field.widgets, refuse);
      const initials = nameKind === 'initialHere' || nameKind === 'initialHereOptional';
      const optional = nameKind === 'signHereOptional' || nameKind === 'initialHereOptional';
      return { ...base(widget, !optional, false), type: initials ? 'initialHere' : 'signHere' };
    }
    case 'checkbox':
      return { ...base(onlyWidget(field.widgets, refuse), field.required, field.readOnly), type: 'checkbox', font, selected: field.checked };
    case 'radio': {
      if (field.options.length === 0) refuse('it is a radio group with no button on a page');
      const values = new Set<string>();
      for (const o of field.options) {
        if (values.has(o.value)) refuse(`two of its buttons have the value "${o.value}"; each radio's value must differ`);
        values.add(o.value);
        boxedWidget(o.widget, refuse);
      }
      return {
        type: 'radioGroup', groupName: field.name, documentId, required: field.required, locked: field.readOnly,
        radios: field.options.map((o) => ({ value: o.value, selected: o.value === field.selected, place: widgetPlace(documentId, o.widget), locked: field.readOnly, font })),
      };
    }
    case 'choice': {
      if (field.multiSelect) refuse('it allows several choices; a list tab holds one');
      if (field.options.length === 0) refuse('it is a choice with no options');
      if (new Set(field.options).size !== field.options.length) refuse('two of its options are the same; each list item must differ');
      if (field.selected.length > 1) refuse('it has several options chosen; a list tab holds one');
      const widget = onlyWidget(field.widgets, refuse);
      return { ...base(widget, field.required, field.readOnly), type: 'list', font, items: field.options.map((o) => ({ text: o, value: o })), value: field.selected[0] ?? '' };
    }
    case 'text':
      return textFieldTab(field, base(onlyWidget(field.widgets, refuse), field.required, field.readOnly), nameKind, refuse);
  }
}

/** A text field: a data (text) tab, unless its name asks for another kind. */
function textFieldTab(
  field: Extract<PdfFormField, { kind: 'text' }>,
  base: TabBase & { place: TabPlace },
  nameKind: Exclude<PdfFieldNameKind, 'ignore'> | undefined,
  refuse: (why: string) => never,
): Tab {
  const font = DEFAULT_FONT;
  const maxLength = Math.min(field.maxLength ?? MAX_TEXT, MAX_TEXT);
  if (field.value.length > maxLength) refuse(`its value is ${field.value.length} characters long; at most ${maxLength} fit`);
  const typed = (type: TextTab['type'], extra: Partial<TextTab> = {}): TextTab => ({ ...base, type, font, value: field.value, maxLength, ...extra });
  const blank = (kind: string) => {
    if (field.value !== '') refuse(`a ${kind} tab takes no text, and it holds some`);
  };
  switch (nameKind) {
    case undefined: return typed('text');
    case 'company': return typed('company');
    case 'title': return typed('title');
    case 'date': return typed('date');
    case 'ssn': return typed('ssn');
    case 'zip5': return typed('zip');
    case 'zip5Dash4': return typed('zip', { useDash4: true });
    case 'number': return { ...base, type: 'number', font, value: field.value, maxLength, locale: DEFAULT_LOCALE };
    case 'note': return { ...base, type: 'note', font, value: field.value, required: false, locked: true };
    case 'signHere': case 'signHereOptional': case 'initialHere': case 'initialHereOptional':
      blank('signature');
      return { ...base, type: nameKind.startsWith('initial') ? 'initialHere' : 'signHere', required: !nameKind.endsWith('Optional'), locked: false };
    case 'dateSigned': case 'fullName': case 'firstName': case 'lastName': case 'emailAddress':
      // Filled in by the service when the recipient signs: a value the sender left would be overwritten.
      blank(nameKind);
      return { ...base, type: nameKind, font, required: false, locked: false };
    case 'checkbox':
      blank('checkbox');
      return { ...base, type: 'checkbox', font, selected: false };
    case 'approve': case 'decline':
      return { ...base, type: nameKind, font, required: false, locked: false };
    case 'view':
      return { ...base, type: 'view', font, required: false, locked: false, requiredRead: false };
    case 'signerAttachmentOptional': case 'signerAttachment':
      blank('signer attachment');
      return { ...base, type: 'signerAttachment', required: nameKind === 'signerAttachment', locked: false };
    case 'envelopeId':
      return refuse('envelope id tabs are not supported');
    case 'list':
      return refuse('a text field has no items to make a list of; use a choice field');
    case 'radio':
      return refuse('a text field has no buttons to make a radio group of; use radio buttons');
  }
}
