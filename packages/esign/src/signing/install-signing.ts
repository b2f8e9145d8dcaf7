import { loadSignatureFont, type PdfThreads, type SealIdentity } from '@signet/pdf';
import { brandStylesheet, LOGO_PATH } from './brand-look.ts';
import type { FastifyInstance } from 'fastify';
import type { CompletionWorker } from '../completion/completion-worker.ts';
import type { EvidenceWorker } from '../completion/evidence-worker.ts';
import type { EsignContext } from '../context.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import type { NotificationStepDeps } from '../domain/notification/notification-step.ts';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';
import { frameOf } from '../web/framing.ts';
import { registerSigningApiRoutes } from '../restapi/signing/signing-api-routes.ts';
import type { Repositories } from '../store/repositories.ts';
import { PageRenderer } from './page-renderer.ts';
import { registerRecipientViewRedeem } from './recipient-view-redeem.ts';
import { FRAME_EVENTS_SCRIPT } from './frame-events-script.ts';
import { SIGNING_SCRIPT } from './signing-script.ts';
import { TAB_RULES_SCRIPT } from './tab-rules-script.ts';
import { SIGNING_STYLESHEET } from './signing-stylesheet.ts';
import { actorOf, registerSigningRoutes, type SigningRouteDeps } from './signing-routes.ts';
import { buildAccessGate, registerAccessCodeRoutes } from './access-code-gate.ts';
import { registerPasscodeRoutes } from './passcode-routes.ts';
import type { TextSender } from '../mail/text-sender.ts';

/** Signing's tuning: the seal and the timings tests shorten (EsignDeps.signing). */
export type SigningSettings = {
  /** The service's seal P12; default: a development seal generated once in DATA_DIR. */
  seal?: SealIdentity;
  /** Completion polling (tests go faster); a finishing signer also wakes it at once. */
  completionPollMs?: number;
  /** How often the evidence upgrade and renewal queues are polled (tests go faster; default 30 s). */
  evidencePollMs?: number;
  /** createRecipientView URL lifetime; DocuSign's is 5 minutes. */
  viewTtlMs?: number;
  /** The embedded signing session's lifetime. */
  sessionTtlMs?: number;
};

/** What the signing module is handed; server.ts builds each part once. */
export type SigningModuleOptions = Pick<SigningSettings, 'viewTtlMs' | 'sessionTtlMs'> & {
  /** The envelope use cases' ports. */
  envelopes: EnvelopeDeps;
  /** The server's repositories. */
  repositories: Pick<Repositories, 'envelopes' | 'signing' | 'audit' | 'accessGrants' | 'brands'>;
  /** The completion worker (started and stopped here; a finishing signer wakes it). */
  completion: CompletionWorker;
  /** The evidence worker (upgrades and renewals; started and stopped here) and the level it aims at, logged at start. */
  evidence: { worker: EvidenceWorker; level: string; tsaOrigin: string | undefined };
  /** The worker thread that decodes signature images (closed here, after the worker stops). */
  images: PdfThreads;
  /** The sender's name and e-mail, for the decline mail. */
  senderOf: SigningRouteDeps['senderOf'];
  /** Expires an envelope whose time has passed before the scheduler does. */
  expiry: NotificationStepDeps;
  /** Where one-time passcodes sent by text or call go. */
  texts: TextSender;
};

/**
 * CSP of the signing pages: the default (web/security-headers.ts) plus a same-origin script,
 * the signature font, and data: images (a drawn signature is previewed from the canvas).
 * No form-action: Chromium applies it to the redirect after Finish, which goes to the
 * integrator's returnUrl.
 */
/** The page's one script file: the tab rules, then the page's behaviour that uses them. */
export const SIGNING_JS = `${TAB_RULES_SCRIPT}\n${SIGNING_SCRIPT}`;

export const SIGNING_CSP = signingCsp(undefined);

/**
 * The signing CSP for a request: framed by nobody, or, for a focused view's session, by exactly
 * the origins its view named (parsed strictly in domain/signing/signing-frame.ts, so none can
 * add a directive). Never `*`.
 */
export function signingCsp(frame: SigningFrame | undefined): string {
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; frame-ancestors ${frame ? frame.ancestors.join(' ') : "'none'"}`;
}

/**
 * Installs signing on a server: the ceremony pages under /signing, the REST routes
 * (views/recipient, audit_events, documents/combined|certificate), and the lifecycle of the
 * completion worker server.ts built (started when the server is ready, stopped when it
 * closes). Called once from server.ts.
 */
export function installSigning(app: FastifyInstance, ctx: EsignContext, options: SigningModuleOptions): void {
  const { signing, audit, envelopes: tokens } = options.repositories;
  const { completion, images, senderOf, expiry } = options;

  // An encapsulated scope: its onSend hook (the CSP below) applies to the signing pages only.
  void app.register((scope, _options, done) => {
    // Runs after the server-wide onSend hook, so this CSP replaces the default one here.
    scope.addHook('onSend', async (request, reply) => {
      const frame = frameOf(request);
      reply.header('content-security-policy', signingCsp(frame));
      // X-Frame-Options has no list of origins; CSP frame-ancestors says who may frame instead.
      if (frame) reply.removeHeader('x-frame-options');
    });
    let font: Promise<Uint8Array> | undefined;
    scope.get('/signing/assets/signing.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(SIGNING_JS));
    scope.get('/signing/assets/frame-events.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(FRAME_EVENTS_SCRIPT));
    scope.get('/signing/assets/signing.css', async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(SIGNING_STYLESHEET));
    // The same font file the stamp uses: what the signer adopts is what the PDF shows.
    scope.get('/signing/assets/signature.otf', async (_request, reply) => reply.type('font/otf').header('cache-control', 'public, max-age=86400').send(Buffer.from(await (font ??= loadSignatureFont()))));
    // Brands: the colours' stylesheet (a pure function of its path) and logo images by content.
    scope.get<{ Params: { key: string } }>('/signing/assets/brand/:key', async (request, reply) => {
      const css = request.params.key.endsWith('.css') ? brandStylesheet(request.params.key.slice(0, -4)) : undefined;
      if (css === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=86400, immutable').send(css);
    });
    scope.get<{ Params: { sha256: string } }>(`${LOGO_PATH}:sha256`, async (request, reply) => {
      const image = /^[0-9a-f]{64}$/.test(request.params.sha256) ? await options.repositories.brands.logoImage(request.params.sha256) : undefined;
      if (!image) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      // Checked to be a whole PNG, JPEG or GIF when uploaded (domain/brands/check-logo.ts) and
      // served as exactly that type (nosniff and the signing CSP come with every response here).
      return reply.type(image.mediaType).header('content-disposition', 'inline; filename="logo"').header('cache-control', 'public, max-age=31536000, immutable').send(Buffer.from(image.bytes));
    });
    registerRecipientViewRedeem(scope, { ctx, signing, sessionTtlMs: options.sessionTtlMs ?? 60 * 60_000 });
    const lookup = { findSigningToken: (hash: string) => tokens.findSigningToken(hash), signing, now: ctx.now };
    // Signers with an access code type it before anything of the envelope shows.
    const access = buildAccessGate(ctx, options.repositories.accessGrants);
    registerAccessCodeRoutes(scope, { ctx, envelopes: options.envelopes, lookup, grants: options.repositories.accessGrants, gate: access, grantTtlMs: options.sessionTtlMs ?? 60 * 60_000, actorOf });
    // Then the one-time passcode (SMS, phone, e-mail), when the sender asked for one.
    registerPasscodeRoutes(scope, {
      ctx, envelopes: options.envelopes, lookup, grants: options.repositories.accessGrants, gate: access, texts: options.texts, grantTtlMs: options.sessionTtlMs ?? 60 * 60_000, actorOf,
      onSendError: (err, envelopeId) => app.log.warn({ err, envelopeId }, 'passcode text could not be sent'),
    });
    registerSigningRoutes(scope, {
      ctx,
      envelopes: options.envelopes,
      lookup,
      access,
      signing,
      images,
      pages: new PageRenderer(),
      onSigned: () => completion.wake(),
      senderOf,
      expiry,
      audit,
    });
    done();
  });
  registerSigningApiRoutes(app, { envelopes: options.envelopes, signing, audit, publicUrl: ctx.config.publicUrl, viewTtlMs: options.viewTtlMs ?? 5 * 60_000, expiry });

  app.addHook('onReady', (done) => {
    // docs/pdf.md: which PAdES level seals reach here, and why.
    const { level, tsaOrigin } = options.evidence;
    // `sealLevel`, not `level`: pino's own field is `level`, and a second one breaks the line.
    if (tsaOrigin) app.log.info({ sealLevel: level, tsa: tsaOrigin }, `seals are raised to PAdES ${level} with the TSA at TSA_URL`);
    else app.log.info({ sealLevel: level }, 'seals are PAdES B-B: TSA_URL is unset, so no trusted time or long-term validation data');
    completion.start();
    options.evidence.worker.start();
    done();
  });
  app.addHook('onClose', async () => {
    await completion.stop();
    await options.evidence.worker.stop();
    await images.close();
  });
}

