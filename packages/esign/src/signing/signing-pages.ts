import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';
import type { TabOnPage } from '../domain/tabs/tab-on-page.ts';
import { CSRF_FIELD } from '../web/csrf.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { tabControlsOn, tabRulesData } from './tab-controls.ts';
import type { EnvelopeBrand } from '../domain/brands/brand.ts';
import { brandHead, brandMark } from './brand-look.ts';
import { supplementStrip, type SupplementOnPage } from './supplement-strip.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import { ACCOUNT_LANGUAGE } from '../domain/language/languages.ts';
import { jsonData } from './json-data.ts';
import { pageMessages } from './page-messages.ts';

/** Page sizes (points, CropBox) of one document, in page order. */
export type DocumentPages = { readonly documentId: string; readonly name: string; readonly sizes: readonly { width: number; height: number }[] };

/** What a focused view's page tells its framing page (frame-events-script.ts): nothing when not framed or no origin listens. */
type FrameEvents = { readonly messageOrigins: readonly string[]; readonly sessionEnd?: { type: string; returnUrl: string } };

/** Every page a recipient sees, in their language (`tr`: domain/language/languages.ts recipientLanguage): `lang` is its BCP 47 tag. */
export function pageFrame(tr: Translator, title: string, body: SafeHtml, withScript = false, events?: FrameEvents, brand?: EnvelopeBrand): string {
  const posting = events !== undefined && events.messageOrigins.length > 0;
  const bodyTag = posting
    ? html`<body data-message-origins="${JSON.stringify(events.messageOrigins)}"${events.sessionEnd ? html` data-session-end="${events.sessionEnd.type}" data-return-url="${events.sessionEnd.returnUrl}"` : ''}>`
    : html`<body>`;
  return html`<!doctype html>
<html lang="${tr.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Signet</title>
<link rel="stylesheet" href="/signing/assets/signing.css">
${brandHead(brand)}
${withScript ? html`<script src="/signing/assets/signing.js" defer></script>` : ''}
${posting ? html`<script src="/signing/assets/frame-events.js" defer></script>` : ''}
</head>
${bodyTag}
${body}
</body>
</html>
`.value;
}

/**
 * A link that names no recipient we know (unknown, expired, or redeemed): there is no recipient
 * to take a language from, so it is in the default language (English, ACCOUNT_LANGUAGE).
 */
export function unknownLinkPage(message = 'The signing link is unknown or has expired. Ask the sender for a new one.', title = 'This link is not valid'): string {
  return noticePage(translator(ACCOUNT_LANGUAGE), title, message);
}

/** A one-message page: not your turn, already signed, voided, declined, completed, expired. */
export function noticePage(tr: Translator, title: string, message: string, extra?: SafeHtml): string {
  return pageFrame(tr, title, html`<main class="notice"><h1>${title}</h1><p>${message}</p>${extra}</main>`);
}

/**
 * The ceremony: every page of every document as an image, the signer's tabs over them as form
 * controls (tab-controls.ts; SignHere tabs are buttons named "Sign here", docs/esign-signing.md,
 * "The signing page"), the supplemental documents' strip (supplement-strip.ts), the Finish form
 * and the Decline dialog. `error` is a refused Finish's
 * message, shown at the top.
 */
export function ceremonyPage(tr: Translator, v: { base: string; csrf: string; envelope: Envelope; recipient: Recipient; tabs: readonly TabOnPage[]; documents: readonly DocumentPages[]; supplements?: readonly SupplementOnPage[]; now: Date; error?: string; frame?: SigningFrame }): string {
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${v.csrf}">`;
  const { t } = tr;
  const ctx = { t, signer: { name: v.recipient.name, email: v.recipient.email }, now: v.now, dateFormat: v.envelope.account?.signDateFormat };
  const documents = v.documents.map((d) => html`<section class="document" aria-label="${d.name}">
<h2>${d.name}</h2>
${d.sizes.map((size, i) => html`<div class="page" data-width="${size.width}" data-height="${size.height}">
<img class="render" src="${v.base}/documents/${encodeURIComponent(d.documentId)}/pages/${i + 1}" alt="${t('page.pageOf', { document: d.name, page: i + 1, pages: d.sizes.length })}" width="${Math.round(size.width)}" height="${Math.round(size.height)}" loading="${i < 2 ? 'eager' : 'lazy'}">
${tabControlsOn(v.tabs, d.documentId, i + 1, ctx)}
</div>`)}
</section>`);
  return pageFrame(tr, t('page.signTitle', { subject: v.envelope.emailSubject }), html`<div class="bar">
${brandMark(v.envelope.brand)}
<h1>${v.envelope.emailSubject}</h1>
${v.recipient.host ? html`<p class="in-person" role="note">${t('page.inPerson', { host: v.recipient.host.name, signer: v.recipient.name })}</p>` : ''}
${v.recipient.witnessFor !== undefined ? html`<p class="in-person" role="note">${t('page.witness', { signer: v.envelope.recipients.find((r) => r.recipientId === v.recipient.witnessFor)?.name ?? t('page.theSigner') })}</p>` : ''}
${v.recipient.type === 'certifiedDelivery' ? html`<p class="in-person" role="note">${t('page.certifiedDelivery')}</p>` : ''}
<form id="finish-form" method="post" action="${v.base}/finish">
${csrf}
<input type="hidden" name="signatureKind" value="">
<input type="hidden" name="signatureText" value="">
<input type="hidden" name="signatureImage" value="">
<input type="hidden" name="signedTabs" value="">
<input type="hidden" name="tabValues" value="">
<input type="hidden" name="attachments" value="">
<button type="submit" id="finish" disabled>${t('page.finish')}</button>
</form>
<button type="button" id="decline-open" class="secondary">${t('page.decline')}</button>
<p id="progress" role="status">${t('page.intro', { name: v.recipient.name })}</p>
${v.error ? html`<p id="finish-error" class="finish-error" role="alert">${t('page.finishRefused', { detail: v.error })}</p>` : ''}
</div>
${tabRulesData(v.tabs, tr)}
${jsonData('page-messages', pageMessages(tr, v.tabs, v.supplements ?? []))}
<main class="documents">${documents}${supplementStrip(tr, v.base, v.supplements ?? [])}</main>
<dialog id="adopt-dialog" aria-labelledby="adopt-title">
<h2 id="adopt-title">${t('page.adoptTitle')}</h2>
<fieldset class="modes"><legend class="visually-hidden">${t('page.signatureStyle')}</legend>
<label><input type="radio" name="mode" value="typed" checked> ${t('page.typeMode')}</label>
<label><input type="radio" name="mode" value="drawn"> ${t('page.drawMode')}</label>
</fieldset>
<div id="typed-panel">
<label for="signature-text">${t('page.yourName')}</label>
<input id="signature-text" type="text" maxlength="100" autocomplete="name" value="${v.recipient.name}">
<span id="typed-preview" aria-hidden="true"></span>
</div>
<div id="drawn-panel" hidden>
<canvas id="signature-pad" width="600" height="200" aria-label="${t('page.drawHere')}"></canvas>
<button type="button" id="clear-pad" class="secondary">${t('page.clear')}</button>
</div>
<p id="adopt-error" class="error" role="alert"></p>
<p>${t('page.adoptConsent')}</p>
<div class="actions"><button type="button" id="adopt-button">${t('page.adoptAndSign')}</button><button type="button" id="adopt-cancel" class="secondary">${t('page.cancel')}</button></div>
</dialog>
<dialog id="decline-dialog" aria-labelledby="decline-title">
<h2 id="decline-title">${t('page.declineTitle')}</h2>
<form method="post" action="${v.base}/decline">
${csrf}
<label for="decline-reason">${t('page.declineReason')}</label>
<textarea id="decline-reason" name="reason" required maxlength="2000"></textarea>
<div class="actions"><button type="submit">${t('page.declineTitle')}</button><button type="button" id="decline-cancel" class="secondary">${t('page.cancel')}</button></div>
</form>
</dialog>`, true, v.frame, v.envelope.brand);
}

/**
 * What a focused view's Finish or Decline answers when its framing page listens: the framing
 * page hears `sessionEnd` (frame-events-script.ts), then the frame goes on to the returnUrl.
 * The link is for a browser without scripts.
 */
export function sessionEndPage(tr: Translator, frame: SigningFrame, sessionEndType: string, returnUrl: string): string {
  const title = sessionEndType === 'decline' ? tr.t('state.declinedTitle') : tr.t('page.thankYou');
  return pageFrame(tr, title, html`<main class="notice"><h1>${title}</h1><p><a href="${returnUrl}">${tr.t('page.continue')}</a></p></main>`, false, { messageOrigins: frame.messageOrigins, sessionEnd: { type: sessionEndType, returnUrl } });
}
