import type { PlacedTab, TabSpot } from '../domain/envelope/placed-tab.ts';
import { kindOf } from '../domain/tabs/tab-registry.ts';
import type { NumberLocale, TabFont, TabPlace } from '../domain/tabs/tab.ts';
import { numericalValueOf } from '../domain/tabs/values/number-value.ts';

/** Drops undefined fields so JSON carries neither null nor undefined. */
function compact(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

/** Numbers as DocuSign writes them: plain decimal, no exponent, no trailing ".0". */
function num(n: number | undefined): string | undefined {
  return n === undefined ? undefined : String(Math.round(n * 100) / 100);
}

const bool = (b: boolean | undefined) => (b === undefined ? undefined : String(b));

/** A number tab's LocalePolicyTab: its culture unless en-US, and a Currency tab's money fields as given. */
function localePolicy(locale: NumberLocale): Record<string, unknown> | undefined {
  const money = locale.money;
  if (!money) return locale.cultureName === 'en-US' ? undefined : { cultureName: locale.cultureName };
  return compact({
    cultureName: locale.cultureName, currencyCode: money.currencyCode, currencyPositiveFormat: money.positiveFormat,
    currencyNegativeFormat: money.negativeFormat, useLongCurrencyFormat: money.long ? 'true' : undefined,
  });
}

/** The resolved spot, always given (anchors are resolved once, at creation). */
function spot(s: TabSpot): Record<string, unknown> {
  return { documentId: s.documentId, pageNumber: String(s.pageNumber), xPosition: num(s.xPosition), yPosition: num(s.yPosition) };
}

/** The anchor options the tab was placed by, as the request gave them. */
function anchorFields(place: TabPlace): Record<string, unknown> {
  if (place.kind !== 'anchor') return {};
  const a = place.anchor;
  return {
    anchorString: a.anchorString,
    anchorUnits: a.units,
    anchorXOffset: num(a.xOffset),
    anchorYOffset: num(a.yOffset),
    anchorIgnoreIfNotPresent: String(a.ignoreIfNotPresent),
    anchorCaseSensitive: String(a.caseSensitive),
    anchorMatchWholeWord: String(a.matchWholeWord),
    anchorHorizontalAlignment: a.horizontalAlignment,
    anchorAllowWhiteSpaceInCharacters: a.allowWhiteSpaceInCharacters ? 'true' : undefined,
  };
}

function fontFields(font: TabFont): Record<string, unknown> {
  return { font: font.font, fontSize: `Size${font.fontSize}`, bold: String(font.bold), italic: String(font.italic), underline: String(font.underline), fontColor: font.fontColor };
}

/**
 * One placed tab in its SDK model's shape (node_modules/docusign-esign/src/model/<Model>.js):
 * tabId and tabType, the recipient, the resolved spot and the anchor it came from, the fields the
 * sender set, and the current value (`value`; a checkbox's `selected`; a radio group's chosen
 * radio). What this writes is accepted back by parseTabs (updateTabs merges over it).
 */
export function toWireTab(t: PlacedTab, recipient: { readonly recipientId: string; readonly recipientIdGuid?: string }): Record<string, unknown> {
  const tab = t.tab;
  const common = {
    tabId: t.tabId,
    tabType: tab.type.toLowerCase(),
    recipientId: recipient.recipientId,
    recipientIdGuid: recipient.recipientIdGuid,
    name: tab.name,
    tooltip: tab.tooltip,
    tabOrder: tab.tabOrder === undefined ? undefined : String(tab.tabOrder),
    width: num(tab.width),
    height: num(tab.height),
    conditionalParentLabel: tab.conditional?.parentLabel,
    conditionalParentValue: tab.conditional?.parentValue,
  };
  if (tab.type === 'radioGroup') {
    // The RadioGroup model has no tabId: the group is known by groupName, each radio by its own tabId.
    return compact({
      ...common,
      tabId: undefined,
      documentId: t.documentId,
      groupName: tab.groupName,
      value: t.value === '' ? undefined : t.value,
      radios: tab.radios.map((r, i) => {
        const at = t.radios?.[i] ?? t;
        return compact({
          tabId: t.radios?.[i]?.tabId,
          value: r.value,
          selected: String(r.value === t.value),
          ...spot(at),
          documentId: undefined,
          ...anchorFields(r.place),
          locked: String(r.locked),
          required: String(tab.required),
          tabOrder: r.tabOrder === undefined ? undefined : String(r.tabOrder),
          ...fontFields(r.font),
        });
      }),
    });
  }
  const base = { ...common, tabLabel: tab.tabLabel, ...spot(t), ...anchorFields(tab.place) };
  switch (tab.type) {
    case 'signHere': case 'initialHere': case 'signerAttachment':
      return compact({ ...base, optional: String(!tab.required), scaleValue: num(tab.scaleValue) });
    case 'dateSigned': case 'fullName': case 'firstName': case 'lastName': case 'emailAddress':
      return compact({ ...base, ...fontFields(tab.font), value: t.value === '' ? undefined : t.value });
    case 'text': case 'company': case 'title': case 'date': case 'email': case 'zip': case 'ssn':
      return compact({
        ...base, ...fontFields(tab.font), value: t.value, required: String(tab.required), locked: String(tab.locked), maxLength: String(tab.maxLength),
        validationPattern: tab.validation?.pattern.source, validationMessage: tab.validation?.message, useDash4: bool(tab.useDash4),
      });
    case 'number': case 'numerical':
      return compact({
        ...base, ...fontFields(tab.font), value: t.value, required: String(tab.required), locked: String(tab.locked), maxLength: String(tab.maxLength),
        localePolicy: localePolicy(tab.locale), numericalValue: tab.type === 'numerical' ? numericalValueOf(tab, t.value) : undefined,
        minNumericalValue: tab.min === undefined ? undefined : String(tab.min), maxNumericalValue: tab.max === undefined ? undefined : String(tab.max),
        validationType: tab.validationType, validationPattern: tab.validation?.pattern.source, validationMessage: tab.validation?.message,
      });
    case 'checkbox':
      return compact({ ...base, ...fontFields(tab.font), selected: String(t.value === 'true'), required: String(tab.required), locked: String(tab.locked) });
    case 'list':
      return compact({
        ...base, ...fontFields(tab.font), value: t.value, required: String(tab.required), locked: String(tab.locked),
        listItems: tab.items.map((i) => ({ text: i.text, value: i.value, selected: String(i.value === t.value) })),
      });
    case 'note':
      return compact({ ...base, ...fontFields(tab.font), value: t.value });
    case 'formula':
      return compact({ ...base, ...fontFields(tab.font), formula: tab.formulaText, value: t.value, locked: 'true', roundDecimalPlaces: tab.roundDecimalPlaces === undefined ? undefined : String(tab.roundDecimalPlaces), hidden: String(tab.hidden) });
    case 'approve': case 'decline':
      return compact({ ...base, ...fontFields(tab.font), buttonText: tab.buttonText, declineReason: tab.type === 'decline' ? tab.declineReason : undefined });
    case 'view':
      return compact({ ...base, ...fontFields(tab.font), buttonText: tab.buttonText, required: String(tab.required), requiredRead: String(tab.requiredRead) });
  }
}

/**
 * A recipient's tabs as DocuSign's Tabs object: one list per type that has tabs, in the order
 * they were placed. `signHereTabs` is always present (what readers of this service have always
 * found, even for a recipient without tabs).
 */
export function toWireTabs(tabs: readonly PlacedTab[], recipient: { readonly recipientId: string; readonly recipientIdGuid?: string }): Record<string, Record<string, unknown>[]> {
  const lists: Record<string, Record<string, unknown>[]> = { signHereTabs: [] };
  for (const t of tabs) (lists[kindOf(t.tab.type).wireKey] ??= []).push(toWireTab(t, recipient));
  return lists;
}
