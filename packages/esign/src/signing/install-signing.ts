import { loadSignatureFont, PdfThreads, type SealIdentity } from '@signet/pdf';
import type { FastifyInstance } from 'fastify';
import { CompletionWorker } from '../completion/completion-worker.ts';
import { loadOrCreateDevSeal } from '../completion/dev-seal-identity.ts';
import type { EsignContext } from '../context.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import type { CompletionProblem } from '../domain/signing/completion-retry.ts';
import { buildNotificationMails } from '../reminders/notification-mails.ts';
import { registerSigningApiRoutes } from '../restapi/signing/signing-api-routes.ts';
import type { Repositories } from '../store/repositories.ts';
import { PageRenderer } from './page-renderer.ts';
import { registerRecipientViewRedeem } from './recipient-view-redeem.ts';
import { SIGNING_SCRIPT } from './signing-script.ts';
import { TAB_RULES_SCRIPT } from './tab-rules-script.ts';
import { SIGNING_STYLESHEET } from './signing-stylesheet.ts';
import { registerSigningRoutes } from './signing-routes.ts';

export type SigningModuleOptions = {
  /** The envelope use cases' ports (installEnvelopes returns them). */
  envelopes: EnvelopeDeps;
  /** The server's repositories (server.ts builds them once). */
  repositories: Pick<Repositories, 'envelopes' | 'signing' | 'audit' | 'completionFailures'>;
  /** The service's seal P12; default: a development seal generated once in DATA_DIR. */
  seal?: SealIdentity;
  /** Completion polling (tests go faster); a finishing signer also wakes it at once. */
  completionPollMs?: number;
  /** createRecipientView URL lifetime; DocuSign's is 5 minutes. */
  viewTtlMs?: number;
  /** The embedded signing session's lifetime. */
  sessionTtlMs?: number;
};

/**
 * CSP of the signing pages: the default (web/security-headers.ts) plus a same-origin script,
 * the signature font, and data: images (a drawn signature is previewed from the canvas).
 * No form-action: Chromium applies it to the redirect after Finish, which goes to the
 * integrator's returnUrl.
 */
/** The page's one script file: the tab rules, then the page's behaviour that uses them. */
export const SIGNING_JS = `${TAB_RULES_SCRIPT}\n${SIGNING_SCRIPT}`;

export const SIGNING_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Installs signing on a server: the ceremony pages under /signing, the REST routes
 * (views/recipient, audit_events, documents/combined|certificate), and the completion worker,
 * started when the server is ready and stopped when it closes. Called once, after
 * installEnvelopes; `signedDocumentSource` is what installEnvelopes' `signedDocumentPdf` takes.
 */
export function installSigning(app: FastifyInstance, ctx: EsignContext, options: SigningModuleOptions): { completion: CompletionWorker } {
  const { signing, audit, envelopes: tokens } = options.repositories;
  // Signature images are decoded (at Finish, to check them; at completion, to stamp them) on a
  // worker thread of their own, started on first use: decoding is synchronous and would stall
  // this event loop, and the pixel budget bounds what one image may cost.
  const images = new PdfThreads(1);
  let seal: Promise<SealIdentity> | undefined;
  // Signing requests expire an envelope whose time has passed before the scheduler does.
  const expiry = { random: options.envelopes.random, hashSecret: options.envelopes.hashSecret, mails: buildNotificationMails(ctx.config.publicUrl) };
  const senderOf = async (userId: string) => {
    const user = await ctx.store.accounts.findUserById(userId);
    return user ? { name: user.name, email: user.email } : undefined;
  };
  const completion = new CompletionWorker({
    envelopes: options.envelopes,
    signing,
    audit,
    failures: options.repositories.completionFailures,
    stamp: (pdf, stamps, stampOptions) => images.stampSignatures(pdf, stamps, stampOptions),
    drawValues: (pdf, stamps) => images.drawTabValues(pdf, stamps),
    publicUrl: ctx.config.publicUrl,
    seal: () => (seal ??= options.seal ? Promise.resolve(options.seal) : Promise.resolve().then(() => loadOrCreateDevSeal(ctx.config.dataDir))),
    senderOf,
    ...(options.completionPollMs !== undefined ? { pollIntervalMs: options.completionPollMs } : {}),
    onError: (err, envelopeId) => app.log.error({ err, envelopeId }, 'envelope completion failed'),
  });

  // An encapsulated scope: its onSend hook (the CSP below) applies to the signing pages only.
  void app.register((scope, _options, done) => {
    // Runs after the server-wide onSend hook, so this CSP replaces the default one here.
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', SIGNING_CSP);
    });
    let font: Promise<Uint8Array> | undefined;
    scope.get('/signing/assets/signing.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(SIGNING_JS));
    scope.get('/signing/assets/signing.css', async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(SIGNING_STYLESHEET));
    // The same font file the stamp uses: what the signer adopts is what the PDF shows.
    scope.get('/signing/assets/signature.otf', async (_request, reply) => reply.type('font/otf').header('cache-control', 'public, max-age=86400').send(Buffer.from(await (font ??= loadSignatureFont()))));
    registerRecipientViewRedeem(scope, { ctx, signing, sessionTtlMs: options.sessionTtlMs ?? 60 * 60_000 });
    registerSigningRoutes(scope, {
      ctx,
      envelopes: options.envelopes,
      lookup: { findSigningToken: (hash) => tokens.findSigningToken(hash), signing, now: ctx.now },
      signing,
      images,
      pages: new PageRenderer(),
      onSigned: () => completion.wake(),
      senderOf,
      expiry,
    });
    done();
  });
  registerSigningApiRoutes(app, { envelopes: options.envelopes, signing, audit, publicUrl: ctx.config.publicUrl, viewTtlMs: options.viewTtlMs ?? 5 * 60_000, expiry });

  app.addHook('onReady', (done) => {
    completion.start();
    done();
  });
  app.addHook('onClose', async () => {
    await completion.stop();
    await images.close();
  });
  return { completion };
}

/** Why a signed envelope is not completed yet, for installEnvelopes' `completionProblem`. */
export function completionProblemSource(repositories: Pick<Repositories, 'completionFailures'>): (envelopeId: string) => Promise<CompletionProblem | undefined> {
  return (envelopeId) => repositories.completionFailures.find(envelopeId);
}

/** The stamped document of a completed envelope, for installEnvelopes' `signedDocumentPdf`. */
export function signedDocumentSource(repositories: Pick<Repositories, 'signing'>): (envelopeId: string, documentId: string) => Promise<Uint8Array | undefined> {
  return (envelopeId, documentId) => repositories.signing.signedDocument(envelopeId, documentId);
}
