import type { Envelope } from '../domain/envelope/envelope.ts';
import type { UserRow } from '../store/schema.ts';
import { html, layout } from '../web/html.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { signedInNav } from './pages.ts';

const TYPE_NAMES: Readonly<Record<string, string>> = { signer: 'Signer', carbonCopy: 'Carbon copy' };

/**
 * One envelope in the console (docs/esign-views.md): what it is, who gets it in which order
 * with how many fields, and its pages. A draft has Send and "Save and close"; an envelope in
 * process a correction form per recipient who has not acted, and Done. The forms name the view
 * that opened the page, whose returnUrl is read from the store, never from the form.
 */
export function envelopePage(v: { user: UserRow; csrf: string; envelope: Envelope; viewId: string | undefined; pageWidths: ReadonlyMap<string, readonly number[]>; error?: string | undefined }): string {
  const e = v.envelope;
  const draft = e.status === 'created';
  const view = v.viewId !== undefined ? html`<input type="hidden" name="view" value="${v.viewId}">` : html``;
  // An envelope in process: each signer or carbon copy who has not acted can be corrected, as
  // updateRecipients allows (it refuses in-person signers).
  const correctable = (r: Envelope['recipients'][number]) => (e.status === 'sent' || e.status === 'delivered') && (r.type === 'signer' || r.type === 'carbonCopy') && !['signed', 'completed', 'declined'].includes(r.status);
  const recipients = [...e.recipients].sort((a, b) => a.routingOrder - b.routingOrder).map((r) => html`<tr data-recipient><td>${r.routingOrder}</td><td>${TYPE_NAMES[r.type] ?? r.type}</td><td>${r.name}</td><td>${r.email}</td><td>${r.tabs.length}</td><td>${r.status}</td></tr>${correctable(r) ? html`<tr><td colspan="6"><form class="inline" method="post" action="/console/envelopes/${e.envelopeId}/recipients/${encodeURIComponent(r.recipientId)}">${csrfInput(v.csrf)}${view}
<label for="name-${r.recipientId}">Name</label><input id="name-${r.recipientId}" type="text" name="name" required maxlength="100" value="${r.name}">
<label for="email-${r.recipientId}">E-mail</label><input id="email-${r.recipientId}" type="email" name="email" required maxlength="254" value="${r.email}">
<button type="submit">Correct ${r.name}</button></form></td></tr>` : ''}`);
  const pages = e.documents.flatMap((d) => (v.pageWidths.get(d.documentId) ?? []).map((width, i) => html`<figure>
<figcaption>${d.name}, page ${i + 1}</figcaption>
<img width="${width}" src="/console/envelopes/${e.envelopeId}/documents/${encodeURIComponent(d.documentId)}/pages/${i + 1}" alt="${d.name}, page ${i + 1}">
</figure>`));
  const inProcess = e.status === 'sent' || e.status === 'delivered';
  const done = inProcess && v.viewId !== undefined ? html`<div class="actions"><form class="inline" method="post" action="/console/envelopes/${e.envelopeId}/close">${csrfInput(v.csrf)}${view}<button type="submit" class="secondary">Done</button></form></div>` : html``;
  const actions = !draft ? done : html`<div class="actions">
<form class="inline" method="post" action="/console/envelopes/${e.envelopeId}/send">${csrfInput(v.csrf)}${view}<button type="submit">Send</button></form>
<form class="inline" method="post" action="/console/envelopes/${e.envelopeId}/close">${csrfInput(v.csrf)}${view}<button type="submit" class="secondary">Save and close</button></form>
</div>`;
  return layout(e.emailSubject, html`<section>
${errorBox(v.error)}
<dl><dt>Envelope ID</dt><dd><code data-field="envelope-id">${e.envelopeId}</code></dd><dt>Status</dt><dd data-field="status">${e.status}</dd>${e.emailBlurb ? html`<dt>Message</dt><dd>${e.emailBlurb}</dd>` : ''}</dl>
${actions}
<h2>Recipients</h2>
<table><thead><tr><th>Order</th><th>Type</th><th>Name</th><th>E-mail</th><th>Fields</th><th>Status</th></tr></thead><tbody>${recipients}</tbody></table>
<h2>Documents</h2>
${pages}
</section>
<p><a href="/console">Back to the console</a></p>`, signedInNav(v.user, v.csrf));
}

/** A dead view link: used, expired or unknown (all alike: the URL is a bearer secret). */
export function deadViewPage(): string {
  return layout('This link has expired', html`<section><p>This link was already used or has expired. Go back to the application you came from to open it again.</p></section>`);
}
