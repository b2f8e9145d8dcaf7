import type { PagePlace, TabOnPage } from '../domain/tabs/tab-on-page.ts';
import type { Tab, TabFont } from '../domain/tabs/tab.ts';
import { tabSize } from '../domain/tabs/tab-size.ts';
import { autoFilledValue, type SignerIdentity } from '../domain/tabs/values/auto-filled-value.ts';
import type { SignDateFormat } from '../domain/account/sign-date-format.ts';
import { parseDateValue } from '../domain/tabs/values/parse-date-value.ts';
import { html, type SafeHtml } from '../web/html.ts';
import type { MessageKey } from '../i18n/catalogs/en.ts';
import type { Translator } from '../i18n/translator.ts';
import { jsonData } from './json-data.ts';
import { tabRules } from './tab-rule.ts';

/** The kinds a signer attachment takes (told apart by content on the server: parse-finish-form.ts). */
const ATTACHMENT_ACCEPT = 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg';

/** What the controls show beyond the tabs: who signs (auto-filled tabs preview their values) and when. */
/**
 * dateFormat: the account's signDateFormat, so the date signed shows as it will be written.
 * t: the recipient's language (signing-pages.ts).
 */
export type TabControlContext = { readonly signer: SignerIdentity; readonly now: Date; readonly dateFormat?: SignDateFormat | undefined; readonly t: Translator['t'] };

// What a tab is called when the sender gave it no tooltip or label (catalog keys, i18n/catalogs).
const TYPE_NAMES: Readonly<Record<Tab['type'], MessageKey>> = {
  signHere: 'tab.signHere', initialHere: 'tab.initialHere', dateSigned: 'tab.dateSigned', fullName: 'tab.fullName', firstName: 'tab.firstName',
  lastName: 'tab.lastName', emailAddress: 'tab.emailAddress', company: 'tab.company', title: 'tab.title', text: 'tab.text', number: 'tab.number',
  numerical: 'tab.number', date: 'tab.date', email: 'tab.email', zip: 'tab.zip', ssn: 'tab.ssn', checkbox: 'tab.checkbox',
  radioGroup: 'tab.choice', list: 'tab.list', note: 'tab.note', formula: 'tab.formula', approve: 'tab.approve', decline: 'page.decline',
  signerAttachment: 'tab.attachment', view: 'tab.view',
};

/** The accessible name: DocuSign shows the tooltip on the field, so it names it; else the label (the sender's words, as written). */
function nameOf(tab: Tab, t: Translator['t']): string {
  const label = tab.type === 'radioGroup' ? tab.groupName : tab.tabLabel;
  return tab.tooltip ?? label ?? tab.name ?? t(TYPE_NAMES[tab.type]);
}

type Placed = { readonly t: TabOnPage; readonly index: number; readonly place: PagePlace; readonly radio?: number };

/** Keyboard order: tabOrder first (tabs without one after), then top to bottom, left to right. */
function byFocusOrder(a: Placed, b: Placed): number {
  const order = (p: Placed) => (p.radio !== undefined && p.t.tab.type === 'radioGroup' ? p.t.tab.radios[p.radio]?.tabOrder : undefined) ?? p.t.tab.tabOrder ?? Number.MAX_SAFE_INTEGER;
  return order(a) - order(b) || a.place.yPosition - b.place.yPosition || a.place.xPosition - b.place.xPosition;
}

function box(place: PagePlace, size: { width: number; height: number }) {
  return { x: place.xPosition, y: place.yPosition, w: size.width, h: size.height };
}

function fontClasses(font: TabFont): string {
  return [`font-${font.family}`, font.bold ? 'bold' : '', font.italic ? 'italic' : '', font.underline ? 'underline' : '', `color-${font.fontColor}`].filter(Boolean).join(' ');
}

/** The input type and keyboard a typed-in tab gets (a phone shows digits for numbers and codes). */
function inputKind(tab: Tab): { type: string; inputmode?: string; autocomplete?: string; placeholder?: string } {
  switch (tab.type) {
    case 'date': return { type: 'date' };
    case 'email': return { type: 'email', autocomplete: 'email' };
    case 'zip': return { type: 'text', inputmode: 'numeric', autocomplete: 'postal-code', placeholder: tab.useDash4 ? '12345-6789' : '12345' };
    case 'ssn': return { type: 'text', inputmode: 'numeric', autocomplete: 'off', placeholder: '123-45-6789' };
    case 'number': case 'numerical': return { type: 'text', inputmode: 'decimal' };
    case 'company': return { type: 'text', autocomplete: 'organization' };
    case 'title': return { type: 'text', autocomplete: 'organization-title' };
    default: return { type: 'text' };
  }
}

/** A date input holds ISO dates: a prefilled en-US date is shown in that form (the server reads both). */
function inputValue(tab: Tab, value: string): string {
  if (tab.type !== 'date') return value;
  const d = parseDateValue(value);
  return d ? `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : value;
}

function control(p: Placed, ctx: TabControlContext): SafeHtml {
  const { t } = p;
  const tab = t.tab;
  const id = `tab-${t.tabId}`;
  const msg = `msg-${t.tabId}`;
  const { t: tr } = ctx;
  const name = nameOf(tab, tr);
  const size = tabSize(tab);
  const b = box(p.place, size);
  const wrap = (cls: string, inner: SafeHtml | string, extra: SafeHtml | string = '') =>
    html`<div class="tab ${cls}" data-tab="${t.tabId}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}"${extra}>${inner}</div>`;
  const fontSize = 'font' in tab ? html` data-font-size="${tab.font.fontSize}"` : '';
  const message = html`<span class="tab-message" id="${msg}" role="alert"></span>`;
  // The accessible name, "(optional)" added when the tab may stay empty.
  const named = tab.required ? name : tr('tab.optional', { name });
  switch (tab.type) {
    case 'signHere': case 'initialHere': {
      const label = tr(TYPE_NAMES[tab.type]);
      return html`<button type="button" class="tab sign${tab.type === 'initialHere' ? ' initials' : ''}" data-tab-id="${t.tabId}" data-required="${tab.required ? 'true' : 'false'}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}">${tab.required ? label : tr('tab.optional', { name: label })}</button>`;
    }
    case 'signerAttachment':
      // The file is read by the page's script (size and kind checked) and sent with the Finish (parse-finish-form.ts).
      return wrap('field attachment', html`<input type="file" id="${id}" class="attachment" data-attachment="${t.tabId}" data-required="${tab.required ? 'true' : 'false'}" accept="${ATTACHMENT_ACCEPT}" aria-label="${named}"${tab.required ? html` aria-required="true"` : ''} aria-describedby="${msg}">${message}`);
    case 'dateSigned': case 'fullName': case 'firstName': case 'lastName': case 'emailAddress': {
      const preview = autoFilledValue(tab, ctx.signer, ctx.now, ctx.dateFormat) ?? '';
      return wrap(`auto ${fontClasses(tab.font)}`, html`<span id="${id}" role="img" aria-label="${tr('tab.autoFilled', { name: tr(TYPE_NAMES[tab.type]), value: preview })}">${preview}</span>`, fontSize);
    }
    case 'note':
      return wrap(`note ${fontClasses(tab.font)}`, html`<span id="${id}" role="note" aria-label="${name}">${t.value}</span>`, fontSize);
    case 'formula':
      if (tab.hidden) return html``;
      return wrap(`field formula ${fontClasses(tab.font)}`, html`<output id="${id}" aria-label="${name}" aria-live="polite">${t.value}</output>`, fontSize);
    case 'checkbox':
      return wrap('mark', html`<input type="checkbox" id="${id}" aria-label="${named}"${t.value === 'true' ? ' checked' : ''}${tab.locked ? ' disabled' : ''}${tab.required ? html` aria-required="true"` : ''} aria-describedby="${msg}">${message}`);
    case 'list':
      return wrap(`field ${fontClasses(tab.font)}`, html`<select id="${id}" aria-label="${named}"${tab.locked ? ' disabled' : ''}${tab.required ? ' required' : ''} aria-describedby="${msg}"><option value="">${tr('tab.choose')}</option>${tab.items.map((i) => html`<option value="${i.value}"${i.value === t.value ? ' selected' : ''}>${i.text}</option>`)}</select>${message}`, fontSize);
    case 'approve':
      return html`<button type="submit" form="finish-form" class="tab action approve" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}" disabled>${tab.buttonText ?? tr('tab.approve')}</button>`;
    case 'decline':
      return html`<button type="button" class="tab action secondary decline-tab" data-reason="${tab.declineReason ?? ''}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}">${tab.buttonText ?? tr('page.decline')}</button>`;
    case 'view':
      return html`<button type="button" class="tab action secondary view-tab" data-tab="${t.tabId}" aria-pressed="false" data-required-read="${tab.requiredRead ? 'true' : 'false'}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}">${tab.requiredRead ? tr('tab.requiredRead', { name: tab.buttonText ?? tr('tab.view') }) : tab.buttonText ?? tr('tab.view')}</button>`;
    case 'radioGroup':
      return html``; // radioGroups are rendered as fieldsets below
    default: {
      const k = inputKind(tab);
      return wrap(`field ${fontClasses(tab.font)}`, html`<input id="${id}" type="${k.type}"${k.inputmode ? html` inputmode="${k.inputmode}"` : ''}${k.placeholder ? html` placeholder="${k.placeholder}"` : ''} autocomplete="${k.autocomplete ?? 'off'}" aria-label="${named}" value="${inputValue(tab, t.value)}" maxlength="${tab.maxLength}"${tab.required ? ' required' : ''}${tab.locked ? ' readonly' : ''} aria-describedby="${msg}">${message}`, fontSize);
    }
  }
}

/** A radio group's radios on one page: a fieldset named by the group, each radio at its place. */
function radioFieldset(t: TabOnPage, radios: readonly Placed[], tr: Translator['t']): SafeHtml {
  const tab = t.tab;
  if (tab.type !== 'radioGroup') return html``;
  const size = tabSize(tab);
  const first = radios[0]!.place;
  // A locked radio the sender chose stays chosen: picking another would clear it (Finish refuses that too).
  const lockedChoice = tab.radios.some((r) => r.locked && r.value === t.value);
  return html`<fieldset class="radio-group" data-tab="${t.tabId}" aria-describedby="msg-${t.tabId}"${tab.required ? html` aria-required="true"` : ''}><legend class="visually-hidden">${tab.required ? nameOf(tab, tr) : tr('tab.optional', { name: nameOf(tab, tr) })}</legend>${radios.map((p) => {
    const radio = tab.radios[p.radio!]!;
    const b = box(p.place, size);
    return html`<label class="tab mark" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}"><input type="radio" name="radio-${t.tabId}" value="${radio.value}" aria-label="${radio.value}"${radio.value === t.value ? ' checked' : ''}${tab.locked || radio.locked || lockedChoice ? ' disabled' : ''}></label>`;
  })}<span class="tab-message" id="msg-${t.tabId}" role="alert" data-x="${first.xPosition}" data-y="${first.yPosition + size.height}" data-w="${Math.max(size.width, 120)}"></span></fieldset>`;
}

/**
 * The signer's tabs on one page, as real form controls at their places, in keyboard order
 * (docs/esign-signing.md): typed-in tabs as inputs (date, e-mail and numeric keyboards where
 * they apply), checkboxes, each radio group as a fieldset of radios, lists as selects, notes,
 * formulas and auto-filled tabs read-only with their values, SignHere/InitialHere as buttons,
 * Approve/Decline/View as buttons. Each control's message element is its aria-describedby.
 */
export function tabControlsOn(tabs: readonly TabOnPage[], documentId: string, pageNumber: number, ctx: TabControlContext): SafeHtml {
  const placed: Placed[] = [];
  tabs.forEach((t, index) => {
    t.places.forEach((place, i) => {
      if (place.documentId !== documentId || place.pageNumber !== pageNumber) return;
      placed.push({ t, index, place, ...(t.tab.type === 'radioGroup' ? { radio: i } : {}) });
    });
  });
  placed.sort(byFocusOrder);
  const done = new Set<string>();
  return html`${placed.map((p) => {
    if (p.t.tab.type !== 'radioGroup') return control(p, ctx);
    if (done.has(p.t.tabId)) return html``;
    done.add(p.t.tabId);
    return radioFieldset(p.t, placed.filter((q) => q.t.tabId === p.t.tabId), ctx.t);
  })}`;
}

/**
 * The data the page's script judges and computes the tabs with (tab-rule.ts, its messages in
 * the recipient's language), as a JSON block (json-data.ts).
 */
export function tabRulesData(tabs: readonly TabOnPage[], tr: Translator): SafeHtml {
  const rules = tabRules(tabs.map((t) => t.tab), tr);
  const data = tabs.map((t, i) => ({ id: t.tabId, rule: rules[i], value: t.value }));
  return jsonData('tab-rules', data);
}
