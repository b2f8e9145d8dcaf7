import { html, type SafeHtml } from '../../web/html.ts';
import type { MailBrand } from './mail-brand.ts';
import { translator, type Translator } from '../../i18n/translator.ts';

/** Header values are one line: a CR or LF from user input must never start a new header. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

/** The small print under every envelope mail: its id, in the recipient's language. */
export function envelopeIdLine(tr: Translator, envelopeId: string): SafeHtml {
  return html`<p style="font-size:12px;color:#656d76">${tr.t('mail.envelopeId', { envelopeId })}</p>`;
}

/**
 * The HTML frame every notification shares: inline styles only (mail clients drop <style>
 * and external sheets), a single column, and the preheader hidden. An envelope's brand puts its
 * logo, company name and header colours at the top (its colours are checked `#rrggbb` values,
 * domain/brands/brand-colors.ts; its texts are escaped like every other value). `lang` and the
 * footer follow the recipient's language (docs/esign-languages.md).
 */
export function mailLayout(heading: string, body: SafeHtml, brand?: MailBrand, tr: Translator = translator('en')): string {
  return html`<!doctype html>
<html lang="${tr.locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2328">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
${brand ? brandHeader(brand) : html`<p style="margin:0 0 16px;font-weight:bold;color:#4b3fbf">Signet</p>`}
<h1 style="font-size:20px;margin:0 0 16px">${heading}</h1>
${body}
<p style="margin:24px 0 0;font-size:12px;color:#656d76">${tr.t('mail.doNotShare')}</p>
</div>
</body>
</html>
`.value;
}

function brandHeader(brand: MailBrand): SafeHtml {
  const style = `margin:0 0 16px;padding:${brand.headerBackground ? '12px' : '0'};font-weight:bold;color:${brand.headerText ?? '#4b3fbf'}${brand.headerBackground ? `;background:${brand.headerBackground};border-radius:6px` : ''}`;
  return html`<p class="brand" style="${style}">${brand.logoUrl ? html`<img src="${brand.logoUrl}" alt="${brand.company ?? 'Logo'}" style="max-height:48px;max-width:240px;vertical-align:middle;margin-right:8px">` : ''}${brand.company ?? ''}</p>`;
}

/** A call-to-action button that is also a plain link, in the brand's button colours when it has them. */
export function mailButton(label: string, url: string, brand?: MailBrand): SafeHtml {
  return html`<p style="margin:24px 0"><a href="${url}" style="display:inline-block;background:${brand?.buttonBackground ?? '#4b3fbf'};color:${brand?.buttonText ?? '#ffffff'};text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">${label}</a></p>`;
}
