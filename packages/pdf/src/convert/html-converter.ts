import { launchChromium } from '@signet/kit';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { PdfError } from '../pdf-error.ts';

/** Paper for HTML documents (CSS `@page { size }` still wins). */
export type PaperFormat = 'Letter' | 'A4';

export type HtmlConverterOptions = {
  paper: PaperFormat;
};

// The document is served from a reserved name (RFC 2606 .invalid never resolves) so that it
// gets a real response and with it a Content-Security-Policy; everything else is aborted.
const DOCUMENT_URL = 'http://document.signet.invalid/';

// Belt and braces with the request interception below: inline styles and data: images and
// fonts render, nothing is fetched, no frame or form can point anywhere (file:// included).
const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline' data:",
  'img-src data:',
  'font-src data:',
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * HTML → PDF in Debian's headless Chromium, kept warm: one browser, one context with
 * JavaScript disabled, and reused pages, as many as the caller's queue lets run at once (~50 ms per document against ~250 ms for a new
 * context; docs/pdf.md, "Conversion"). No network and no file access: every request but
 * the document itself is aborted.
 */
export class HtmlConverter {
  readonly #options: HtmlConverterOptions;
  #browser: Promise<{ browser: Browser; context: BrowserContext }> | undefined;
  readonly #idle: Page[] = [];
  /** The document each busy page is printing, served by the context-wide route. */
  readonly #documents = new Map<Page, Buffer>();
  #blocked = 0;
  #closed = false;

  constructor(options: HtmlConverterOptions) {
    this.#options = options;
  }

  /** Requests refused so far (remote URLs, file:// and the like). */
  get blockedRequests(): number {
    return this.#blocked;
  }

  /** Launches the browser now instead of on first use. */
  async warmUp(): Promise<void> {
    await this.#context();
  }

  /** Prints one html document; `signal` aborts (closes the page) when it overran. */
  async convert(bytes: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    const page = await this.#page();
    const onAbort = (): void => void page.close().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    let healthy = false;
    try {
      this.#documents.set(page, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      await page.goto(DOCUMENT_URL, { waitUntil: 'load', timeout: 0 });
      const pdf = await page.pdf({
        format: this.#options.paper,
        printBackground: true,
        preferCSSPageSize: true,
        margin: { top: '0.5in', bottom: '0.5in', left: '0.5in', right: '0.5in' },
      });
      healthy = true;
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    } catch (err) {
      signal.throwIfAborted();
      throw new PdfError('CONVERSION_FAILED', 'Chromium could not print it.', { cause: err });
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.#documents.delete(page);
      if (healthy && !page.isClosed()) this.#idle.push(page);
      else await page.close().catch(() => undefined);
    }
  }

  /** Closes every page and the browser. */
  async close(): Promise<void> {
    this.#closed = true;
    const b = await this.#browser?.catch(() => undefined);
    this.#browser = undefined;
    await b?.browser.close();
  }

  async #serve(route: Route): Promise<void> {
    const request = route.request();
    const frame = request.frame();
    const page = frame.page();
    const html = frame.parentFrame() === null ? this.#documents.get(page) : undefined;
    if (html && request.url() === DOCUMENT_URL && request.isNavigationRequest()) {
      // Served once: a `<meta http-equiv=refresh>` back to the document must not loop.
      this.#documents.delete(page);
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP },
        body: html,
      });
      return;
    }
    this.#blocked++;
    if (request.isNavigationRequest()) {
      // An aborted navigation (meta refresh, frame) would replace the page with Chromium's
      // error page; a 204 answer makes the browser stay where it is (HTML: "no content").
      await route.fulfill({ status: 204, body: '' });
      return;
    }
    await route.abort('blockedbyclient');
  }

  async #page(): Promise<Page> {
    for (;;) {
      const page = this.#idle.pop();
      if (!page) break;
      if (!page.isClosed()) {
        return page;
      }
    }
    const { context } = await this.#context();
    return context.newPage();
  }

  async #context(): Promise<{ browser: Browser; context: BrowserContext }> {
    if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
    const current = await this.#browser?.catch(() => undefined);
    if (current?.browser.isConnected()) return current;
    // First use, or the browser crashed: start a new one (its old pages are gone with it).
    this.#idle.length = 0;
    this.#browser = (async () => {
      // Requests are all answered by the route below, but Chromium's network predictor still
      // opens TCP connections to hosts a document names (a meta refresh target, seen by
      // packages/esign/test/reliability): a proxy that refuses everything, loopback included,
      // keeps those connects off the network (port 9 is discard; nothing listens there).
      // Attacker HTML is rendered here: never as root, with Chromium's sandbox on (kit's
      // chromium-unprivileged.sh), on top of the interception and proxy rules.
      const browser = await launchChromium({ sandboxed: true, args: ['--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>'] });
      const context = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block', acceptDownloads: false });
      await context.route('**/*', (route) => this.#serve(route));
      return { browser, context };
    })();
    return this.#browser;
  }
}
