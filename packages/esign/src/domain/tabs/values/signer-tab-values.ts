import { EsignError } from '../../../errors.ts';
import type { SignDateFormat } from '../../account/sign-date-format.ts';
import type { TabOnPage } from '../tab-on-page.ts';
import { applySignerValues } from './apply-signer-values.ts';
import { autoFilledValue, type SignerIdentity } from './auto-filled-value.ts';
import { computeFormulaValues } from './compute-formula-values.ts';
import { assertTabsComplete } from './find-tab-problems.ts';
import { keptTabValue } from './number-value.ts';

/**
 * The recipient's final tab values at Finish, in the order of `tabs`, from what the signing
 * page posted (`posted`: tabId → value). Never trusts the page: the signer's changes go through
 * applySignerValues (a locked tab, a type that takes no value: INVALID_TAB_OPERATION), the
 * service then writes the auto-filled tabs (name, e-mail, date signed) and every formula, and
 * assertTabsComplete refuses a required tab left blank or a value breaking its rule
 * (INVALID_TAB_VALUE); a Currency tab with money keeps its amount as it writes it
 * (keptTabValue). A tabId that is not the recipient's is refused by name.
 */
export function signerTabValues(tabs: readonly TabOnPage[], posted: ReadonlyMap<string, string>, signer: SignerIdentity, signedAt: Date, dateFormat?: SignDateFormat): string[] {
  const indexOf = new Map(tabs.map((t, i) => [t.tabId, i]));
  const changes = new Map<number, string>();
  for (const [tabId, value] of posted) {
    const index = indexOf.get(tabId);
    if (index === undefined) throw new EsignError('INVALID_TAB_OPERATION', `Tab ${tabId.slice(0, 100)} is not one of this recipient's tabs.`);
    changes.set(index, value);
  }
  const domainTabs = tabs.map((t) => t.tab);
  const applied = applySignerValues(domainTabs, tabs.map((t) => t.value), changes);
  const filled = applied.map((value, i) => autoFilledValue(domainTabs[i]!, signer, signedAt, dateFormat) ?? value);
  const values = computeFormulaValues(domainTabs, filled);
  assertTabsComplete(domainTabs, values);
  return values.map((value, i) => keptTabValue(domainTabs[i]!, value));
}
