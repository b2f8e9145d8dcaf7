import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { RADIO_FIELDS } from './kinds/radio-group.ts';
import { TAB_KINDS, UNSUPPORTED_TAB_LISTS } from './tab-registry.ts';

// The SDK's model files are the wire contract: each kind's table must name exactly its model's fields.
const modelDir = join(dirname(createRequire(import.meta.url).resolve('docusign-esign')), 'model');
function sdkFields(model: string): string[] {
  const source = readFileSync(join(modelDir, `${model}.js`), 'utf8');
  return [...source.matchAll(/data\.hasOwnProperty\('([A-Za-z0-9]+)'\)/g)].map((m) => m[1]!).filter((f) => !f.endsWith('Metadata')).sort();
}

test('the registry holds every tab type of the tab family, once', () => {
  assert.deepEqual(TAB_KINDS.map((k) => k.wireKey).sort(), [
    'approveTabs', 'checkboxTabs', 'companyTabs', 'dateSignedTabs', 'dateTabs', 'declineTabs', 'emailAddressTabs', 'emailTabs', 'firstNameTabs',
    'formulaTabs', 'fullNameTabs', 'initialHereTabs', 'lastNameTabs', 'listTabs', 'noteTabs', 'numberTabs', 'numericalTabs', 'radioGroupTabs',
    'signerAttachmentTabs', 'signHereTabs', 'ssnTabs', 'textTabs', 'titleTabs', 'viewTabs', 'zipTabs',
  ].sort());
  assert.equal(new Set(TAB_KINDS.map((k) => k.type)).size, TAB_KINDS.length);
});

test("each kind's field table names exactly its SDK model's fields, each with a rule", () => {
  for (const kind of TAB_KINDS) {
    assert.deepEqual(Object.keys(kind.fields).sort(), sdkFields(kind.model), `${kind.wireKey} (${kind.model})`);
    for (const [field, rule] of Object.entries(kind.fields)) {
      assert.ok(rule.rule === 'honoured' || rule.rule === 'output' || (rule.rule === 'refused' && rule.why.length > 10), `${kind.model}.${field}`);
    }
  }
  assert.deepEqual(Object.keys(RADIO_FIELDS).sort(), sdkFields('Radio'));
});

test("every list of the SDK's Tabs model is implemented or refused by name", () => {
  const lists = sdkFields('Tabs');
  const ours = new Set([...TAB_KINDS.map((k) => k.wireKey), ...Object.keys(UNSUPPORTED_TAB_LISTS)]);
  assert.deepEqual(lists.filter((l) => !ours.has(l)), []);
  assert.deepEqual([...ours].filter((l) => !lists.includes(l)), []);
});
