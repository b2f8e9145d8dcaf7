import type { TabValueStamp, TextStyle } from '@signet/pdf';
import type { FontColor, Tab } from '../domain/tabs/tab.ts';
import type { TabOnPage } from '../domain/tabs/tab-on-page.ts';
import { tabSize } from '../domain/tabs/tab-size.ts';
import { dateInAccountFormat } from '../domain/tabs/values/account-date.ts';
import type { SignDateFormat } from '../domain/account/sign-date-format.ts';
import { shownTabs } from '../domain/tabs/values/find-tab-problems.ts';

// DocuSign's ten font colours, as RGB in 0..1.
const COLORS: Readonly<Record<FontColor, readonly [number, number, number]>> = {
  Black: [0, 0, 0], BrightBlue: [0, 0.44, 0.94], BrightRed: [0.93, 0, 0], DarkGreen: [0, 0.39, 0], DarkRed: [0.55, 0, 0],
  Gold: [0.72, 0.53, 0.04], Green: [0, 0.5, 0], NavyBlue: [0, 0, 0.5], Purple: [0.5, 0, 0.5], White: [1, 1, 1],
};

/**
 * The text a tab's final value is written as on the document, or undefined when it is not
 * written as text: a list shows its chosen item's text, a date the account's date format; a
 * hidden formula, a button, a signature (stamped apart) and a blank value write nothing.
 * A date signed was written in the account's format when the recipient signed.
 */
export function tabValueText(tab: Tab, value: string, dateFormat?: SignDateFormat): string | undefined {
  if (value === '') return undefined;
  switch (tab.type) {
    case 'list':
      return tab.items.find((i) => i.value === value)?.text ?? value;
    case 'date':
      return dateInAccountFormat(value, dateFormat);
    case 'formula':
      return tab.hidden ? undefined : value;
    case 'text': case 'company': case 'title': case 'email': case 'zip': case 'ssn': case 'number': case 'numerical': case 'note':
    case 'dateSigned': case 'fullName': case 'firstName': case 'lastName': case 'emailAddress':
      return value;
    default:
      return undefined;
  }
}

/**
 * One signer's tab values as the completed document shows them, for one document: text in the
 * tab's font, size, weight and colour in its box; each checkbox as a box, checked or not; each
 * radio of a group as a circle, the chosen one filled. Tabs their conditions hide are not drawn.
 * `values` are the final values (the signer's, the service's auto-filled ones, the formulas').
 */
export function tabValueStamps(tabs: readonly TabOnPage[], values: readonly string[], documentId: string, dateFormat?: SignDateFormat): TabValueStamp[] {
  const shown = shownTabs(tabs.map((t) => t.tab), values);
  const stamps: TabValueStamp[] = [];
  tabs.forEach((t, i) => {
    if (!shown[i]) return;
    const { tab } = t;
    const value = values[i] ?? '';
    const size = tabSize(tab);
    t.places.forEach((place, p) => {
      if (place.documentId !== documentId) return;
      const at = { pageNumber: place.pageNumber, x: place.xPosition, y: place.yPosition, width: size.width, height: size.height };
      if (tab.type === 'checkbox') {
        stamps.push({ ...at, value: { kind: 'checkbox', checked: value === 'true' } });
      } else if (tab.type === 'radioGroup') {
        const radio = tab.radios[p];
        if (radio) stamps.push({ ...at, value: { kind: 'radio', selected: radio.value === value } });
      } else {
        const text = tabValueText(tab, value, dateFormat);
        if (text === undefined || !('font' in tab)) return;
        const style: TextStyle = { family: tab.font.family, size: tab.font.fontSize, bold: tab.font.bold, italic: tab.font.italic, underline: tab.font.underline, color: COLORS[tab.font.fontColor] };
        stamps.push({ ...at, value: { kind: 'text', text, style } });
      }
    });
  });
  return stamps;
}

/**
 * The lines the certificate of completion lists for one signer: each shown tab with a value the
 * signer gave or the service wrote, by its label (or type), with the value as the document shows it.
 */
export function tabValueLines(tabs: readonly TabOnPage[], values: readonly string[], dateFormat?: SignDateFormat): { label: string; value: string }[] {
  const shown = shownTabs(tabs.map((t) => t.tab), values);
  const lines: { label: string; value: string }[] = [];
  tabs.forEach((t, i) => {
    const { tab } = t;
    const value = values[i] ?? '';
    if (!shown[i] || value === '') return;
    const label = (tab.type === 'radioGroup' ? tab.groupName : tab.tabLabel) ?? tab.type;
    if (tab.type === 'checkbox') lines.push({ label, value: value === 'true' ? 'checked' : 'not checked' });
    else if (tab.type === 'radioGroup') lines.push({ label, value });
    else {
      const text = tabValueText(tab, value, dateFormat);
      if (text !== undefined && tab.type !== 'note') lines.push({ label, value: text });
    }
  });
  return lines;
}
