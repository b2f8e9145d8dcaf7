import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { claimPdfFields, type Claimant } from './claim-pdf-fields.ts';
import { parseTabs } from './parse-tabs.ts';
import type { PdfFieldWidget, PdfFormField } from './pdf-form-field.ts';

const box = (x: number, y: number, width = 200, height = 20): PdfFieldWidget => ({ pageNumber: 1, x, y, width, height });
const text = (name: string, value = '', widgets = [box(72, 100)]): PdfFormField => ({ kind: 'text', name, value, multiline: false, required: false, readOnly: false, widgets });
const checkbox = (name: string, checked: boolean): PdfFormField => ({ kind: 'checkbox', name, checked, required: false, readOnly: false, widgets: [box(72, 200, 14, 14)] });
const choice = (name: string, selected: string[]): PdfFormField => ({ kind: 'choice', name, options: ['red', 'blue'], selected, multiSelect: false, required: false, readOnly: false, widgets: [box(72, 300)] });
const claimant = (recipientId: string, tabs: unknown): Claimant => ({ recipientId, tabs: parseTabs(new WireReader(`signers[${recipientId}].tabs`, tabs), { recipientId }) });
const refused = (code: string, pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === code && pattern.test(e.message);

test('a tab without a place takes the field of its tabLabel: the field\'s place, size and value, unless the sender gave a value', () => {
  const fields = [text('buyer.name', 'Ada'), checkbox('terms', true), text('Reference', 'REF-7'), checkbox('news', true), choice('colour', ['blue'])];
  const two = claimant('2', { textTabs: [{ tabLabel: 'buyer.name', maxLength: '40' }, { tabLabel: 'Reference', value: 'REF-9', locked: 'true' }], checkboxTabs: [{ tabLabel: 'terms', required: 'true' }, { tabLabel: 'news', selected: 'false' }] });
  const { claimed, unclaimed } = claimPdfFields(fields, '1', [claimant('1', {}), two]);
  assert.deepEqual(unclaimed.map((f) => f.name), ['colour'], 'a field no tab names goes to assignTabsToRecipientId');
  assert.deepEqual(claimed.map((c) => [c.recipientId, c.tab.type, c.tab.type !== 'radioGroup' && c.tab.tabLabel]), [['2', 'text', 'buyer.name'], ['2', 'checkbox', 'terms'], ['2', 'text', 'Reference'], ['2', 'checkbox', 'news']]);
  const [name, terms, reference, news] = claimed.map((c) => c.tab);
  assert.deepEqual(name?.type === 'text' && [name.place, name.width, name.height, name.value, name.maxLength], [{ kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 72, yPosition: 100 }, 200, 20, 'Ada', 40]);
  assert.deepEqual(terms?.type === 'checkbox' && [terms.selected, terms.required, terms.width], [true, true, 14], 'the field\'s check is kept; the tab\'s own rules stay');
  assert.deepEqual(reference?.type === 'text' && [reference.value, reference.locked], ['REF-9', true], 'the sender\'s value wins over the field\'s');
  assert.equal(news?.type === 'checkbox' && news.selected, false, 'selected "false" given by the sender wins too');
  assert.equal(claimed[0]?.claimant, two.tabs[0], 'each made tab names the tab it came from');
});

test('a label ending in * takes every field whose name starts with the rest; a documentId limits a tab to its document', () => {
  const fields = [text('item1', 'a'), text('item2', 'b'), text('other')];
  const { claimed, unclaimed } = claimPdfFields(fields, '1', [claimant('1', { textTabs: [{ tabLabel: 'item*' }, { tabLabel: 'other', documentId: '2' }] })]);
  assert.deepEqual(claimed.map((c) => c.tab.type !== 'radioGroup' && [c.tab.tabLabel, 'value' in c.tab && c.tab.value]), [['item1', 'a'], ['item2', 'b']]);
  assert.deepEqual(unclaimed.map((f) => f.name), ['other'], 'a tab of documentId 2 takes no field of documentId 1');
  assert.deepEqual(claimPdfFields([text('Name')], '1', [claimant('1', { textTabs: [{ tabLabel: 'name' }] })]).unclaimed.map((f) => f.name), ['Name'], 'labels match case-sensitively');
  assert.deepEqual(claimPdfFields([text('x eSignIgnoreTransform')], '1', [claimant('1', { textTabs: [{ tabLabel: 'x eSignIgnoreTransform' }] })]).claimed, [], 'a field DocuSign does not transform is taken by no tab');
});

test('refused by name: a field two tabs name, a tab of a kind the field cannot become, a field in two places, a value the tab refuses', () => {
  assert.throws(() => claimPdfFields([text('Name')], '1', [claimant('1', { textTabs: [{ tabLabel: 'Name' }] }), claimant('2', { textTabs: [{ tabLabel: 'Name' }] })]),
    refused('INVALID_REQUEST_BODY', /the PDF form field "Name" is named by the text tab "Name" of recipientId 1 and by the text tab "Name" of recipientId 2; a field goes to one tab/));
  assert.throws(() => claimPdfFields([text('Name')], '1', [claimant('1', { textTabs: [{ tabLabel: 'Name' }, { tabLabel: 'Na*' }] })]), refused('INVALID_REQUEST_BODY', /is named by the text tab "Name" of recipientId 1 and by the text tab "Na\*"/));
  assert.throws(() => claimPdfFields([text('Name')], '1', [claimant('2', { checkboxTabs: [{ tabLabel: 'Name' }] })]),
    refused('INVALID_REQUEST_BODY', /documentId 1: the PDF form field "Name", taken by the checkbox tab "Name" of recipientId 2, cannot be taken: it is a text field, which any tab but a checkbox, radio group or list can take/));
  assert.throws(() => claimPdfFields([checkbox('ok', false)], '1', [claimant('2', { textTabs: [{ tabLabel: 'ok' }] })]), refused('INVALID_REQUEST_BODY', /it is a checkbox field, which a checkbox tab can take/));
  assert.throws(() => claimPdfFields([text('twice', '', [box(10, 10), box(10, 100)])], '1', [claimant('1', { textTabs: [{ tabLabel: 'twice' }] })]), refused('INVALID_REQUEST_BODY', /it is shown in 2 places; a tab has one/));
  assert.throws(() => claimPdfFields([text('Sign', 'typed')], '1', [claimant('1', { signHereTabs: [{ tabLabel: 'Sign' }] })]), refused('INVALID_REQUEST_BODY', /a signHere tab takes no value, and the field holds "typed"/));
  assert.throws(() => claimPdfFields([choice('colour', ['blue'])], '1', [claimant('1', { listTabs: [{ tabLabel: 'colour', listItems: [{ text: 'red' }] }] })]), refused('INVALID_TAB_VALUE', /"colour", taken by the list tab "colour" of recipientId 1, would hold "blue": Choose one of the listed values/));
  assert.throws(() => claimPdfFields([text('code', 'abcdef')], '1', [claimant('1', { textTabs: [{ tabLabel: 'code', maxLength: '3' }] })]), refused('INVALID_TAB_VALUE', /would hold "abcdef"/));
});

test('a radio group whose radios have no place takes the radio field of its groupName: each radio at the button of its value', () => {
  const plan: PdfFormField = { kind: 'radio', name: 'plan', options: [{ value: 'basic', widget: box(72, 400, 14, 14) }, { value: 'pro', widget: box(140, 400, 14, 14) }], selected: 'basic', required: false, readOnly: false };
  const group = (extra: Record<string, unknown> = {}) => claimant('2', { radioGroupTabs: [{ groupName: 'plan', radios: [{ value: 'basic' }, { value: 'pro' }], ...extra }] });
  const [taken] = claimPdfFields([plan], '1', [group()]).claimed;
  assert.deepEqual(taken?.tab.type === 'radioGroup' && taken.tab.radios.map((r) => [r.value, r.selected, r.place]), [
    ['basic', true, { kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 72, yPosition: 400 }],
    ['pro', false, { kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 140, yPosition: 400 }],
  ]);
  const [chosen] = claimPdfFields([plan], '1', [group({ value: 'pro' })]).claimed;
  assert.deepEqual(chosen?.tab.type === 'radioGroup' && chosen.tab.radios.map((r) => r.selected), [false, true], 'the sender\'s choice wins');
  assert.throws(() => claimPdfFields([plan], '1', [claimant('2', { radioGroupTabs: [{ groupName: 'plan', radios: [{ value: 'basic' }, { value: 'gold' }, { value: 'pro' }] }] })]), refused('INVALID_REQUEST_BODY', /the radio "gold" is none of its buttons \(basic, pro\)/));
  assert.throws(() => claimPdfFields([plan], '1', [claimant('2', { radioGroupTabs: [{ groupName: 'plan', radios: [{ value: 'basic' }] }] })]), refused('INVALID_REQUEST_BODY', /its button "pro" has no radio of that value in the group/));
  assert.throws(() => claimPdfFields([plan], '1', [claimant('2', { textTabs: [{ tabLabel: 'plan' }] })]), refused('INVALID_REQUEST_BODY', /it is a radio field, which a radioGroup tab can take/));
  assert.throws(() => claimPdfFields([text('plan')], '1', [group()]), refused('INVALID_REQUEST_BODY', /it is a text field, which any tab but a checkbox, radio group or list can take/));
  assert.deepEqual(claimPdfFields([plan], '1', [claimant('2', { radioGroupTabs: [{ groupName: 'plan', documentId: '1', radios: [{ value: 'basic', xPosition: '10' }, { value: 'pro' }] }] })]).claimed, [], 'a group with a placed radio takes no field');
});
