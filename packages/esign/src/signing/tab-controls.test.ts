import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTabs } from '../domain/tabs/parse-tabs.ts';
import type { TabOnPage } from '../domain/tabs/tab-on-page.ts';
import { initialTabValue } from '../domain/tabs/values/initial-tab-value.ts';
import { translator } from '../i18n/translator.ts';
import { WireReader } from '../wire/wire-reader.ts';
import { tabControlsOn } from './tab-controls.ts';

const CTX = { signer: { name: 'Ada Lovelace', email: 'ada@example.com' }, now: new Date('2026-11-21T10:00:00Z'), t: translator('en').t };

/** A radio group of the given radios on page 1, as the signing page receives it. */
function radioGroup(radios: Record<string, string>[]): TabOnPage {
  const [tab] = parseTabs(new WireReader('tabs', { radioGroupTabs: [{ groupName: 'Tier', documentId: '1', radios: radios.map((r, i) => ({ pageNumber: '1', xPosition: String(72 + i * 40), yPosition: '100', ...r })) }] }), { recipientId: '1' });
  if (tab?.type !== 'radioGroup') return assert.fail('a radio group');
  return { tabId: 't1', tab, value: initialTabValue(tab), places: tab.radios.map((_, i) => ({ documentId: '1', pageNumber: 1, xPosition: 72 + i * 40, yPosition: 100 })) };
}

/** Each radio's value → whether its input is disabled. */
function disabled(group: TabOnPage): Record<string, boolean> {
  const markup = tabControlsOn([group], '1', 1, CTX).toString();
  const inputs = [...markup.matchAll(/<input type="radio"[^>]*value="([^"]*)"[^>]*>/g)].map((m): [string, boolean] => [m[1] ?? '', / disabled/.test(m[0])]);
  return Object.fromEntries(inputs);
}

test('radios: a locked radio is disabled; when the sender chose a locked radio, the whole group is, since any other choice clears it', () => {
  assert.deepEqual(disabled(radioGroup([{ value: 'basic' }, { value: 'pro', locked: 'true' }])), { basic: false, pro: true });
  assert.deepEqual(disabled(radioGroup([{ value: 'basic' }, { value: 'pro', locked: 'true', selected: 'true' }])), { basic: true, pro: true });
  assert.deepEqual(disabled(radioGroup([{ value: 'basic', selected: 'true' }, { value: 'pro' }])), { basic: false, pro: false });
});
