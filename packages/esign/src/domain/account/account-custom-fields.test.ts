import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CustomField } from '../envelope/custom-fields.ts';
import { inheritAccountFields } from './account-custom-fields.ts';

const account: CustomField[] = [
  { fieldId: '1', kind: 'text', name: 'Cost centre', value: 'CC-0', show: true, required: false },
  { fieldId: '2', kind: 'list', name: 'Region', value: 'EU', show: false, required: true, listItems: ['EU', 'US'] },
];

test('inheritAccountFields: the account\'s fields first, the envelope\'s value by name (case folded), required if either says so, the envelope\'s other fields after', () => {
  const cases: [string, Parameters<typeof inheritAccountFields>[1], [string, string, boolean, boolean][]][] = [
    ['nothing of its own', [], [['Cost centre', 'CC-0', true, false], ['Region', 'EU', false, true]]],
    ['its own value wins, its show too', [{ kind: 'text', name: 'cost CENTRE', value: 'CC-9', show: false, required: false }], [['Cost centre', 'CC-9', false, false], ['Region', 'EU', false, true]]],
    ['required stays required', [{ kind: 'list', name: 'Region', value: 'US', show: true, required: false }], [['Cost centre', 'CC-0', true, false], ['Region', 'US', true, true]]],
    ['its own field comes after', [{ kind: 'text', name: 'Order', value: '42', show: true, required: true }], [['Cost centre', 'CC-0', true, false], ['Region', 'EU', false, true], ['Order', '42', true, true]]],
  ];
  for (const [name, own, expected] of cases) {
    assert.deepEqual(inheritAccountFields(account, own).map((f) => [f.name, f.value, f.show, f.required]), expected, name);
  }
  assert.equal(inheritAccountFields(account, []).some((f) => 'fieldId' in f), false, 'the envelope numbers its own fields');
});

test('inheritAccountFields: a value outside the account list field\'s items is refused', () => {
  assert.throws(() => inheritAccountFields(account, [{ kind: 'list', name: 'region', value: 'APAC', show: true, required: false }]), /value "APAC" is not one of its listItems/);
});
