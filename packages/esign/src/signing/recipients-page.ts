import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import type { ManagedRecipient } from '../domain/signing/manage-recipients.ts';
import { CSRF_FIELD } from '../web/csrf.ts';
import { html } from '../web/html.ts';
import { brandMark } from './brand-look.ts';
import { pageFrame, type DocumentPages } from './signing-pages.ts';

const TYPE_NAMES: Record<Recipient['type'], string> = {
  signer: 'Signer', carbonCopy: 'Receives a copy', inPersonSigner: 'In person signer', certifiedDelivery: 'Certified delivery',
  agent: 'Agent', editor: 'Editor', intermediary: 'Intermediary', witness: 'Witness',
};

const ROLE_NOTES: Partial<Record<Recipient['type'], string>> = {
  agent: 'You are the agent for these documents: say who the recipients below are. Fill in every blank name and e-mail address; the sender lets you change the others only where an input is shown. Then select Finish to send the documents on. You sign nothing.',
  intermediary: 'You are an intermediary for these documents: you may change the recipients below where an input is shown, and must fill in every blank. Then select Finish to send the documents on. You sign nothing.',
  editor: 'You are an editor for these documents: you may change the name, e-mail address and routing order of the recipients below (only to a routing order after yours). Then select Finish to send the documents on. You sign nothing.',
};

/** The form field of one recipient's value (signing/parse-recipient-edits.ts reads them back). */
export function recipientFieldName(recipientId: string, field: 'name' | 'email' | 'routingOrder'): string {
  return `recipient.${recipientId}.${field}`;
}

/**
 * The page of an agent, editor or intermediary (domain/signing/manage-recipients.ts): one
 * fieldset per recipient they speak for, an input for each field they may change and the value
 * as text for the others, then Finish; the documents below as page images. Plain HTML: it works
 * without scripts and from the keyboard (labels tie every input; Finish is a submit button).
 * `posted`: what a refused Finish sent, shown again with `error`.
 */
export function recipientsPage(v: { base: string; csrf: string; envelope: Envelope; manager: Recipient; managed: readonly ManagedRecipient[]; documents: readonly DocumentPages[]; error?: string; posted?: ReadonlyMap<string, string> }): string {
  const value = (r: Recipient, field: 'name' | 'email' | 'routingOrder') => v.posted?.get(recipientFieldName(r.recipientId, field)) ?? (field === 'routingOrder' ? String(r.routingOrder) : r[field]);
  const fieldsets = v.managed.map(({ recipient: r, editable }) => {
    const id = (field: string) => `r-${r.recipientId}-${field}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const input = (field: 'name' | 'email' | 'routingOrder', label: string, attrs: { type: string; autocomplete?: string }) => editable.has(field)
      ? html`<label for="${id(field)}">${label}</label>
<input id="${id(field)}" name="${recipientFieldName(r.recipientId, field)}" type="${attrs.type}" value="${value(r, field)}"${field === 'routingOrder' ? html` min="${v.manager.routingOrder + 1}" max="999"` : html` maxlength="${field === 'name' ? 100 : 254}"`} required${attrs.autocomplete ? html` autocomplete="${attrs.autocomplete}"` : ''}>`
      : html`<p class="fixed">${label}: ${field === 'routingOrder' ? String(r.routingOrder) : r[field] === '' ? '(not given)' : r[field]}</p>`;
    return html`<fieldset>
<legend>Recipient ${r.recipientId}: ${TYPE_NAMES[r.type]}, routing order ${r.routingOrder}</legend>
${input('name', 'Name', { type: 'text', autocomplete: 'off' })}
${input('email', 'E-mail address', { type: 'email', autocomplete: 'off' })}
${v.manager.type === 'editor' ? input('routingOrder', 'Routing order', { type: 'number' }) : ''}
</fieldset>`;
  });
  const documents = v.documents.map((d) => html`<section class="document" aria-label="${d.name}">
<h2>${d.name}</h2>
${d.sizes.map((size, i) => html`<div class="page"><img class="render" src="${v.base}/documents/${encodeURIComponent(d.documentId)}/pages/${i + 1}" alt="${d.name}, page ${i + 1} of ${d.sizes.length}" width="${Math.round(size.width)}" height="${Math.round(size.height)}" loading="${i < 2 ? 'eager' : 'lazy'}"></div>`)}
</section>`);
  return pageFrame(`Recipients: ${v.envelope.emailSubject}`, html`<main class="manage">
${brandMark(v.envelope.brand)}
<h1>${v.envelope.emailSubject}</h1>
<p role="note">${ROLE_NOTES[v.manager.type] ?? ''}</p>
${v.error ? html`<p id="finish-error" class="finish-error" role="alert">${v.error}</p>` : ''}
<form id="recipients-form" method="post" action="${v.base}/finish">
<input type="hidden" name="${CSRF_FIELD}" value="${v.csrf}">
${v.managed.length === 0 ? html`<p>No recipient is left for you to change.</p>` : fieldsets}
<div class="actions"><button type="submit" id="finish">Finish</button></div>
</form>
</main>
<section class="documents" aria-label="Documents">${documents}</section>`, false, undefined, v.envelope.brand);
}
