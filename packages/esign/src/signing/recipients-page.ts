import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import type { ManagedRecipient } from '../domain/signing/manage-recipients.ts';
import type { MessageKey } from '../i18n/catalogs/en.ts';
import type { Translator } from '../i18n/translator.ts';
import { CSRF_FIELD } from '../web/csrf.ts';
import { html } from '../web/html.ts';
import { brandMark } from './brand-look.ts';
import { pageFrame, type DocumentPages } from './signing-pages.ts';

// Catalog keys (i18n/catalogs): each recipient type's name, and what each managing role may do.
const TYPE_NAMES: Record<Recipient['type'], MessageKey> = {
  signer: 'manage.type.signer', carbonCopy: 'manage.type.carbonCopy', inPersonSigner: 'manage.type.inPersonSigner', certifiedDelivery: 'manage.type.certifiedDelivery',
  agent: 'manage.type.agent', editor: 'manage.type.editor', intermediary: 'manage.type.intermediary', witness: 'manage.type.witness',
};

const ROLE_NOTES: Partial<Record<Recipient['type'], MessageKey>> = {
  agent: 'manage.note.agent',
  intermediary: 'manage.note.intermediary',
  editor: 'manage.note.editor',
};

/** The form field of one recipient's value (signing/parse-recipient-edits.ts reads them back). */
export function recipientFieldName(recipientId: string, field: 'name' | 'email' | 'routingOrder' | 'accessCode'): string {
  return `recipient.${recipientId}.${field}`;
}

/**
 * The page of an agent, editor or intermediary (domain/signing/manage-recipients.ts): one
 * fieldset per recipient they speak for, an input for each field they may change and the value
 * as text for the others, then Finish; the documents below as page images. Plain HTML: it works
 * without scripts and from the keyboard (labels tie every input; Finish is a submit button).
 * `posted`: what a refused Finish sent, shown again with `error`.
 */
export function recipientsPage(tr: Translator, v: { base: string; csrf: string; envelope: Envelope; manager: Recipient; managed: readonly ManagedRecipient[]; documents: readonly DocumentPages[]; error?: string; posted?: ReadonlyMap<string, string> }): string {
  const { t } = tr;
  const value = (r: Recipient, field: 'name' | 'email' | 'routingOrder') => v.posted?.get(recipientFieldName(r.recipientId, field)) ?? (field === 'routingOrder' ? String(r.routingOrder) : r[field]);
  const fieldsets = v.managed.map(({ recipient: r, editable }) => {
    const id = (field: string) => `r-${r.recipientId}-${field}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const input = (field: 'name' | 'email' | 'routingOrder', label: string, attrs: { type: string; autocomplete?: string }) => editable.has(field)
      ? html`<label for="${id(field)}">${label}</label>
<input id="${id(field)}" name="${recipientFieldName(r.recipientId, field)}" type="${attrs.type}" value="${value(r, field)}"${field === 'routingOrder' ? html` min="${v.manager.routingOrder + 1}" max="999"` : html` maxlength="${field === 'name' ? 100 : 254}"`} required${attrs.autocomplete ? html` autocomplete="${attrs.autocomplete}"` : ''}>`
      : html`<p class="fixed">${t('manage.fixed', { label, value: field === 'routingOrder' ? String(r.routingOrder) : r[field] === '' ? t('manage.notGiven') : r[field] })}</p>`;
    return html`<fieldset>
<legend>${t('manage.legend', { id: r.recipientId, type: t(TYPE_NAMES[r.type]), order: r.routingOrder })}</legend>
${input('name', t('manage.name'), { type: 'text', autocomplete: 'off' })}
${input('email', t('manage.email'), { type: 'email', autocomplete: 'off' })}
${v.manager.type === 'editor' ? input('routingOrder', t('manage.routingOrder'), { type: 'number' }) : ''}
${editable.has('accessCode') ? html`<label for="${id('accessCode')}">${t('manage.accessCode')}</label>
<input id="${id('accessCode')}" name="${recipientFieldName(r.recipientId, 'accessCode')}" type="text" value="" maxlength="50" autocomplete="off">` : ''}
</fieldset>`;
  });
  const documents = v.documents.map((d) => html`<section class="document" aria-label="${d.name}">
<h2>${d.name}</h2>
${d.sizes.map((size, i) => html`<div class="page"><img class="render" src="${v.base}/documents/${encodeURIComponent(d.documentId)}/pages/${i + 1}" alt="${t('page.pageOf', { document: d.name, page: i + 1, pages: d.sizes.length })}" width="${Math.round(size.width)}" height="${Math.round(size.height)}" loading="${i < 2 ? 'eager' : 'lazy'}"></div>`)}
</section>`);
  const note = ROLE_NOTES[v.manager.type];
  return pageFrame(tr, t('manage.title', { subject: v.envelope.emailSubject }), html`<main class="manage">
${brandMark(v.envelope.brand)}
<h1>${v.envelope.emailSubject}</h1>
<p role="note">${note ? t(note) : ''}</p>
${v.error ? html`<p id="finish-error" class="finish-error" role="alert">${t('page.finishRefused', { detail: v.error })}</p>` : ''}
<form id="recipients-form" method="post" action="${v.base}/finish">
<input type="hidden" name="${CSRF_FIELD}" value="${v.csrf}">
${v.managed.length === 0 ? html`<p>${t('manage.noneLeft')}</p>` : fieldsets}
<div class="actions"><button type="submit" id="finish">${t('page.finish')}</button></div>
</form>
</main>
<section class="documents" aria-label="${t('page.documents')}">${documents}</section>`, false, undefined, v.envelope.brand);
}
