import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PdfError } from '../pdf-error.ts';
import type { OfficeFormat } from './detect-document-format.ts';
import { convertWithColdSoffice } from './convert-with-cold-soffice.ts';
import { DEFAULT_OFFICE_PATHS, OfficeDocumentError, OfficeWorker, type OfficePaths, type OfficeRequest } from './office-worker.ts';

export type OfficeConverterOptions = {
  /** Warm LibreOffice instances (each ~150 MB RSS); also the office concurrency. */
  workers: number;
  /** Scratch space for inputs, outputs and profiles. */
  tmpDir: string;
  paths?: OfficePaths;
  /** Skip the warm workers and use `soffice --convert-to` per document (benchmarks). */
  coldOnly?: boolean;
};

// Import filters by format, every one pinned: the format was read from the bytes
// (detect-document-format.ts), and naming the filter means LibreOffice never runs its own type
// detection, which would follow the content into any importer it has (or read a damaged .docx
// as plain text).
const IMPORT_FILTERS: Readonly<Record<OfficeFormat, Pick<OfficeRequest, 'infilter' | 'infilterOptions'>>> = {
  docx: { infilter: 'MS Word 2007 XML' },
  odt: { infilter: 'writer8' },
  doc: { infilter: 'MS Word 97' },
  rtf: { infilter: 'Rich Text Format' },
  txt: { infilter: 'Text (encoded)', infilterOptions: 'UTF8,LF,,,' },
};

/**
 * Office formats (docx, doc, odt, rtf, txt) → PDF through a pool of warm LibreOffice workers,
 * one profile each. A worker that dies is replaced on the next document; if a worker cannot
 * start, or dies under a document, that document goes through cold `soffice --convert-to`.
 * Callers bound concurrency to `workers` (the WorkQueue does), so slot `i` is never shared.
 */
export class OfficeConverter {
  readonly #options: OfficeConverterOptions;
  readonly #paths: OfficePaths;
  readonly #slots: (Promise<OfficeWorker> | undefined)[];
  readonly #free: number[];
  readonly #slotWaiters: ((slot: number) => void)[] = [];
  #closed = false;
  /** Aborts cold conversions still running when the converter closes. */
  readonly #closing = new AbortController();
  #coldFallbacks = 0;

  constructor(options: OfficeConverterOptions) {
    this.#options = options;
    this.#paths = options.paths ?? DEFAULT_OFFICE_PATHS;
    this.#slots = Array.from({ length: options.workers }, () => undefined);
    this.#free = this.#slots.map((_s, i) => i);
  }

  /** How many documents took the cold path because a warm worker failed. */
  get coldFallbacks(): number {
    return this.#coldFallbacks;
  }

  /** Starts every warm worker now instead of on first use. */
  async warmUp(): Promise<void> {
    if (this.#options.coldOnly) return;
    await Promise.all(this.#slots.map((_s, i) => this.#worker(i)));
  }

  /** soffice.bin pids of the live workers (for tests that kill one). */
  async workerPids(): Promise<number[]> {
    const workers = await Promise.all(this.#slots.map((s) => (s ? s.catch(() => undefined) : Promise.resolve(undefined))));
    return workers.flatMap((w) => (w?.alive && w.pid !== undefined ? [w.pid] : []));
  }

  /** Converts one office document; `signal` aborts (kills) a conversion that overran. */
  async convert(bytes: Uint8Array, extension: OfficeFormat, signal: AbortSignal): Promise<Uint8Array> {
    const slot = await this.#acquireSlot();
    const dir = await mkdtemp(join(this.#options.tmpDir, 'job-'));
    try {
      const input = join(dir, `document.${extension}`);
      const output = join(dir, 'document.pdf');
      await writeFile(input, bytes);
      const filters = IMPORT_FILTERS[extension];
      if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
      const warm = this.#options.coldOnly ? undefined : await this.#worker(slot).catch(() => undefined);
      let pdfPath = output;
      if (warm) {
        signal.throwIfAborted();
        const onAbort = (): void => void warm.stop();
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          await warm.convert({ input, output, filter: 'writer_pdf_Export', ...filters });
        } catch (err) {
          if (err instanceof OfficeDocumentError) throw classify(err);
          signal.throwIfAborted();
          if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
          // The worker died under this document: replace it later, convert this one cold.
          this.#coldFallbacks++;
          pdfPath = await this.#cold(input, dir, signal, filters);
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      } else {
        if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
        if (!this.#options.coldOnly) this.#coldFallbacks++;
        pdfPath = await this.#cold(input, dir, signal, filters);
      }
      const pdf = await readFile(pdfPath).catch((err: unknown) => {
        throw new PdfError('CONVERSION_FAILED', 'LibreOffice wrote no PDF.', { cause: err });
      });
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new PdfError('CONVERSION_FAILED', 'LibreOffice wrote no PDF.');
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    } finally {
      this.#releaseSlot(slot);
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Stops every worker and removes their profiles. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort(new PdfError('CONVERTER_CLOSED'));
    const workers = await Promise.all(this.#slots.map((s) => (s ? s.catch(() => undefined) : Promise.resolve(undefined))));
    await Promise.all(workers.map((w) => (w ? w.stop() : Promise.resolve())));
  }

  async #cold(input: string, dir: string, signal: AbortSignal, filters: Pick<OfficeRequest, 'infilter' | 'infilterOptions'>): Promise<string> {
    const infilter = filters.infilter && (filters.infilterOptions ? `${filters.infilter}:${filters.infilterOptions}` : filters.infilter);
    try {
      return await convertWithColdSoffice(this.#paths, input, dir, AbortSignal.any([signal, this.#closing.signal]), infilter || undefined);
    } catch (err) {
      signal.throwIfAborted();
      this.#closing.signal.throwIfAborted();
      throw new PdfError('CONVERSION_FAILED', 'LibreOffice could not convert it.', { cause: err });
    }
  }

  // The WorkQueue frees its slot the moment a job times out, a few ticks before the aborted
  // job has handed its worker slot back here: the next job waits for it rather than failing.
  async #acquireSlot(): Promise<number> {
    const slot = this.#free.pop();
    if (slot !== undefined) return slot;
    return new Promise((resolve) => this.#slotWaiters.push(resolve));
  }

  #releaseSlot(slot: number): void {
    const waiter = this.#slotWaiters.shift();
    if (waiter) waiter(slot);
    else this.#free.push(slot);
  }

  /** The live worker of slot `i`, starting a fresh one (new profile) if it died. */
  async #worker(i: number): Promise<OfficeWorker> {
    if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
    const current = this.#slots[i];
    if (current) {
      const w = await current.catch(() => undefined);
      if (w?.alive) return w;
      if (w) await w.stop();
    }
    const started = (async () => {
      const profile = await mkdtemp(join(this.#options.tmpDir, 'profile-'));
      const w = new OfficeWorker(profile, this.#paths);
      try {
        await w.start();
      } catch (err) {
        await w.stop();
        throw err;
      }
      return w;
    })();
    this.#slots[i] = started;
    return started;
  }
}

/** A document LibreOffice refused to load is the client's fault; anything else is ours. */
function classify(err: OfficeDocumentError): PdfError {
  if (/IllegalArgumentException|could not load|type detection failed|IOException.*load/i.test(err.message)) {
    return new PdfError('CORRUPT_DOCUMENT', 'LibreOffice could not read it.', { cause: err });
  }
  return new PdfError('CONVERSION_FAILED', undefined, { cause: err });
}
