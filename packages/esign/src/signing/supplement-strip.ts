import type { AcknowledgementDue } from '../domain/envelope/document-supplement.ts';
import type { EnvelopeDocument } from '../domain/envelope/envelope.ts';
import type { Translator } from '../i18n/translator.ts';
import { html, type SafeHtml } from '../web/html.ts';

/** A supplemental document as the page offers it: its pages' count for the dialog, what the signer owes, whether it was viewed. */
export type SupplementOnPage = { readonly document: EnvelopeDocument; readonly pageCount: number; readonly due?: AcknowledgementDue; readonly viewed: boolean };

/**
 * The supplemental documents, shown as DocuSign shows them: an action strip under the documents
 * to sign, never as pages to sign (DocuSign "Supplemental Documents"). `modal`: View opens a
 * dialog with its pages; `download`: View is a link to the file. Either way the file can be
 * downloaded, and what the server counts as viewed is the signer fetching its pages or the file
 * (signing-routes.ts). An acceptance is a checkbox of the Finish form (`accept-<documentId>`).
 * Plain buttons, links and checkboxes: usable by keyboard and screen reader.
 */
export function supplementStrip(tr: Translator, base: string, supplements: readonly SupplementOnPage[]): SafeHtml | '' {
  if (supplements.length === 0) return '';
  const { t } = tr;
  const items = supplements.map((s) => {
    const id = s.document.documentId;
    const file = `${base}/supplements/${encodeURIComponent(id)}`;
    const display = s.document.supplement?.display ?? 'modal';
    const viewed = s.viewed ? 'true' : 'false';
    const needs = s.due?.view && s.due.accept ? t('supplement.mustViewAndAccept') : s.due?.view ? t('supplement.mustView') : s.due?.accept ? t('supplement.mustAccept') : '';
    const view = display === 'modal'
      ? html`<button type="button" class="secondary supplement-view" data-document="${id}" data-must-view="${s.due?.view ? 'true' : 'false'}" data-viewed="${viewed}" aria-controls="supplement-dialog-${id}">${t('supplement.view')}</button>`
      : html`<a class="button secondary supplement-view" href="${file}" data-document="${id}" data-must-view="${s.due?.view ? 'true' : 'false'}" data-viewed="${viewed}">${t('supplement.viewDownload')}</a>`;
    const accept = s.due?.accept
      ? html`<label class="supplement-accept"><input type="checkbox" form="finish-form" name="accept-${id}" value="true" data-must-accept="true"> ${t('supplement.accept', { name: s.document.name })}</label>`
      : '';
    const dialog = display === 'modal'
      ? html`<dialog id="supplement-dialog-${id}" class="supplement-dialog" aria-labelledby="supplement-title-${id}">
<h2 id="supplement-title-${id}">${s.document.name}</h2>
<div class="supplement-pages">${Array.from({ length: s.pageCount }, (_, i) => html`<img class="render" data-src="${base}/documents/${encodeURIComponent(id)}/pages/${i + 1}" alt="${t('page.pageOf', { document: s.document.name, page: i + 1, pages: s.pageCount })}">`)}</div>
<div class="actions"><a class="button secondary" href="${file}" download>${t('supplement.download')}</a><button type="button" class="supplement-close">${t('supplement.close')}</button></div>
</dialog>`
      : '';
    return html`<li class="supplement" data-document="${id}">
<span class="supplement-name">${s.document.name}</span>${needs ? html` <span class="supplement-needs">${needs}</span>` : ''}
<span class="supplement-actions">${view}${display === 'modal' ? html` <a class="button secondary" href="${file}" download>${t('supplement.download')}</a>` : ''}</span>
${accept}
${dialog}
</li>`;
  });
  return html`<section class="supplements" aria-labelledby="supplements-title">
<h2 id="supplements-title">${t('supplement.heading')}</h2>
<p>${t('supplement.intro')}</p>
<ul>${items}</ul>
</section>`;
}
