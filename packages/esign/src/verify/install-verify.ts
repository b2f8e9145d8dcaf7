import { boundaryOf, dispositionParams, MultipartError, parseMultipart } from '@signet/kit';
import { PdfThreads, type PdfInspection } from '@signet/pdf';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Repositories } from '../store/repositories.ts';
import { clientIp } from '../web/client-ip.ts';
import { AdmissionLimiter } from '../web/admission-limiter.ts';
import { verifyPage } from './verify-page.ts';
import { summarise, verdictOf, type EnvelopeSummary } from './verify-verdict.ts';
import type { Language } from '../domain/language/languages.ts';

export type VerifyOptions = {
  repositories: Pick<Repositories, 'evidence' | 'envelopes' | 'audit' | 'accountSettings'>;
  /** Largest file accepted (default 25 MB: the largest sealed file the service makes is its documents plus the certificate). */
  maxBytes?: number;
  /**
   * Requests per client per minute (default 20; a client is an IPv4 address or an IPv6 /64),
   * and requests in flight at once, uploading or being checked (default 8, at most 2 per client).
   */
  perMinute?: number;
  inFlight?: number;
  /** Per file, then its thread is terminated (default 10 s). */
  timeoutMs?: number;
  /** Where files are parsed: a pdf worker thread of its own unless given (tests pin that it is used). */
  threads?: PdfThreads;
};

type Problem = { status: number; errorCode: string; message: string; retryAfterS?: number };

const SEND_A_PDF = 'Send a PDF: a form field named "file", or the PDF itself as application/pdf.';

const wantsJson = (request: FastifyRequest) => /application\/json/i.test(String(request.headers.accept ?? '')) && !/text\/html/i.test(String(request.headers.accept ?? ''));

/**
 * `/verify`, open to anyone: GET shows an upload form; POST takes a PDF (a multipart form's
 * `file`, or the raw body as application/pdf) and answers whether this deployment sealed it,
 * intact, and for which envelope (HTML, or JSON with Accept: application/json). The file is
 * hashed and its signatures checked on a pdf worker thread with a deadline; the hash alone
 * decides whether it is ours (docs/pdf.md, "Verification"). Bounded by size, a per-client
 * rate and places in flight taken before the body is read, so hostile uploads can take
 * neither the CPU nor the memory (docs/esign-signing.md, "Verification page").
 */
export function installVerify(app: FastifyInstance, options: VerifyOptions): void {
  const maxBytes = options.maxBytes ?? 25 * 1024 * 1024;
  const maxMb = Math.round(maxBytes / (1024 * 1024));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const limiter = new AdmissionLimiter({ perWindow: options.perMinute ?? 20, windowMs: 60_000, inFlight: options.inFlight ?? 8 });
  const admitted = new WeakMap<FastifyRequest, () => void>();
  const threads = options.threads ?? new PdfThreads(1);
  const { evidence, envelopes, audit, accountSettings } = options.repositories;

  // A file this deployment sealed: its envelope's summary, as its account chose to show it
  // (audit-trail IPs hidden or hashed) and in its account's language.
  const known = async (sha256: string): Promise<{ summary: EnvelopeSummary; language: Language } | undefined> => {
    const match = await evidence.findBySha256(sha256);
    if (!match) return undefined;
    const envelope = await envelopes.find(match.accountId, match.envelopeId);
    if (!envelope) return undefined;
    const policy = await accountSettings.verifyPolicy(match.accountId);
    return { summary: summarise(envelope, await audit.list(match.envelopeId), policy), language: policy.language ?? 'en' };
  };

  const tooLarge: Problem = { status: 413, errorCode: 'FILE_TOO_LARGE', message: `The file is larger than ${maxMb} MB; no file this service seals is that large.` };
  const fail = (request: FastifyRequest, reply: FastifyReply, p: Problem) => {
    if (p.retryAfterS !== undefined) void reply.header('retry-after', String(p.retryAfterS));
    void reply.code(p.status).header('cache-control', 'no-store');
    return wantsJson(request) ? reply.send({ errorCode: p.errorCode, message: p.message }) : reply.type('text/html; charset=utf-8').send(verifyPage({ maxMb, error: p.message }));
  };

  void app.register((scope, _opts, done) => {
    // Admitted (rate, places in flight) before the body is read: a refused upload is answered
    // at once and never buffered, so repeated 25 MB bodies cost nothing but their headers.
    scope.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'POST') return;
      const client = clientIp(request.socket.remoteAddress, request.headers['x-forwarded-for']) ?? 'unknown';
      const slot = limiter.admit(client);
      if (!slot.ok) {
        // The unread body is not worth keeping the connection for.
        void reply.header('connection', 'close');
        return slot.reason === 'rate'
          ? fail(request, reply, { status: 429, errorCode: 'TOO_MANY_REQUESTS', message: 'Too many documents checked from your address; try again in a minute.', retryAfterS: slot.retryAfterS })
          : fail(request, reply, { status: 503, errorCode: 'BUSY', message: 'The service is checking other documents; try again in a moment.', retryAfterS: slot.retryAfterS });
      }
      admitted.set(request, slot.release);
    });
    // A response, or a client that went away mid-upload: either frees its place (once).
    const release = (request: FastifyRequest) => {
      admitted.get(request)?.();
      admitted.delete(request);
    };
    scope.addHook('onResponse', (request, _reply, done) => {
      release(request);
      done();
    });
    scope.addHook('onRequestAbort', (request, done) => {
      release(request);
      done();
    });

    // The body may be a little over maxBytes (multipart framing); the file itself is checked below.
    const bodyLimit = maxBytes + 64 * 1024;
    // A browser's form sends one part; a few are allowed, and the scan stops there (see parseMultipart).
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (request: FastifyRequest, body: Buffer | string, done: (err: Error | null, body?: unknown) => void) => {
      try {
        const bytes = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
        const part = parseMultipart(bytes, boundaryOf(request.headers['content-type']), 4, 'form fields').find((p) => dispositionParams(p.headers.get('content-disposition')).get('name') === 'file');
        done(null, { file: part ? new Uint8Array(part.body) : undefined });
      } catch (err) {
        if (err instanceof MultipartError) done(null, { formError: err.message });
        else done(err instanceof Error ? err : new Error(String(err)));
      }
    });
    scope.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit }, (_request: FastifyRequest, body: Buffer | string, done: (err: Error | null, body?: unknown) => void) => done(null, { file: new Uint8Array(typeof body === 'string' ? Buffer.from(body, 'latin1') : body) }));

    // What Fastify refuses before the handler (a body past the limit, announced or sent; a
    // content type without a parser; a body that cannot be read) in /verify's own shape.
    scope.setErrorHandler((err: { statusCode?: number; code?: string }, request, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(request, reply, tooLarge);
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return fail(request, reply, { status: 415, errorCode: 'UNSUPPORTED_MEDIA_TYPE', message: SEND_A_PDF });
      if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) return fail(request, reply, { status: 400, errorCode: 'BAD_REQUEST', message: `The upload could not be read. ${SEND_A_PDF}` });
      request.log.error({ err }, 'verify failed');
      return fail(request, reply, { status: 500, errorCode: 'UNSPECIFIED_ERROR', message: 'The file could not be checked; try again later.' });
    });

    scope.get('/verify', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(verifyPage({ maxMb })));

    scope.post('/verify', { bodyLimit }, async (request, reply) => {
      const { file, formError } = (request.body as { file?: Uint8Array; formError?: string } | undefined) ?? {};
      if (formError !== undefined) return fail(request, reply, { status: 400, errorCode: 'BAD_FORM', message: `The form could not be read: ${formError}` });
      if (!file || file.byteLength === 0) return fail(request, reply, { status: 400, errorCode: 'NO_FILE', message: SEND_A_PDF });
      if (file.byteLength > maxBytes) return fail(request, reply, tooLarge);
      if (Buffer.from(file.subarray(0, 1024)).indexOf('%PDF-') < 0) return fail(request, reply, { status: 400, errorCode: 'NOT_A_PDF', message: 'The file is not a PDF.' });
      let inspection: PdfInspection;
      try {
        // The deadline is for the file, not for starting the thread (the first one loads pdf.js).
        await threads.warmUp();
        inspection = await threads.inspectSignatures(file, AbortSignal.timeout(timeoutMs));
      } catch (err) {
        request.log.info({ err }, 'verify: the file could not be checked');
        return fail(request, reply, { status: 422, errorCode: 'UNREADABLE_PDF', message: 'The file could not be checked: it is damaged, or too complex to check in time.' });
      }
      const found = await known(inspection.sha256);
      const verdict = verdictOf(inspection, found?.summary, found?.language);
      void reply.header('cache-control', 'no-store');
      return wantsJson(request) ? reply.send(verdict) : reply.type('text/html; charset=utf-8').send(verifyPage({ maxMb, verdict }));
    });
    done();
  });
  app.addHook('onClose', async () => {
    await threads.close();
  });
}
