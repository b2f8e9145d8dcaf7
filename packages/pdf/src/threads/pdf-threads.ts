import { Worker } from 'node:worker_threads';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { toAnchorSearch, type AnchorOptions } from '../anchor/anchor-options.ts';
import type { DocumentText } from '../anchor/page-text.ts';
import { searchAnchors, type AnchorMatch } from '../anchor/search-anchors.ts';
import { PdfError } from '../pdf-error.ts';
import type { SignatureImageInfo } from '../stamp/signature-image.ts';
import type { FormField } from '../form/read-form-fields.ts';
import type { TabValueStamp } from '../stamp/draw-tab-values.ts';
import type { SignatureStamp, StampOptions } from '../stamp/stamp-signatures.ts';
import type { PdfInspection } from '../seal/inspect-signatures.ts';
import type { TimestampAuthority } from '../seal/request-timestamp.ts';
import type { ValidationDataOptions } from '../seal/add-validation-data.ts';
import type { ThreadJob, ThreadReply, ThreadRequest, ThreadResults } from './thread-messages.ts';

const BOOT = new URL('./pdf-thread-boot.mjs', import.meta.url);

type Pending = { resolve: (value: ThreadResults[keyof ThreadResults]) => void; reject: (err: Error) => void };

/** One worker thread and the jobs it owes answers to. */
class Thread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly pending = new Map<number, Pending>();
  dead = false;
  isReady = false;

  constructor() {
    this.worker = new Worker(BOOT);
    this.ready = new Promise((resolve, reject) => {
      const onFirst = (msg: { ready?: boolean }): void => {
        if (msg.ready) resolve();
      };
      this.worker.once('message', onFirst);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`pdf thread exited with ${code} before it was ready`)));
    });
    this.ready.then(() => (this.isReady = true), () => undefined);
    this.worker.on('message', (msg: ThreadReply | { ready: true }) => {
      if ('ready' in msg) return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(msg.code ? new PdfError(msg.code, msg.message || undefined) : new Error(msg.message));
    });
    const die = (err: Error): void => {
      this.dead = true;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', die);
    this.worker.on('exit', (code) => die(new Error(`pdf thread exited with ${code}`)));
  }
}

/**
 * pdf.js and pdf-lib on worker threads: validation, text extraction, image decoding and
 * stamping work synchronously in large pieces, which would stall the server's event loop (and its health
 * checks) on big PDFs. A job whose signal aborts terminates its thread, which is replaced.
 */
export class PdfThreads {
  readonly #threads: (Thread | undefined)[];
  #nextId = 1;
  #closed = false;

  constructor(threads = 1) {
    if (!Number.isInteger(threads) || threads < 1) throw new TypeError(`threads must be a positive integer, got ${threads}`);
    this.#threads = Array.from({ length: threads }, () => undefined);
  }

  /**
   * Starts every thread now (each loads pdf.js once, ~0.3-2 s) and has each open and read a
   * one-page PDF: pdf.js loads its parser (pdf.worker.mjs) on the first document, not at import,
   * and that first document cost a fresh server's first envelope seconds.
   */
  async warmUp(): Promise<void> {
    const pdf = await onePagePdf();
    await Promise.all(this.#threads.map(async (_t, i) => {
      await this.#run({ op: 'validate', pdf }, undefined, i);
      await this.#run({ op: 'extractText', pdfs: [pdf] }, undefined, i);
    }));
  }

  /** {@link validatePdf} off the event loop. */
  async validate(pdf: Uint8Array, signal?: AbortSignal): Promise<number> {
    return this.#run({ op: 'validate', pdf }, signal);
  }

  /** {@link extractText} off the event loop. */
  async extractText(pdfs: readonly Uint8Array[], signal?: AbortSignal): Promise<DocumentText[]> {
    return this.#run({ op: 'extractText', pdfs: [...pdfs] }, signal);
  }

  /** {@link checkSignatureImage} off the event loop: the pixel budget, then a full decode. */
  async checkSignatureImage(image: Uint8Array, signal?: AbortSignal): Promise<SignatureImageInfo> {
    return this.#run({ op: 'checkSignatureImage', image }, signal);
  }

  /** {@link stampSignatures} off the event loop (it decodes every signature image). */
  async stampSignatures(pdf: Uint8Array, stamps: readonly SignatureStamp[], options: StampOptions = {}, signal?: AbortSignal): Promise<Uint8Array> {
    return this.#run({ op: 'stamp', pdf, stamps: [...stamps], ...(options.signatureFont ? { signatureFont: options.signatureFont } : {}) }, signal);
  }

  /** {@link drawTabValues} off the event loop (pdf-lib parses and re-saves the whole document). */
  async drawTabValues(pdf: Uint8Array, stamps: readonly TabValueStamp[], signal?: AbortSignal): Promise<Uint8Array> {
    return this.#run({ op: 'drawTabValues', pdf, stamps: [...stamps] }, signal);
  }

  /** {@link readFormFields} off the event loop. */
  async readFormFields(pdf: Uint8Array, signal?: AbortSignal): Promise<FormField[]> {
    return this.#run({ op: 'readFormFields', pdf }, signal);
  }

  /** {@link removeFormFields} off the event loop. */
  async removeFormFields(pdf: Uint8Array, options: { flatten?: readonly string[] } = {}, signal?: AbortSignal): Promise<Uint8Array> {
    return this.#run({ op: 'removeFormFields', pdf, flatten: [...(options.flatten ?? [])] }, signal);
  }

  /** {@link attachmentToPdf} off the event loop (an image is decoded in full). */
  async attachmentToPdf(bytes: Uint8Array, signal?: AbortSignal): Promise<{ pdf: Uint8Array; pages: number }> {
    return this.#run({ op: 'attachmentToPdf', bytes }, signal);
  }

  /** {@link inspectSignatures} off the event loop (hashing and CMS checks of an uploaded file). */
  async inspectSignatures(pdf: Uint8Array, signal?: AbortSignal): Promise<PdfInspection> {
    return this.#run({ op: 'inspectSignatures', pdf }, signal);
  }

  /** {@link timestampSeal} (B-T) off the event loop. */
  async timestampSeal(pdf: Uint8Array, tsa: TimestampAuthority): Promise<{ pdf: Uint8Array; genTime: Date | undefined }> {
    return this.#run({ op: 'timestampSeal', pdf, tsa: { ...tsa } });
  }

  /** {@link addValidationData} (B-LT: pdf-lib parses the whole sealed file) off the event loop. */
  async addValidationData(pdf: Uint8Array, options: ValidationDataOptions = {}): Promise<Uint8Array> {
    return this.#run({ op: 'addValidationData', pdf, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  }

  /** {@link addDocumentTimestamp} (B-LTA) off the event loop. */
  async addDocumentTimestamp(pdf: Uint8Array, tsa: TimestampAuthority): Promise<{ pdf: Uint8Array; genTime: Date }> {
    return this.#run({ op: 'addDocumentTimestamp', pdf, tsa: { ...tsa } });
  }

  /** {@link findAnchors} with the parsing off the event loop. */
  async findAnchors(pdfs: readonly Uint8Array[], options: AnchorOptions, signal?: AbortSignal): Promise<AnchorMatch[]> {
    const search = toAnchorSearch(options);
    return searchAnchors(await this.extractText(pdfs, signal), search);
  }

  /** Terminates every thread; pending jobs reject. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.map((t) => (t ? t.worker.terminate() : Promise.resolve(0))));
  }

  #thread(i: number): Thread {
    const t = this.#threads[i];
    if (t && !t.dead) return t;
    const fresh = new Thread();
    this.#threads[i] = fresh;
    return fresh;
  }

  /** Runs `job` on thread `on`, by default the least busy one. */
  async #run<J extends ThreadJob>(job: J, signal?: AbortSignal, on?: number): Promise<ThreadResults[J['op']]> {
    if (this.#closed) throw new PdfError('CONVERTER_CLOSED');
    signal?.throwIfAborted();
    // The least busy thread (dead ones count as idle: they are replaced on pick).
    let best = on ?? 0;
    for (let i = 1; on === undefined && i < this.#threads.length; i++) {
      if ((this.#threads[i]?.pending.size ?? 0) < (this.#threads[best]?.pending.size ?? 0)) best = i;
    }
    const thread = this.#thread(best);
    // A ready thread gets the job synchronously, so an abort right after the call finds it posted.
    if (!thread.isReady) {
      await thread.ready.catch((err: unknown) => {
        throw new PdfError('CONVERSION_FAILED', 'The pdf worker thread could not start.', { cause: err });
      });
      signal?.throwIfAborted();
    }
    const id = this.#nextId++;
    // Marked dead at once: the next job must not be posted to a thread that is going away
    // (its 'exit' comes later, and would fail that job with "pdf thread exited").
    const onAbort = (): void => {
      thread.dead = true;
      void thread.worker.terminate();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await new Promise<ThreadResults[J['op']]>((resolve, reject) => {
        thread.pending.set(id, { resolve: resolve as Pending['resolve'], reject });
        const req: ThreadRequest = { ...job, id };
        thread.worker.postMessage(req);
      });
    } catch (err) {
      signal?.throwIfAborted();
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The warm-up's document: one page with a line of text, so text extraction runs its whole path. */
async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 100]);
  page.drawText('warm-up', { x: 10, y: 50, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}
