import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { parseEnvelopeDefinition } from '../../restapi/envelopes/parse-envelope-definition.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseAnchorSpec } from './parse-anchor-spec.ts';
import { parseTabs } from './parse-tabs.ts';
import type { Tab } from './tab.ts';

const WHERE = 'recipients.signers[0].tabs';
const parse = (tabs: unknown, recipientId = '1'): Tab[] => parseTabs(new WireReader(WHERE, tabs), { recipientId });
const refused = (code: string, pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === code && pattern.test(e.message);
const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };

test('every tab type parses from the SDK\'s string-typed JSON, absolute or by anchor', () => {
  const tabs = parse({
    signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '-10', optional: 'false' }],
    initialHereTabs: [{ ...at, optional: 'true', scaleValue: '0.8' }],
    dateSignedTabs: [at], fullNameTabs: [{ ...at, font: 'TimesNewRoman', fontSize: 'Size14', bold: 'true' }], firstNameTabs: [at], lastNameTabs: [at], emailAddressTabs: [at],
    companyTabs: [{ ...at, value: 'Acme', locked: 'true' }], titleTabs: [{ ...at, required: 'false' }],
    textTabs: [{ ...at, tabLabel: 'Code', value: 'AB12', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$', validationMessage: 'Two letters, two digits' }],
    numberTabs: [{ ...at, tabLabel: 'Qty', value: '3' }],
    numericalTabs: [{ ...at, tabLabel: 'Price', numericalValue: 19.5, minNumericalValue: '0', maxNumericalValue: '1000', validationType: 'Currency', localePolicy: { cultureName: 'de-DE' } }],
    dateTabs: [{ ...at, value: '2026-11-21' }], emailTabs: [{ ...at, value: 'ada@example.com' }], zipTabs: [{ ...at, value: '12345-6789', useDash4: 'true' }], ssnTabs: [{ ...at, value: '123-45-6789' }],
    checkboxTabs: [{ ...at, tabLabel: 'Terms', selected: 'true', required: 'true' }],
    radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [{ pageNumber: '1', xPosition: '10', yPosition: '10', value: 'basic' }, { pageNumber: '1', xPosition: '10', yPosition: '30', value: 'pro', selected: 'true' }] }],
    listTabs: [{ ...at, tabLabel: 'Colour', listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue', value: 'blue', selected: 'true' }] }],
    noteTabs: [{ ...at, value: 'Read section 4' }],
    formulaTabs: [{ ...at, tabLabel: 'Total', formula: '[Qty] * [Price]', roundDecimalPlaces: '2' }],
    approveTabs: [{ ...at, buttonText: 'OK' }], declineTabs: [{ ...at, declineReason: 'Wrong price' }],
    signerAttachmentTabs: [{ ...at, optional: 'true' }], viewTabs: [{ ...at, requiredRead: 'true' }],
  });
  assert.equal(tabs.length, 25);
  const byType = new Map(tabs.map((t) => [t.type, t]));
  const signHere = byType.get('signHere')!;
  assert.deepEqual(signHere.type !== 'radioGroup' && signHere.place, { kind: 'anchor', anchor: { anchorString: '/sn1/', units: 'pixels', xOffset: 20, yOffset: -10, ignoreIfNotPresent: false, caseSensitive: false, matchWholeWord: false, horizontalAlignment: 'left', allowWhiteSpaceInCharacters: false } });
  assert.equal(signHere.required, true);
  assert.equal(byType.get('initialHere')!.required, false);
  assert.deepEqual(byType.get('fullName')!.type === 'fullName' && byType.get('fullName'), {
    type: 'fullName', required: false, locked: false, place: { kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 200 },
    font: { font: 'TimesNewRoman', family: 'times', fontSize: 14, bold: true, italic: false, underline: false, fontColor: 'Black' },
  });
  const company = byType.get('company')!;
  assert.ok(company.type === 'company' && company.value === 'Acme' && company.locked && company.required);
  assert.equal(byType.get('title')!.required, false);
  const text = byType.get('text')!;
  assert.ok(text.type === 'text' && text.maxLength === 4 && text.validation?.message === 'Two letters, two digits');
  const price = byType.get('numerical')!;
  assert.ok(price.type === 'numerical');
  assert.deepEqual([price.value, price.min, price.max, price.validationType, price.locale.decimal], ['19,5', 0, 1000, 'currency', ',']);
  const plan = byType.get('radioGroup')!;
  assert.ok(plan.type === 'radioGroup');
  assert.deepEqual(plan.radios.map((r) => [r.value, r.selected, r.place]), [
    ['basic', false, { kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 10, yPosition: 10 }],
    ['pro', true, { kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 10, yPosition: 30 }],
  ]);
  assert.equal(plan.tabLabel, 'Plan');
  const list = byType.get('list')!;
  assert.ok(list.type === 'list' && list.value === 'blue');
  const total = byType.get('formula')!;
  assert.ok(total.type === 'formula' && total.locked && total.roundDecimalPlaces === 2);
  assert.ok(byType.get('view')!.required);
});

test('the SignHere parser reads anchor options through parseAnchorSpec; whitespace-tolerant anchors are refused there until signHere tabs pass them on', () => {
  const cases = [
    { anchorString: 'Sign:' },
    { anchorString: '/s1/', anchorUnits: 'inches', anchorXOffset: '0.5', anchorYOffset: -1, anchorIgnoreIfNotPresent: 'TRUE', anchorCaseSensitive: true, anchorMatchWholeWord: 'true', anchorHorizontalAlignment: 'Right' },
    { anchorString: 'x', anchorUnits: 'MMS', anchorXOffset: 3 },
  ];
  for (const anchorTab of cases) {
    const draft = parseEnvelopeDefinition({
      status: 'created',
      documents: [{ documentId: '1', name: 'a.pdf', documentBase64: Buffer.from('%PDF-1.4').toString('base64') }],
      recipients: { signers: [{ recipientId: '1', email: 'a@example.com', name: 'A', tabs: { signHereTabs: [anchorTab] } }] },
    });
    const ours = parseAnchorSpec(new WireReader('t', anchorTab))!;
    assert.deepEqual(draft.recipients[0]!.tabs[0]!.type !== 'radioGroup' && draft.recipients[0]!.tabs[0]!.place, { kind: 'anchor', anchor: ours });
    assert.equal(ours.allowWhiteSpaceInCharacters, false);
  }
  // The envelope parser reads signHereTabs through parseTabs: the whitespace option the pdf search honours is honoured there too.
  const spaced = parseEnvelopeDefinition({
    status: 'created',
    documents: [{ documentId: '1', name: 'a.pdf', documentBase64: Buffer.from('%PDF-1.4').toString('base64') }],
    recipients: { signers: [{ recipientId: '1', email: 'a@example.com', name: 'A', tabs: { signHereTabs: [{ anchorString: 'x', anchorAllowWhiteSpaceInCharacters: 'true' }] } }] },
  }).recipients[0]!.tabs[0]!;
  assert.equal(spaced.type !== 'radioGroup' && spaced.place.kind === 'anchor' && spaced.place.anchor.allowWhiteSpaceInCharacters, true);
});

test('fields a model lacks, and fields this service does not implement, are refused by name; asking for nothing is fine', () => {
  assert.throws(() => parse({ textTabs: [{ ...at, colour: 'red', sizeX: 3 }] }), refused('INVALID_REQUEST_BODY', /textTabs\[0\] colour, sizeX are not fields of Text\./));
  assert.throws(() => parse({ textTabs: [{ ...at, shared: 'true', mergeField: { configurationType: 'salesforce' } }] }),
    refused('INVALID_REQUEST_BODY', /not supported: shared \(shared tabs are not supported\); mergeField \(merge fields are not supported\)/));
  assert.throws(() => parse({ checkboxTabs: [{ ...at, value: 'x' }] }), refused('INVALID_REQUEST_BODY', /value is not a field of Checkbox/));
  assert.throws(() => parse({ fullNameTabs: [{ ...at, localePolicy: { nameFormat: 'last_first' } }] }), refused('INVALID_REQUEST_BODY', /localePolicy \(name formats|date and name formats/));
  // What a client read back: output fields, *Metadata, false and blank refused fields.
  const [tab] = parse({ textTabs: [{ ...at, tabId: 'b4c6…', status: 'active', tabType: 'text', shared: 'false', mergeField: {}, tabLabelMetadata: { rights: 'editable' }, originalValue: 'x' }] });
  assert.equal(tab!.type, 'text');
  assert.doesNotThrow(() => parse({ signHereTabs: [{ ...at, toolTipMetadata: { rights: 'editable' } }] }));
});

test('tab lists: unsupported ones are refused with the reason, unknown ones as not of the model, empty ones pass', () => {
  assert.throws(() => parse({ notarizeTabs: [at] }), refused('INVALID_REQUEST_BODY', /tabs\.notarizeTabs is not supported: notary tabs are not supported\./));
  assert.throws(() => parse({ tickBoxTabs: [at] }), refused('INVALID_REQUEST_BODY', /tabs\.tickBoxTabs is not a tab list of the Tabs model\./));
  assert.deepEqual(parse({ notarizeTabs: [], prefillTabs: {}, textTabs: null }), []);
  assert.throws(() => parse({ textTabs: Array.from({ length: 201 }, () => at) }), refused('INVALID_REQUEST_BODY', /at most 200 tabs/));
});

test('bad tab input gets DocuSign-style codes naming the tab', () => {
  // A required attachment is taken: the signing page uploads it (test/signing/signer-attachment.test.ts).
  assert.equal(parse({ signerAttachmentTabs: [at] })[0]?.required, true);
  assert.throws(() => parse({ radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [] }] }), refused('INVALID_REQUEST_BODY', /radioGroupTabs\[0\]\.radios must hold at least one radio/));
  assert.throws(() => parse({ radioGroupTabs: [{ groupName: 'Plan', documentId: '1', value: 'gold', radios: [{ value: 'basic' }] }] }), refused('INVALID_TAB_VALUE', /"gold" is not the value of any of its radios \(basic\)/));
  assert.throws(() => parse({ radioGroupTabs: [{ documentId: '1', radios: [{ value: 'a' }] }] }), refused('INVALID_REQUEST_BODY', /groupName is required/));
  assert.throws(() => parse({ listTabs: [{ ...at, value: 'green', listItems: [{ text: 'Red', value: 'red' }] }] }), refused('INVALID_TAB_VALUE', /"green" is not among its listItems \(red\)/));
  assert.throws(() => parse({ listTabs: [{ ...at, listItems: [] }] }), refused('INVALID_REQUEST_BODY', /listItems must hold at least one item/));
  assert.throws(() => parse({ textTabs: [{ ...at, maxLength: '3', value: 'abcd' }] }), refused('INVALID_TAB_VALUE', /textTabs\[0\]\.value is 4 characters long; its maxLength is 3/));
  assert.throws(() => parse({ textTabs: [{ ...at, validationPattern: '^(a' }] }), refused('INVALID_VALIDATION_PATTERN', /textTabs\[0\]\.validationPattern: it is not a valid regular expression/));
  assert.throws(() => parse({ textTabs: [{ ...at, validationPattern: '^(\\w+\\s?)*$' }] }), refused('INVALID_VALIDATION_PATTERN', /exponential/));
  assert.throws(() => parse({ textTabs: [{ ...at, value: 'abc', validationPattern: '^\\d+$', validationMessage: 'Digits only' }] }), refused('INVALID_TAB_VALUE', /value "abc": Digits only/));
  assert.throws(() => parse({ numericalTabs: [{ ...at, value: '12', maxNumericalValue: '10' }] }), refused('INVALID_TAB_VALUE', /at most 10/));
  assert.throws(() => parse({ emailTabs: [{ ...at, value: 'not-an-address' }] }), refused('INVALID_TAB_VALUE', /e-mail address/));
  assert.throws(() => parse({ dateTabs: [{ ...at, value: '2026-02-30' }] }), refused('INVALID_TAB_VALUE', /Enter a date/));
  assert.throws(() => parse({ formulaTabs: [{ ...at, tabLabel: 'T', formula: '[Qty] * [Price]' }], numberTabs: [{ ...at, tabLabel: 'Qty' }] }), refused('INVALID_FORMULA', /reads \[Price\], which no tab is labelled/));
  assert.throws(() => parse({ formulaTabs: [{ ...at, tabLabel: 'A', formula: '[B]' }, { ...at, tabLabel: 'B', formula: '[A] + 1' }] }), refused('INVALID_FORMULA', /cycle: \[A\] → \[B\] → \[A\]/));
  assert.throws(() => parse({ textTabs: [{ ...at, conditionalParentLabel: 'Terms', conditionalParentValue: 'on' }] }), refused('INVALID_REQUEST_BODY', /conditionalParentLabel "Terms", which no tab of this recipient is labelled/));
  assert.throws(() => parse({ textTabs: [{ ...at, conditionalParentLabel: 'Terms' }] }), refused('INVALID_REQUEST_BODY', /go together/));
  assert.throws(() => parse({ textTabs: [{ ...at, recipientId: '2' }] }), refused('INVALID_REQUEST_BODY', /recipientId is "2" but the tab is listed under recipientId 1/));
  assert.throws(() => parse({ textTabs: [{ value: 'x' }] }), refused('INVALID_REQUEST_BODY', /needs an anchorString, or a documentId/));
  // A labelled tab without a place may take a PDF form field of its label (claim-pdf-fields.ts); placement refuses it when none does.
  const placeOf = (tabs: Tab[]) => (tabs[0] && tabs[0].type !== 'radioGroup' ? tabs[0].place : undefined);
  assert.deepEqual(placeOf(parse({ textTabs: [{ tabLabel: 'x' }] })), { kind: 'formField', valueGiven: false });
  assert.deepEqual(placeOf(parse({ checkboxTabs: [{ tabLabel: 'x', documentId: '1', selected: 'false' }] })),
    { kind: 'formField', documentId: '1', otherwise: { kind: 'absolute', documentId: '1', pageNumber: 1, xPosition: 0, yPosition: 0 }, valueGiven: true });
  // Radios likewise, by their group's groupName; a radio with a position still needs the group's documentId.
  const group = parse({ radioGroupTabs: [{ groupName: 'plan', radios: [{ value: 'a' }, { value: 'b' }] }] })[0];
  assert.deepEqual(group?.type === 'radioGroup' && group.radios.map((r) => r.place), [{ kind: 'formField', valueGiven: false }, { kind: 'formField', valueGiven: false }]);
  assert.throws(() => parse({ radioGroupTabs: [{ groupName: 'plan', radios: [{ value: 'a', xPosition: '10' }] }] }), refused('INVALID_REQUEST_BODY', /radios\[0\] needs an anchorString, or the group needs a documentId/));
  assert.throws(() => parse({ textTabs: [{ ...at, font: 'Comic Sans' }] }), refused('INVALID_REQUEST_BODY', /font must be one of/));
  assert.throws(() => parse({ textTabs: [{ ...at, fontSize: 'Size13' }] }), refused('INVALID_REQUEST_BODY', /fontSize must be one of Size7/));
  assert.throws(() => parse({ numberTabs: [{ ...at, localePolicy: { cultureName: 'de-DE', currencyCode: 'EUR' } }] }), refused('INVALID_REQUEST_BODY', /localePolicy currencyCode: currency formats apply only to a numerical tab whose validationType is Currency/));
});
