import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';
import type { TabOnPage } from '../domain/tabs/tab-on-page.ts';
import { CSRF_FIELD } from '../web/csrf.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { tabControlsOn, tabRulesData } from './tab-controls.ts';
import type { EnvelopeBrand } from '../domain/brands/brand.ts';
import { brandHead, brandMark } from './brand-look.ts';
import { supplementStrip, type SupplementOnPage } from './supplement-strip.ts';

/** Page sizes (points, CropBox) of one document, in page order. */
export type DocumentPages = { readonly documentId: string; readonly name: string; readonly sizes: readonly { width: number; height: number }[] };

/** What a focused view's page tells its framing page (frame-events-script.ts): nothing when not framed or no origin listens. */
type FrameEvents = { readonly messageOrigins: readonly string[]; readonly sessionEnd?: { type: string; returnUrl: string } };

export function pageFrame(title: string, body: SafeHtml, withScript = false, events?: FrameEvents, brand?: EnvelopeBrand): string {
  const posting = events !== undefined && events.messageOrigins.length > 0;
  const bodyTag = posting
    ? html`<body data-message-origins="${JSON.stringify(events.messageOrigins)}"${events.sessionEnd ? html` data-session-end="${events.sessionEnd.type}" data-return-url="${events.sessionEnd.returnUrl}"` : ''}>`
    : html`<body>`;
  return html`<!doctype html>
<html lang="en">
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

/** A one-message page: not your turn, already signed, voided, declined, completed, expired. */
export function noticePage(title: string, message: string, extra?: SafeHtml): string {
  return pageFrame(title, html`<main class="notice"><h1>${title}</h1><p>${message}</p>${extra}</main>`);
}

/**
 * The ceremony: every page of every document as an image, the signer's tabs over them as form
 * controls (tab-controls.ts; SignHere tabs are buttons named "Sign here", docs/esign-signing.md,
 * "The signing page"), the supplemental documents' strip (supplement-strip.ts), the Finish form
 * and the Decline dialog. `error` is a refused Finish's
 * message, shown at the top.
 */
export function ceremonyPage(v: { base: string; csrf: string; envelope: Envelope; recipient: Recipient; tabs: readonly TabOnPage[]; documents: readonly DocumentPages[]; supplements?: readonly SupplementOnPage[]; now: Date; error?: string; frame?: SigningFrame }): string {
  const csrf = html`<input type="hidden" name="${CSRF_FIELD}" value="${v.csrf}">`;
  const ctx = { signer: { name: v.recipient.name, email: v.recipient.email }, now: v.now, dateFormat: v.envelope.account?.signDateFormat };
  const documents = v.documents.map((d) => html`<section class="document" aria-label="${d.name}">
<h2>${d.name}</h2>
${d.sizes.map((size, i) => html`<div class="page" data-width="${size.width}" data-height="${size.height}">
<img class="render" src="${v.base}/documents/${encodeURIComponent(d.documentId)}/pages/${i + 1}" alt="${d.name}, page ${i + 1} of ${d.sizes.length}" width="${Math.round(size.width)}" height="${Math.round(size.height)}" loading="${i < 2 ? 'eager' : 'lazy'}">
${tabControlsOn(v.tabs, d.documentId, i + 1, ctx)}
</div>`)}
</section>`);
  return pageFrame(`Sign: ${v.envelope.emailSubject}`, html`<div class="bar">
${brandMark(v.envelope.brand)}
<h1>${v.envelope.emailSubject}</h1>
${v.recipient.host ? html`<p class="in-person" role="note">In person signing: ${v.recipient.host.name} hosts, ${v.recipient.name} signs on this device.</p>` : ''}
${v.recipient.witnessFor !== undefined ? html`<p class="in-person" role="note">Witness: you sign to confirm that you saw ${v.envelope.recipients.find((r) => r.recipientId === v.recipient.witnessFor)?.name ?? 'the signer'} sign these documents.</p>` : ''}
${v.recipient.type === 'certifiedDelivery' ? html`<p class="in-person" role="note">Certified delivery: view the documents, then select Finish to acknowledge that you received them. Nothing is signed.</p>` : ''}
<form id="finish-form" method="post" action="${v.base}/finish">
${csrf}
<input type="hidden" name="signatureKind" value="">
<input type="hidden" name="signatureText" value="">
<input type="hidden" name="signatureImage" value="">
<input type="hidden" name="signedTabs" value="">
<input type="hidden" name="tabValues" value="">
<input type="hidden" name="attachments" value="">
<button type="submit" id="finish" disabled>Finish</button>
</form>
<button type="button" id="decline-open" class="secondary">Decline</button>
<p id="progress" role="status">${v.recipient.name}, please review the documents, fill in the fields and select each "Sign here" tab.</p>
${v.error ? html`<p id="finish-error" class="finish-error" role="alert">${v.error}</p>` : ''}
</div>
${tabRulesData(v.tabs)}
<main class="documents">${documents}${supplementStrip(v.base, v.supplements ?? [])}</main>
<dialog id="adopt-dialog" aria-labelledby="adopt-title">
<h2 id="adopt-title">Adopt your signature</h2>
<fieldset class="modes"><legend class="visually-hidden">Signature style</legend>
<label><input type="radio" name="mode" value="typed" checked> Type</label>
<label><input type="radio" name="mode" value="drawn"> Draw</label>
</fieldset>
<div id="typed-panel">
<label for="signature-text">Your name</label>
<input id="signature-text" type="text" maxlength="100" autocomplete="name" value="${v.recipient.name}">
<span id="typed-preview" aria-hidden="true"></span>
</div>
<div id="drawn-panel" hidden>
<canvas id="signature-pad" width="600" height="200" aria-label="Draw your signature here"></canvas>
<button type="button" id="clear-pad" class="secondary">Clear</button>
</div>
<p id="adopt-error" class="error" role="alert"></p>
<p>By selecting Adopt and sign, I agree that this signature is the electronic representation of my signature on these documents.</p>
<div class="actions"><button type="button" id="adopt-button">Adopt and sign</button><button type="button" id="adopt-cancel" class="secondary">Cancel</button></div>
</dialog>
<dialog id="decline-dialog" aria-labelledby="decline-title">
<h2 id="decline-title">Decline to sign</h2>
<form method="post" action="${v.base}/decline">
${csrf}
<label for="decline-reason">Reason for declining</label>
<textarea id="decline-reason" name="reason" required maxlength="2000"></textarea>
<div class="actions"><button type="submit">Decline to sign</button><button type="button" id="decline-cancel" class="secondary">Cancel</button></div>
</form>
</dialog>`, true, v.frame, v.envelope.brand);
}

/**
 * What a focused view's Finish or Decline answers when its framing page listens: the framing
 * page hears `sessionEnd` (frame-events-script.ts), then the frame goes on to the returnUrl.
 * The link is for a browser without scripts.
 */
export function sessionEndPage(frame: SigningFrame, sessionEndType: string, returnUrl: string): string {
  const title = sessionEndType === 'decline' ? 'Declined' : 'Thank you';
  return pageFrame(title, html`<main class="notice"><h1>${title}</h1><p><a href="${returnUrl}">Continue</a></p></main>`, false, { messageOrigins: frame.messageOrigins, sessionEnd: { type: sessionEndType, returnUrl } });
}
