import { BRAND_COLOR_NAMES, type BrandColors, type EnvelopeBrand } from '../domain/brands/brand.ts';
import { html, type SafeHtml } from '../web/html.ts';

import { LOGO_PATH } from '../mail/templates/mail-brand.ts';

export { LOGO_PATH };
const STYLE_PATH = '/signing/assets/brand/';
const KEY = /^(?:[0-9a-f]{6}|-)(?:\.(?:[0-9a-f]{6}|-)){3}$/;

/**
 * A brand's colours as a stylesheet path: the colours themselves, in BRAND_COLOR_NAMES order
 * (`-` for one not set). The stylesheet is then a pure function of its URL: nothing is looked
 * up, nothing of an account can be read through it, and the CSP's `style-src 'self'` holds
 * without inline styles.
 */
export function brandStylesheetPath(colors: BrandColors): string | undefined {
  const parts = BRAND_COLOR_NAMES.map((n) => colors[n]?.slice(1) ?? '-');
  return parts.every((p) => p === '-') ? undefined : `${STYLE_PATH}${parts.join('.')}.css`;
}

/** The stylesheet for a key brandStylesheetPath wrote; undefined for anything else. */
export function brandStylesheet(key: string): string | undefined {
  if (!KEY.test(key)) return undefined;
  const [buttonBg, buttonText, headerBg, headerText] = key.split('.').map((p) => (p === '-' ? undefined : `#${p}`));
  return [
    headerBg || headerText ? `.bar{${headerBg ? `background:${headerBg};` : ''}${headerText ? `color:${headerText};` : ''}}` : '',
    buttonBg || buttonText ? `button:not(.secondary):not(.tab){${buttonBg ? `background:${buttonBg};border-color:${buttonBg};` : ''}${buttonText ? `color:${buttonText};` : ''}}` : '',
    buttonBg ? `button.secondary{color:${buttonBg};border-color:${buttonBg}}` : '',
    '.brand-mark{display:flex;align-items:center;gap:.5rem;flex:1 1 100%;margin:0;font-weight:600}.brand-mark img{max-height:2.5rem;max-width:12rem;width:auto;height:auto}',
  ].join('\n');
}

/** The brand's stylesheet link for a page's head. */
export function brandHead(brand: EnvelopeBrand | undefined): SafeHtml | '' {
  const path = brand ? brandStylesheetPath(brand.colors) : undefined;
  // The logo and company line need the layout rules even without colours.
  return brand ? html`<link rel="stylesheet" href="${path ?? `${STYLE_PATH}-.-.-.-.css`}">` : '';
}

/** The logo and company name at the top of the signing page; every text escaped. */
export function brandMark(brand: EnvelopeBrand | undefined): SafeHtml | '' {
  if (!brand || (!brand.logo && brand.company === undefined)) return '';
  return html`<p class="brand-mark">${brand.logo ? html`<img src="${LOGO_PATH}${brand.logo.sha256}" alt="${brand.company ?? 'Logo'}" width="${brand.logo.width}" height="${brand.logo.height}">` : ''}${brand.company !== undefined ? html`<span class="brand-company">${brand.company}</span>` : ''}</p>`;
}
