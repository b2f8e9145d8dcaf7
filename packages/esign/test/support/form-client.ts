import { request, type Dispatcher } from 'undici';

/** A response as the tests read it. */
export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: () => unknown };

/**
 * A minimal browser for HTTP tests: keeps cookies, posts forms, never follows redirects (the
 * tests assert them). Headless Chromium covers the real browser elsewhere.
 */
export class FormClient {
  readonly #origin: string;
  readonly #cookies = new Map<string, string>();
  readonly #dispatcher: Dispatcher | undefined;
  constructor(origin: string, dispatcher?: Dispatcher) {
    this.#origin = origin;
    this.#dispatcher = dispatcher;
  }

  cookie(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  async send(method: 'GET' | 'POST', path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await request(new URL(path, this.#origin), {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      ...(this.#dispatcher ? { dispatcher: this.#dispatcher } : {}),
    });
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) {
        const value = pair.slice(eq + 1);
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.#cookies.delete(pair.slice(0, eq));
        else this.#cookies.set(pair.slice(0, eq), value);
      }
    }
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
  }

  get(path: string, headers?: Record<string, string>): Promise<Answer> {
    return this.send('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Answer> {
    return this.send('POST', path, form, headers);
  }
}

/** The value of a hidden input in a page. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  if (!match?.[1] && match?.[1] !== '') throw new Error(`no hidden field ${name} in page`);
  return match[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** All hidden inputs of the first form posting to `action`. */
export function formFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const end = html.indexOf('</form>', start);
  const chunk = html.slice(start, end);
  const out: Record<string, string> = {};
  for (const m of chunk.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1] ?? ''] = hiddenField(m[0], m[1] ?? '');
  }
  return out;
}
