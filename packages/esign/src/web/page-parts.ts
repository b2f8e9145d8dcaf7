import { CSRF_FIELD } from './csrf.ts';
import { html, type SafeHtml } from './html.ts';

/** The hidden CSRF field of every form. */
export function csrfInput(csrf: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
}

/** A form's error message, announced to screen readers. */
export function errorBox(message: string | undefined): SafeHtml {
  return message ? html`<p class="error" role="alert">${message}</p>` : html``;
}
