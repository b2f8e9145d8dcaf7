import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlacedTab } from '../domain/envelope/placed-tab.ts';
import { parseTabs } from '../domain/tabs/parse-tabs.ts';
import type { Tab, TabPlace } from '../domain/tabs/tab.ts';
import { initialTabValue } from '../domain/tabs/values/initial-tab-value.ts';
import { tabFromJson, tabToJson } from '../store/placed-tab-json.ts';
import { toWireFormData } from './to-wire-form-data.ts';
import { toWireTabs } from './to-wire-tabs.ts';
import { WireReader } from './wire-reader.ts';

const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };
/** One tab of every type, as the SDK's string-typed JSON carries them. */
const EVERY_TYPE = {
  signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '-10', optional: 'false' }],
  initialHereTabs: [{ ...at, optional: 'true', scaleValue: '0.8' }],
  dateSignedTabs: [at], fullNameTabs: [{ ...at, font: 'TimesNewRoman', fontSize: 'Size14', bold: 'true' }], firstNameTabs: [at], lastNameTabs: [at], emailAddressTabs: [at],
  companyTabs: [{ ...at, value: 'Acme', locked: 'true' }], titleTabs: [{ ...at, required: 'false', tooltip: 'Your title', width: '120', height: '20' }],
  textTabs: [{ ...at, tabLabel: 'Code', value: 'AB12', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$', validationMessage: 'Two letters, two digits', conditionalParentLabel: 'Terms', conditionalParentValue: 'on' }],
  numberTabs: [{ ...at, tabLabel: 'Qty', value: '3' }],
  numericalTabs: [{ ...at, tabLabel: 'Price', numericalValue: 19.5, minNumericalValue: '0', maxNumericalValue: '1000', validationType: 'Currency', localePolicy: { cultureName: 'de-DE' } }],
  dateTabs: [{ ...at, value: '2026-11-21' }], emailTabs: [{ ...at, value: 'ada@example.com' }], zipTabs: [{ ...at, value: '12345-6789', useDash4: 'true' }], ssnTabs: [{ ...at, value: '123-45-6789' }],
  checkboxTabs: [{ ...at, tabLabel: 'Terms', selected: 'true', required: 'true' }],
  radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [{ pageNumber: '1', xPosition: '10', yPosition: '10', value: 'basic' }, { anchorString: '/pro/', value: 'pro', selected: 'true' }] }],
  listTabs: [{ ...at, tabLabel: 'Colour', listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue', value: 'blue', selected: 'true' }] }],
  noteTabs: [{ ...at, value: 'Read section 4' }],
  formulaTabs: [{ ...at, tabLabel: 'Total', formula: '[Qty] * [Price]', roundDecimalPlaces: '2' }],
  approveTabs: [{ ...at, buttonText: 'OK' }], declineTabs: [{ ...at, declineReason: 'Wrong price' }],
  signerAttachmentTabs: [{ ...at, optional: 'true' }], viewTabs: [{ ...at, requiredRead: 'true' }],
};

const parse = (tabs: unknown): Tab[] => parseTabs(new WireReader('tabs', tabs), { recipientId: '1' });

/** Where a place lies once placed: its absolute position, or a made-up anchor match. */
const spotOf = (place: TabPlace) => (place.kind === 'absolute' ? { documentId: place.documentId, pageNumber: place.pageNumber, xPosition: place.xPosition, yPosition: place.yPosition } : { documentId: '1', pageNumber: 2, xPosition: 50.25, yPosition: 60 });

function placed(tabs: readonly Tab[]): PlacedTab[] {
  return tabs.map((tab, i) => {
    if (tab.type === 'radioGroup') {
      const radios = tab.radios.map((r, j) => ({ ...spotOf(r.place), tabId: `r${i}-${j}` }));
      return { ...radios[0]!, tabId: `t${i}`, recipientId: '1', tab, radios, value: initialTabValue(tab) };
    }
    return { ...spotOf(tab.place), tabId: `t${i}`, recipientId: '1', tab, value: initialTabValue(tab) };
  });
}

test('every tab type is written in its SDK model\'s shape and reads back as the same tab', () => {
  const tabs = parse(EVERY_TYPE);
  const wire = toWireTabs(placed(tabs), { recipientId: '1', recipientIdGuid: 'g1' });
  assert.deepEqual(Object.keys(wire).sort(), Object.keys(EVERY_TYPE).sort());
  // The wire form parses back (output fields are accepted and ignored): the same tabs, except that
  // an anchored tab is read back by its anchor and an absolute one at its spot.
  assert.deepEqual(parse(wire), tabs);
  for (const list of Object.values(wire)) for (const item of list) for (const v of Object.values(item)) assert.ok(typeof v === 'string' || typeof v === 'object', `${String(v)} is a string or a nested model`);
});

test('the wire shows the current value, not the sender\'s: checkbox selected, chosen radio and list item', () => {
  const tabs = placed(parse(EVERY_TYPE)).map((t) => {
    const values: Partial<Record<Tab['type'], string>> = { checkbox: 'false', radioGroup: 'basic', list: 'red', text: 'ZZ99' };
    return { ...t, value: values[t.tab.type] ?? t.value };
  });
  const wire = toWireTabs(tabs, { recipientId: '1' });
  assert.equal(wire.checkboxTabs?.[0]?.selected, 'false');
  assert.deepEqual((wire.radioGroupTabs?.[0]?.radios as { value: string; selected: string; tabId: string }[]).map((r) => [r.value, r.selected, r.tabId]), [['basic', 'true', 'r17-0'], ['pro', 'false', 'r17-1']]);
  assert.deepEqual([wire.listTabs?.[0]?.value, (wire.listTabs?.[0]?.listItems as { selected: string }[]).map((i) => i.selected)], ['red', ['true', 'false']]);
  assert.equal(wire.textTabs?.[0]?.value, 'ZZ99');
  assert.deepEqual(wire.textTabs?.[0] && [wire.textTabs[0].tabId, wire.textTabs[0].tabType, wire.textTabs[0].xPosition, wire.textTabs[0].conditionalParentLabel], ['t9', 'text', '100', 'Terms']);
  assert.deepEqual(wire.signHereTabs?.[0] && [wire.signHereTabs[0].anchorString, wire.signHereTabs[0].pageNumber, wire.signHereTabs[0].xPosition], ['/sn1/', '2', '50.25']);
});

test('stored tab JSON keeps every field, and a validation pattern compiles again', () => {
  const tabs = parse(EVERY_TYPE);
  const back = tabs.map((t) => tabFromJson(tabToJson(t)));
  assert.deepEqual(back, tabs);
  const text = back.find((t) => t.type === 'text');
  assert.ok(text?.type === 'text' && text.validation?.pattern.regex.test('AB12') === true && !text.validation.pattern.regex.test('ab12'));
});

test('form data lists every value-holding tab of every signer, by label', () => {
  const tabs = placed(parse(EVERY_TYPE));
  const T = new Date('2026-11-21T10:00:00Z');
  const data = toWireFormData({
    envelopeId: 'e', accountId: 'a', senderUserId: 'u', status: 'sent', emailSubject: 'S', createdAt: T, statusChangedAt: T, sentAt: T, version: 1, documents: [],
    recipients: [
      { recipientId: '1', recipientIdGuid: 'g', type: 'signer', email: 's@example.com', name: 'Sam', routingOrder: 1, status: 'sent', sentAt: T, tabs },
      { recipientId: '2', recipientIdGuid: 'h', type: 'carbonCopy', email: 'c@example.com', name: 'Cy', routingOrder: 2, status: 'created', tabs: [] },
    ],
  }) as { formData: { name: string; value: string; listSelectedValue?: string }[]; recipientFormData: { recipientId: string; SentTime?: string; formData: unknown[] }[] };
  const byName = new Map(data.formData.map((f) => [f.name, f]));
  assert.deepEqual(['Code', 'Qty', 'Price', 'Terms', 'Plan', 'Colour'].map((n) => byName.get(n)?.value), ['AB12', '3', '19,5', 'true', 'pro', 'blue']);
  assert.equal(byName.get('Colour')?.listSelectedValue, 'Blue');
  // Signatures, attachments and buttons hold no value: 25 types less 6.
  assert.equal(data.formData.length, 19);
  assert.deepEqual(data.recipientFormData.map((r) => [r.recipientId, r.SentTime, r.formData.length]), [['1', '2026-11-21T10:00:00.0000000Z', 19]]);
});

test('a Currency tab with money: value as written, numericalValue plain, its localePolicy echoed; wire and stored JSON read back as the same tab', () => {
  const localePolicy = { cultureName: 'en-US', currencyCode: 'usd', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89', useLongCurrencyFormat: 'true' };
  const tabs = parse({
    numericalTabs: [
      { ...at, tabLabel: 'Salary', numericalValue: '123000', validationType: 'Currency', localePolicy },
      { ...at, tabLabel: 'Rent', value: '-1234,5', validationType: 'Currency', localePolicy: { cultureName: 'de-DE', currencyCode: 'EUR' } },
    ],
  });
  const wire = toWireTabs(placed(tabs), { recipientId: '1' });
  assert.deepEqual(wire.numericalTabs?.map((w) => [w.value, w.numericalValue, w.localePolicy]), [
    ['$123,000.00 USD', '123000', localePolicy],
    ['-1.234,50 €', '-1234.5', { cultureName: 'de-DE', currencyCode: 'EUR' }],
  ]);
  assert.deepEqual(parse(wire), tabs);
  assert.deepEqual(tabs.map((t) => tabFromJson(tabToJson(t))), tabs);
  const envelope = { envelopeId: 'e1', emailSubject: 's', status: 'sent', recipients: [{ recipientId: '1', type: 'signer', name: 'Ada', email: 'ada@example.com', tabs: placed(tabs) }] };
  const form = toWireFormData(envelope as unknown as Parameters<typeof toWireFormData>[0]) as { formData: Record<string, string>[] };
  assert.deepEqual(form.formData, [{ name: 'Salary', value: '$123,000.00 USD', numericalValue: '123000' }, { name: 'Rent', value: '-1.234,50 €', numericalValue: '-1234.5' }]);
});
