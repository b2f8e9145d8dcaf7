import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../../errors.ts';
import { WireReader } from '../../../wire/wire-reader.ts';
import { parseTabs } from '../parse-tabs.ts';
import type { TabOnPage } from '../tab-on-page.ts';
import { initialTabValue } from './initial-tab-value.ts';
import { signerTabValues } from './signer-tab-values.ts';

const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };
const TABS: TabOnPage[] = parseTabs(new WireReader('tabs', {
  textTabs: [{ ...at, tabLabel: 'Code', validationPattern: '^[A-Z]{2}$' }],
  companyTabs: [{ ...at, tabLabel: 'Company', value: 'Acme', locked: 'true' }],
  numberTabs: [{ ...at, tabLabel: 'Qty' }, { ...at, tabLabel: 'Price', value: '2.5', locked: 'true' }],
  formulaTabs: [{ ...at, tabLabel: 'Total', formula: '[Qty] * [Price]' }],
  fullNameTabs: [at], firstNameTabs: [at], lastNameTabs: [at], emailAddressTabs: [at], dateSignedTabs: [at],
  checkboxTabs: [{ ...at, tabLabel: 'Terms', required: 'true' }],
}), { recipientId: '1' }).map((tab, i) => ({ tabId: `t${i + 1}`, tab, places: [], value: initialTabValue(tab) }));
const SIGNER = { name: 'Ada King Lovelace', email: 'ada@example.com' };
const AT = new Date('2026-11-21T23:30:00Z');
const refused = (code: string, pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === code && pattern.test(e.message);

test('the signer\'s values, the service\'s auto-filled ones and the formulas make the final values', () => {
  const values = signerTabValues(TABS, new Map([['t1', 'AB'], ['t2', 'Acme'], ['t3', '4'], ['t11', 'true']]), SIGNER, AT);
  assert.deepEqual(values, ['AB', 'Acme', '4', '2.5', '10', 'Ada King Lovelace', 'Ada King', 'Lovelace', 'ada@example.com', '11/21/2026', 'true']);
});

test('a locked tab changed, a value breaking its rule, a required tab left blank, a foreign tab: refused', () => {
  const base: [string, string][] = [['t1', 'AB'], ['t3', '4'], ['t11', 'true']];
  assert.throws(() => signerTabValues(TABS, new Map([...base, ['t2', 'Evil Corp']]), SIGNER, AT), refused('INVALID_TAB_OPERATION', /company tab "Company" is locked/));
  assert.throws(() => signerTabValues(TABS, new Map([...base, ['t5', '99']]), SIGNER, AT), refused('INVALID_TAB_OPERATION', /formula tab "Total" takes no value/));
  assert.throws(() => signerTabValues(TABS, new Map([...base, ['t6', 'Mallory']]), SIGNER, AT), refused('INVALID_TAB_OPERATION', /takes no value/));
  assert.throws(() => signerTabValues(TABS, new Map([...base, ['t1', 'abc']]), SIGNER, AT), refused('INVALID_TAB_VALUE', /"Code": The value does not have the required format/));
  assert.throws(() => signerTabValues(TABS, new Map([['t1', 'AB'], ['t3', '4']]), SIGNER, AT), refused('INVALID_TAB_VALUE', /"Terms": Check this box/));
  assert.throws(() => signerTabValues(TABS, new Map([...base, ['other', 'x']]), SIGNER, AT), refused('INVALID_TAB_OPERATION', /not one of this recipient's tabs/));
});
