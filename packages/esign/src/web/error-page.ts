import { html, layout } from './html.ts';

/** A plain error page (never a redirect). */
export function errorPage(title: string, message: string): string {
  return layout(title, html`<section><p class="error" role="alert">${message}</p></section>`);
}
