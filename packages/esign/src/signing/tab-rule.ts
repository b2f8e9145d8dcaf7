import { labelOf } from '../domain/tabs/check-tab-relations.ts';
import { checkFormulas } from '../domain/tabs/formula/check-formulas.ts';
import type { FormulaNode } from '../domain/tabs/formula/formula-ast.ts';
import { kindOf } from '../domain/tabs/tab-registry.ts';
import type { MoneyPiece, Tab } from '../domain/tabs/tab.ts';
import { numberExample } from '../domain/tabs/values/format-money.ts';
import type { Translator } from '../i18n/translator.ts';

/**
 * What the signing page's script knows of one tab to judge and compute it as the server does
 * (signing/tab-rules-script.ts mirrors domain/tabs/values/find-tab-problems.ts and the formula
 * evaluator over these). Culture-dependent text is computed here, so the browser's own Intl
 * data cannot make its messages differ from the server's. Its messages are in the recipient's
 * language (i18n/catalogs, `check.*`); in English they are the server's own words, which
 * Finish answers when the page is bypassed (tab-rules-script.test.ts compares them).
 */
export type TabRule = {
  readonly type: Tab['type'];
  readonly label?: string;
  readonly required: boolean;
  readonly takesValue: boolean;
  readonly locked: boolean;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly useDash4?: boolean;
  readonly decimal?: string;
  readonly group?: string;
  readonly min?: number;
  readonly max?: number;
  readonly currency?: boolean;
  /** A Currency tab with money: how it reads and writes amounts (format-money.ts, parse-locale-number.ts). */
  readonly money?: { readonly symbol: string; readonly code: string; readonly long: boolean; readonly positive: readonly MoneyPiece[]; readonly negative: readonly MoneyPiece[] };
  /** The values a list or radio group accepts. */
  readonly choices?: readonly string[];
  readonly cond?: { readonly label: string; readonly value: string };
  readonly formula?: FormulaNode;
  readonly round?: number;
  /** A formula's place in evaluation order (each after those it reads). */
  readonly order?: number;
  /** What the page says of a value this tab refuses, whole sentences in the recipient's language. */
  readonly messages: TabMessages;
};

/**
 * One message per way the tab can refuse a value (only those that apply): `required` for a blank
 * required tab, `tooLong`, `format` (a date, e-mail, ZIP or SSN shape), `pattern` (the sender's
 * validationMessage as written, else ours), `number`, `min`, `max`, `currency`, `choice`.
 */
export type TabMessages = Partial<Record<'required' | 'tooLong' | 'format' | 'pattern' | 'number' | 'min' | 'max' | 'currency' | 'choice', string>>;

/** The rules of a recipient's tabs, in the order given. */
export function tabRules(tabs: readonly Tab[], tr: Translator): TabRule[] {
  const formulas = tabs.flatMap((t) => (t.type === 'formula' && t.tabLabel !== undefined ? [{ tabLabel: t.tabLabel, formula: t.formula }] : []));
  const known = new Set(tabs.map(labelOf).filter((l): l is string => l !== undefined));
  const order = new Map(checkFormulas(formulas, known).map((f, i) => [f.tabLabel, i]));
  return tabs.map((tab) => tabRule(tab, order, tr));
}

/** The format a typed-in tab's kind asks for (domain/tabs/values/text-formats.ts, formatted-text.ts). */
function formatMessage(tab: Tab, tr: Translator): string | undefined {
  switch (tab.type) {
    case 'date': return tr.t('check.date');
    case 'email': return tr.t('check.email');
    case 'zip': return tab.useDash4 ? tr.t('check.zipDash') : tr.t('check.zip');
    case 'ssn': return tr.t('check.ssn');
    default: return undefined;
  }
}

function requiredMessage(tab: Tab, tr: Translator): string {
  return tab.type === 'checkbox' ? tr.t('check.checkBox') : tab.type === 'radioGroup' || tab.type === 'list' ? tr.t('check.choose') : tr.t('check.required');
}

function tabRule(tab: Tab, order: ReadonlyMap<string, number>, tr: Translator): TabRule {
  const { t } = tr;
  const label = labelOf(tab);
  const required = tab.required ? { required: requiredMessage(tab, tr) } : {};
  const base = {
    type: tab.type,
    ...(label !== undefined ? { label } : {}),
    required: tab.required,
    takesValue: kindOf(tab.type).takesValue,
    locked: tab.locked,
    ...(tab.conditional ? { cond: { label: tab.conditional.parentLabel, value: tab.conditional.parentValue } } : {}),
    messages: required,
  };
  switch (tab.type) {
    case 'text': case 'company': case 'title': case 'date': case 'email': case 'zip': case 'ssn':
      return {
        ...base, maxLength: tab.maxLength,
        ...(tab.validation ? { pattern: tab.validation.pattern.source } : {}),
        ...(tab.useDash4 !== undefined ? { useDash4: tab.useDash4 } : {}),
        messages: {
          ...required, tooLong: t('check.maxLength', { max: String(tab.maxLength) }),
          ...(formatMessage(tab, tr) !== undefined ? { format: formatMessage(tab, tr) } : {}),
          ...(tab.validation ? { pattern: tab.validation.message ?? t('check.pattern') } : {}),
        },
      };
    case 'number': case 'numerical':
      return {
        ...base, maxLength: tab.maxLength, decimal: tab.locale.decimal, group: tab.locale.group,
        ...(tab.min !== undefined ? { min: tab.min } : {}),
        ...(tab.max !== undefined ? { max: tab.max } : {}),
        ...(tab.validationType === 'currency' ? { currency: true } : {}),
        ...(tab.locale.money ? { money: { symbol: tab.locale.money.symbol, code: tab.locale.money.code, long: tab.locale.money.long, positive: tab.locale.money.positive, negative: tab.locale.money.negative } } : {}),
        ...(tab.validation ? { pattern: tab.validation.pattern.source } : {}),
        messages: {
          ...required, tooLong: t('check.maxLength', { max: String(tab.maxLength) }),
          // The example is written as the tab reads numbers (its localePolicy), whatever the page's language.
          number: t('check.number', { example: numberExample(tab.locale) }),
          ...(tab.min !== undefined ? { min: t('check.min', { min: String(tab.min) }) } : {}),
          ...(tab.max !== undefined ? { max: t('check.max', { max: String(tab.max) }) } : {}),
          ...(tab.validationType === 'currency' ? { currency: t('check.currency') } : {}),
          ...(tab.validation ? { pattern: tab.validation.message ?? t('check.pattern') } : {}),
        },
      };
    case 'list':
      return { ...base, choices: tab.items.map((i) => i.value), messages: { ...required, choice: t('check.listValue') } };
    case 'radioGroup':
      return { ...base, choices: tab.radios.map((r) => r.value), messages: { ...required, choice: t('check.radioValue', { choices: tab.radios.map((r) => r.value).join(', ') }) } };
    case 'checkbox':
      return { ...base, messages: { ...required, choice: t('check.checkboxValue') } };
    case 'formula':
      return { ...base, formula: tab.formula, ...(tab.roundDecimalPlaces !== undefined ? { round: tab.roundDecimalPlaces } : {}), ...(tab.tabLabel !== undefined && order.has(tab.tabLabel) ? { order: order.get(tab.tabLabel)! } : {}) };
    default:
      return base;
  }
}
