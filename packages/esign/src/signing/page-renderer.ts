import { spawn } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { Slots } from '@signet/kit';

/**
 * The longest side of a page image, in pixels. A page's size is the sender's to choose, up to
 * PDF's 14,400 pt: at 110 dpi that is a 22,000-pixel square, ~1.9 GB for pdftoppm and seconds of
 * CPU per request. A page whose longer side would exceed this is rendered at the dpi that fits it
 * (Letter and A4 at 110 dpi are ~1,290 pixels long: unchanged).
 */
export const MAX_PAGE_PIXELS = 2400;

/**
 * Page images for the signing page, rendered on the server by poppler's pdftoppm
 * (poppler-utils, installed by scripts/setup.mjs), so the browser needs no PDF engine (pdf.js
 * would ship 1.7 MB of script and worker to every signer, phones included: bench/esign/signing.ts).
 * JPEG, not PNG: for a text-heavy Letter page at 110 dpi pdftoppm spends ~0.18 s of CPU
 * compressing the PNG and ~0.01 s writing a quality-85 JPEG of about the same size (measured
 * here, docs/benchmarks.md). Documents never change once sent, so renders and page sizes are
 * cached by key.
 */
export class PageRenderer {
  readonly #dpi: number;
  readonly #maxEntries: number;
  readonly #timeoutMs: number;
  readonly #images = new Map<string, Promise<Buffer>>();
  /** The bytes of each image rendered and still cached, and their sum, bounded by #maxImageBytes. */
  readonly #imageBytes = new Map<string, number>();
  #heldBytes = 0;
  readonly #maxImageBytes: number;
  readonly #sizes = new Map<string, Promise<{ width: number; height: number }[]>>();
  /** At most `maxProcesses` pdftoppm processes at once (a long document asks for many pages together). */
  readonly #processes: Slots;

  constructor(options: { dpi?: number; maxEntries?: number; maxImageBytes?: number; timeoutMs?: number; maxProcesses?: number } = {}) {
    this.#dpi = options.dpi ?? 110;
    // 200 renders of noisy 2,400-pixel pages would be ~600 MB: the cache is bounded in bytes too.
    this.#maxImageBytes = options.maxImageBytes ?? 64 * 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 200;
    this.#timeoutMs = options.timeoutMs ?? 20_000;
    this.#processes = new Slots(options.maxProcesses ?? 2);
  }

  /** CropBox sizes in points of every page: the frame tab positions are measured in. */
  pageSizes(key: string, pdf: () => Promise<Uint8Array>): Promise<{ width: number; height: number }[]> {
    return this.#cached(this.#sizes, key, async () => {
      const doc = await PDFDocument.load(await pdf(), { updateMetadata: false });
      return doc.getPages().map((p) => {
        const crop = p.getCropBox();
        return { width: crop.width, height: crop.height };
      });
    });
  }

  /** One page as JPEG. */
  jpeg(key: string, pageNumber: number, pdf: () => Promise<Uint8Array>): Promise<Buffer> {
    const imageKey = `${key}#${pageNumber}`;
    // `entry` is read only after the render's first await, once it is set.
    const entry: Promise<Buffer> = this.#cached(this.#images, imageKey, async () => {
      const page = (await this.pageSizes(key, pdf))[pageNumber - 1];
      const longest = page === undefined ? 0 : Math.max(page.width, page.height);
      const dpi = longest * this.#dpi / 72 > MAX_PAGE_PIXELS ? Math.floor(MAX_PAGE_PIXELS * 72 * 100 / longest) / 100 : this.#dpi;
      const bytes = await pdf();
      const giveBack = await this.#processes.take();
      try {
        const image = await this.#render(bytes, pageNumber, dpi);
        this.#hold(imageKey, entry, image.byteLength);
        return image;
      } finally {
        giveBack();
      }
    }, (dropped) => this.#release(dropped));
    return entry;
  }

  /** Counts a cached image's bytes (if `entry` is still the one cached); past the bound the least recently used others leave. */
  #hold(key: string, entry: Promise<Buffer>, bytes: number): void {
    if (this.#images.get(key) !== entry) return;
    this.#release(key);
    this.#imageBytes.set(key, bytes);
    this.#heldBytes += bytes;
    for (const oldest of this.#images.keys()) {
      if (this.#heldBytes <= this.#maxImageBytes) break;
      if (oldest === key) continue;
      this.#images.delete(oldest);
      this.#release(oldest);
    }
  }

  #release(key: string): void {
    const bytes = this.#imageBytes.get(key);
    if (bytes === undefined) return;
    this.#imageBytes.delete(key);
    this.#heldBytes -= bytes;
  }

  #cached<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>, dropped?: (key: string) => void): Promise<T> {
    const hit = map.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting makes this the most recently used.
      map.delete(key);
      map.set(key, hit);
      return hit;
    }
    const value = make();
    map.set(key, value);
    value.catch(() => map.get(key) === value && map.delete(key));
    while (map.size > this.#maxEntries) {
      const oldest = map.keys().next().value as string;
      map.delete(oldest);
      dropped?.(oldest);
    }
    return value;
  }

  #render(pdf: Uint8Array, pageNumber: number, dpi: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      // "-" reads the PDF from stdin; without an output root and with -singlefile the image goes to stdout.
      const child = spawn('pdftoppm', ['-jpeg', '-jpegopt', 'quality=85', '-r', String(dpi), '-f', String(pageNumber), '-l', String(pageNumber), '-singlefile', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let err = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), this.#timeoutMs);
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0 && out.length > 0) resolve(Buffer.concat(out));
        else reject(new Error(`pdftoppm exited with ${code}: ${err.trim().slice(0, 300)}`));
      });
      child.stdin.on('error', () => {});
      child.stdin.end(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
    });
  }
}
