/** Markup that is already safe to send: built only by `html` and `raw`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Interpolation = SafeHtml | string | number | undefined | null | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolation[]).map(render).join('');
  return escapeHtml(String(value));
}

/** Template tag: every interpolated value is escaped unless it is SafeHtml (or a list of them). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** The common page frame. The stylesheet is a same-origin file so the CSP needs no 'unsafe-inline'. */
export function layout(title: string, body: SafeHtml, nav?: SafeHtml, lang = 'en'): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Signet</title>
<link rel="stylesheet" href="/assets/signet.css">
</head>
<body>
<header><a class="brand" href="/console">Signet</a>${nav}</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}
