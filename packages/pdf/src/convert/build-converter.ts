import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PdfError } from '../pdf-error.ts';
import { documentKind, normalizeExtension } from './document-kind.ts';
import { HtmlConverter, type PaperFormat } from './html-converter.ts';
import { OfficeConverter } from './office-converter.ts';
import { DEFAULT_OFFICE_PATHS, type OfficePaths } from './office-worker.ts';
import { detectNetworkSandbox } from './detect-network-sandbox.ts';
import { WorkQueue, type Job } from './work-queue.ts';
import { assertHtmlBytes, resolveOfficeFormat, type OfficeFormat } from './detect-document-format.ts';
import type { AnchorOptions } from '../anchor/anchor-options.ts';
import type { DocumentText } from '../anchor/page-text.ts';
import type { AnchorMatch } from '../anchor/search-anchors.ts';
import { PdfThreads } from '../threads/pdf-threads.ts';
import type { FormField } from '../form/read-form-fields.ts';

export type ConverterOptions = {
  /** Warm LibreOffice workers, one profile each (~150 MB RSS apiece). Default 2. */
  officeWorkers?: number;
  /** Reused Chromium pages. Default 2. */
  htmlPages?: number;
  /** Per-document deadline, counted from when its conversion starts. Default 60 s. */
  timeoutMs?: number;
  /** Largest accepted input. Default 25 MB, DocuSign's per-file recommendation (its "File limitations" page). */
  maxBytes?: number;
  /** Largest total a docx/odt may declare for its unpacked parts. Default 200 MB: zip bombs stop here. */
  maxInflatedBytes?: number;
  /** Paper for html documents. Default Letter, DocuSign's default page size. */
  paper?: PaperFormat;
  /** Parent of the converter's scratch directory. Default the OS temp dir. */
  tmpDir?: string;
  /** LibreOffice and python3-uno locations (Debian's by default). */
  officePaths?: OfficePaths;
  /**
   * Run soffice in a network namespace of its own (`unshare --net`) when the machine allows
   * it, so no document can make it reach the network. Default true (falls back silently).
   */
  isolateOfficeNetwork?: boolean;
  /** 'cold' runs `soffice --convert-to` per document (the benchmark's baseline). Default 'warm'. */
  officeMode?: 'warm' | 'cold';
  /** Worker threads for pdf.js/pdf-lib parsing (validation, anchor search). Default 1. */
  pdfThreads?: number;
  /**
   * Documents one tenant may have waiting per engine before the next is refused (CONVERTER_BUSY).
   * Default 256: five envelopes of 50 documents at once (one request converts all its documents
   * together), and past that an account waits minutes anyway. Tenants are served in turn whatever this is.
   */
  maxWaitingPerTenant?: number;
};

/**
 * Whose work it is: an engine's waiting jobs are served tenant by tenant in turn, so one
 * account's burst of documents cannot starve another's (work-queue.ts). Absent: the shared ''.
 */
export type WorkOwner = { tenant?: string };


/** One document to turn into PDF. */
export type ConvertInput = {
  bytes: Uint8Array;
  fileExtension: string;
  /** Overrides the converter's per-document deadline for this document. */
  timeoutMs?: number;
} & WorkOwner;

/** Counters for operators and tests. */
export type ConverterStats = {
  officeColdFallbacks: number;
  htmlBlockedRequests: number;
  /** soffice runs without network (`unshare --net`). */
  officeNetworkIsolated: boolean;
  running: number;
  waiting: number;
};

/** Documents in, PDF out. Knows nothing of envelopes. */
export interface Converter {
  /** Converts (or, for pdf, validates) one document; throws {@link PdfError}. */
  convert(input: ConvertInput): Promise<Uint8Array>;
  /** Starts LibreOffice and Chromium now rather than on the first document. */
  warmUp(): Promise<void>;
  /**
   * Starts the pdf threads now (each loads pdf.js and pdf-lib): without it a server's first PDF
   * waits for them, seconds on a loaded machine.
   */
  warmUpPdfThreads(): Promise<void>;
  /** {@link extractText} on the converter's pdf threads, off the event loop. */
  extractText(pdfs: readonly Uint8Array[], owner?: WorkOwner): Promise<DocumentText[]>;
  /** {@link findAnchors} on the converter's pdf threads, off the event loop. */
  findAnchors(pdfs: readonly Uint8Array[], options: AnchorOptions, owner?: WorkOwner): Promise<AnchorMatch[]>;
  /** {@link readFormFields} on the converter's pdf threads (transformPdfFields). */
  readFormFields(pdf: Uint8Array, owner?: WorkOwner): Promise<FormField[]>;
  /** {@link removeFormFields} on the converter's pdf threads. */
  removeFormFields(pdf: Uint8Array, options?: { flatten?: readonly string[] } & WorkOwner): Promise<Uint8Array>;
  /** Page count of a readable, unencrypted PDF ({@link validatePdf} off the event loop). */
  pageCount(pdf: Uint8Array): Promise<number>;
  /** soffice.bin pids of the live warm workers. */
  officeWorkerPids(): Promise<number[]>;
  stats(): ConverterStats;
  /** Stops every process and removes the scratch directory. */
  close(): Promise<void>;
}

/**
 * Builds the converter: html/htm through warm Chromium, docx/doc/odt/rtf/txt through warm
 * LibreOffice, pdf validated (on a worker thread) and passed through. Each engine has its own bounded queue, so a
 * burst of docx never starves html; the heavy work runs in child processes, off Node's thread.
 */
export async function buildConverter(options: ConverterOptions = {}): Promise<Converter> {
  const officeWorkers = options.officeWorkers ?? 2;
  const htmlPages = options.htmlPages ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxBytes = options.maxBytes ?? 25 * 1024 * 1024;
  const maxInflatedBytes = options.maxInflatedBytes ?? 200 * 1024 * 1024;
  const scratch = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'signet-pdf-'));

  const paths = options.officePaths ?? DEFAULT_OFFICE_PATHS;
  const sandbox = paths.sandbox ?? (options.isolateOfficeNetwork === false ? undefined : detectNetworkSandbox());
  const office = new OfficeConverter({
    workers: officeWorkers,
    tmpDir: scratch,
    coldOnly: options.officeMode === 'cold',
    paths: { ...paths, sandbox },
  });
  const html = new HtmlConverter({ paper: options.paper ?? 'Letter' });
  const pdfThreads = options.pdfThreads ?? 1;
  const threads = new PdfThreads(pdfThreads);
  const fairness = { maxWaitingPerTenant: options.maxWaitingPerTenant ?? 256 };
  const queues = {
    office: new WorkQueue(officeWorkers, fairness),
    html: new WorkQueue(htmlPages, fairness),
    pdf: new WorkQueue(pdfThreads, fairness),
  };
  let closed = false;
  // Reading a PDF's pages costs what its content streams hold, not what its file weighs (a
  // 28 KB file of shared streams took minutes of the pdf thread): reads run in the pdf queue
  // under the same deadline as a conversion, which ends the thread that overruns it.
  const readPdf = <T>(job: Job<T>, owner: WorkOwner | undefined): Promise<T> => queues.pdf.run(job, timeoutMs, 'PDF', owner?.tenant);

  return {
    async convert({ bytes, fileExtension, timeoutMs: deadline = timeoutMs, tenant }) {
      if (closed) throw new PdfError('CONVERTER_CLOSED');
      const kind = documentKind(fileExtension);
      if (bytes.byteLength > maxBytes) {
        throw new PdfError('DOCUMENT_TOO_LARGE', `It is ${bytes.byteLength} bytes; the limit is ${maxBytes}.`);
      }
      if (bytes.byteLength === 0) throw new PdfError('CORRUPT_DOCUMENT', 'It is empty.');
      switch (kind) {
        case 'pdf':
          return queues.pdf.run(async (signal) => {
            await threads.validate(bytes, signal);
            return bytes;
          }, deadline, 'pdf', tenant);
        case 'html':
          assertHtmlBytes(bytes);
          return queues.html.run((signal) => html.convert(bytes, signal), deadline, 'html document', tenant);
        case 'office': {
          const ext = normalizeExtension(fileExtension) as OfficeFormat;
          // From the bytes, not the name: zip bombs are refused under any name, and LibreOffice
          // gets the import filter of what the document really is.
          const format = resolveOfficeFormat(bytes, ext, { maxInflatedBytes });
          return queues.office.run((signal) => office.convert(bytes, format, signal), deadline, `${ext} document`, tenant);
        }
      }
    },
    async warmUp() {
      await Promise.all([office.warmUp(), html.warmUp(), threads.warmUp()]);
    },
    warmUpPdfThreads: () => threads.warmUp(),
    extractText: (pdfs, owner) => readPdf((signal) => threads.extractText(pdfs, signal), owner),
    findAnchors: (pdfs, anchor, owner) => readPdf((signal) => threads.findAnchors(pdfs, anchor, signal), owner),
    readFormFields: (pdf, owner) => readPdf((signal) => threads.readFormFields(pdf, signal), owner),
    removeFormFields: (pdf, opts) => readPdf((signal) => threads.removeFormFields(pdf, { flatten: opts?.flatten ?? [] }, signal), opts),
    pageCount: (pdf) => threads.validate(pdf),
    officeWorkerPids: () => office.workerPids(),
    stats: () => ({
      officeColdFallbacks: office.coldFallbacks,
      htmlBlockedRequests: html.blockedRequests,
      officeNetworkIsolated: sandbox !== undefined,
      running: queues.office.running + queues.html.running + queues.pdf.running,
      waiting: queues.office.waiting + queues.html.waiting + queues.pdf.waiting,
    }),
    async close() {
      if (closed) return;
      closed = true;
      for (const q of Object.values(queues)) q.close();
      await Promise.allSettled([office.close(), html.close(), threads.close()]);
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
