import type { PagePlace, TabOnPage } from '../domain/tabs/tab-on-page.ts';
import type { Tab, TabFont } from '../domain/tabs/tab.ts';
import { tabSize } from '../domain/tabs/tab-size.ts';
import { autoFilledValue, type SignerIdentity } from '../domain/tabs/values/auto-filled-value.ts';
import type { SignDateFormat } from '../domain/account/sign-date-format.ts';
import { parseDateValue } from '../domain/tabs/values/parse-date-value.ts';
import { html, SafeHtml } from '../web/html.ts';
import { tabRules } from './tab-rule.ts';

/** The kinds a signer attachment takes (told apart by content on the server: parse-finish-form.ts). */
const ATTACHMENT_ACCEPT = 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg';

/** What the controls show beyond the tabs: who signs (auto-filled tabs preview their values) and when. */
/** dateFormat: the account's signDateFormat, so the date signed shows as it will be written. */
export type TabControlContext = { readonly signer: SignerIdentity; readonly now: Date; readonly dateFormat?: SignDateFormat | undefined };

// What a tab is called when the sender gave it no tooltip or label.
const TYPE_NAMES: Readonly<Record<Tab['type'], string>> = {
  signHere: 'Sign here', initialHere: 'Initial here', dateSigned: 'Date signed', fullName: 'Full name', firstName: 'First name',
  lastName: 'Last name', emailAddress: 'Email address', company: 'Company', title: 'Title', text: 'Text', number: 'Number',
  numerical: 'Number', date: 'Date', email: 'Email', zip: 'ZIP code', ssn: 'Social security number', checkbox: 'Checkbox',
  radioGroup: 'Choice', list: 'List', note: 'Note', formula: 'Calculated value', approve: 'Approve', decline: 'Decline',
  signerAttachment: 'Attachment', view: 'View',
};

/** The accessible name: DocuSign shows the tooltip on the field, so it names it; else the label. */
function nameOf(tab: Tab): string {
  const label = tab.type === 'radioGroup' ? tab.groupName : tab.tabLabel;
  return tab.tooltip ?? label ?? tab.name ?? TYPE_NAMES[tab.type];
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
  const name = nameOf(tab);
  const size = tabSize(tab);
  const b = box(p.place, size);
  const wrap = (cls: string, inner: SafeHtml | string, extra: SafeHtml | string = '') =>
    html`<div class="tab ${cls}" data-tab="${t.tabId}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}"${extra}>${inner}</div>`;
  const fontSize = 'font' in tab ? html` data-font-size="${tab.font.fontSize}"` : '';
  const message = html`<span class="tab-message" id="${msg}" role="alert"></span>`;
  const optional = tab.required ? '' : ' (optional)';
  switch (tab.type) {
    case 'signHere': case 'initialHere': {
      const label = tab.type === 'signHere' ? 'Sign here' : 'Initial here';
      return html`<button type="button" class="tab sign${tab.type === 'initialHere' ? ' initials' : ''}" data-tab-id="${t.tabId}" data-required="${tab.required ? 'true' : 'false'}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}">${label}${tab.required ? '' : ' (optional)'}</button>`;
    }
    case 'signerAttachment':
      // The file is read by the page's script (size and kind checked) and sent with the Finish (parse-finish-form.ts).
      return wrap('field attachment', html`<input type="file" id="${id}" class="attachment" data-attachment="${t.tabId}" data-required="${tab.required ? 'true' : 'false'}" accept="${ATTACHMENT_ACCEPT}" aria-label="${name}${optional}"${tab.required ? html` aria-required="true"` : ''} aria-describedby="${msg}">${message}`);
    case 'dateSigned': case 'fullName': case 'firstName': case 'lastName': case 'emailAddress': {
      const preview = autoFilledValue(tab, ctx.signer, ctx.now, ctx.dateFormat) ?? '';
      return wrap(`auto ${fontClasses(tab.font)}`, html`<span id="${id}" role="img" aria-label="${TYPE_NAMES[tab.type]}: ${preview}">${preview}</span>`, fontSize);
    }
    case 'note':
      return wrap(`note ${fontClasses(tab.font)}`, html`<span id="${id}" role="note" aria-label="${name}">${t.value}</span>`, fontSize);
    case 'formula':
      if (tab.hidden) return html``;
      return wrap(`field formula ${fontClasses(tab.font)}`, html`<output id="${id}" aria-label="${name}" aria-live="polite">${t.value}</output>`, fontSize);
    case 'checkbox':
      return wrap('mark', html`<input type="checkbox" id="${id}" aria-label="${name}${optional}"${t.value === 'true' ? ' checked' : ''}${tab.locked ? ' disabled' : ''}${tab.required ? html` aria-required="true"` : ''} aria-describedby="${msg}">${message}`);
    case 'list':
      return wrap(`field ${fontClasses(tab.font)}`, html`<select id="${id}" aria-label="${name}${optional}"${tab.locked ? ' disabled' : ''}${tab.required ? ' required' : ''} aria-describedby="${msg}"><option value="">Choose…</option>${tab.items.map((i) => html`<option value="${i.value}"${i.value === t.value ? ' selected' : ''}>${i.text}</option>`)}</select>${message}`, fontSize);
    case 'approve':
      return html`<button type="submit" form="finish-form" class="tab action approve" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}" disabled>${tab.buttonText ?? 'Approve'}</button>`;
    case 'decline':
      return html`<button type="button" class="tab action secondary decline-tab" data-reason="${tab.declineReason ?? ''}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}">${tab.buttonText ?? 'Decline'}</button>`;
    case 'view':
      return html`<button type="button" class="tab action secondary view-tab" data-tab="${t.tabId}" aria-pressed="false" data-required-read="${tab.requiredRead ? 'true' : 'false'}" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}">${tab.buttonText ?? 'View'}${tab.requiredRead ? ' (required)' : ''}</button>`;
    case 'radioGroup':
      return html``; // radioGroups are rendered as fieldsets below
    default: {
      const k = inputKind(tab);
      return wrap(`field ${fontClasses(tab.font)}`, html`<input id="${id}" type="${k.type}"${k.inputmode ? html` inputmode="${k.inputmode}"` : ''}${k.placeholder ? html` placeholder="${k.placeholder}"` : ''} autocomplete="${k.autocomplete ?? 'off'}" aria-label="${name}${optional}" value="${inputValue(tab, t.value)}" maxlength="${tab.maxLength}"${tab.required ? ' required' : ''}${tab.locked ? ' readonly' : ''} aria-describedby="${msg}">${message}`, fontSize);
    }
  }
}

/** A radio group's radios on one page: a fieldset named by the group, each radio at its place. */
function radioFieldset(t: TabOnPage, radios: readonly Placed[]): SafeHtml {
  const tab = t.tab;
  if (tab.type !== 'radioGroup') return html``;
  const size = tabSize(tab);
  const first = radios[0]!.place;
  return html`<fieldset class="radio-group" data-tab="${t.tabId}" aria-describedby="msg-${t.tabId}"${tab.required ? html` aria-required="true"` : ''}><legend class="visually-hidden">${nameOf(tab)}${tab.required ? '' : ' (optional)'}</legend>${radios.map((p) => {
    const radio = tab.radios[p.radio!]!;
    const b = box(p.place, size);
    return html`<label class="tab mark" data-x="${b.x}" data-y="${b.y}" data-w="${b.w}" data-h="${b.h}"><input type="radio" name="radio-${t.tabId}" value="${radio.value}" aria-label="${radio.value}"${radio.value === t.value ? ' checked' : ''}${tab.locked || radio.locked ? ' disabled' : ''}></label>`;
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
    return radioFieldset(p.t, placed.filter((q) => q.t.tabId === p.t.tabId));
  })}`;
}

/**
 * The data the page's script judges and computes the tabs with (tab-rule.ts), as a JSON block:
 * `type="application/json"` is data, never run, so the strict CSP stays as it is. `<` is
 * escaped so no value can close the element.
 */
export function tabRulesData(tabs: readonly TabOnPage[]): SafeHtml {
  const rules = tabRules(tabs.map((t) => t.tab));
  const data = tabs.map((t, i) => ({ id: t.tabId, rule: rules[i], value: t.value }));
  return html`<script type="application/json" id="tab-rules">${rawJson(data)}</script>`;
}

function rawJson(value: unknown): SafeHtml {
  return new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
}
