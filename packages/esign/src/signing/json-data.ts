import { html, SafeHtml } from '../web/html.ts';

/**
 * Data for the page's script as a JSON block: `type="application/json"` is data, never run, so
 * the strict CSP stays as it is. `<`, `>` and `&` are escaped so no value (a tab label, a
 * translated message, a name) can close the element.
 */
export function jsonData(id: string, value: unknown): SafeHtml {
  const json = new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
  return html`<script type="application/json" id="${id}">${json}</script>`;
}
