import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerFactory, type FastifyServerOptions } from 'fastify';
import { authHostOf, type EsignConfig } from './config.ts';
import { registerAuthRoutes } from './console/auth-routes.ts';
import { registerConsoleRoutes } from './console/console-routes.ts';
import { registerConnectConsoleRoutes } from './console/connect-console-routes.ts';
import { installConnect, type ConnectModuleOptions } from './connect/install-connect.ts';
import type { EsignContext } from './context.ts';
import { registerOAuthRoutes } from './oauth/index.ts';
import { registerRestApi } from './restapi/index.ts';
import { installApiGuard } from './restapi/api-guard.ts';
import { DOCUSIGN_RATE_LIMITS } from './restapi/api-rate-limit.ts';
import { installEnvelopes, type EnvelopeModuleOptions } from './restapi/envelopes/install-envelopes.ts';
import { installReminders } from './reminders/install-reminders.ts';
import type { EnvelopeConverter } from './restapi/envelopes/pdf-adapters.ts';
import { EsignError } from './errors.ts';
import { completionProblemSource, installSigning, signedDocumentSource, type SigningModuleOptions } from './signing/install-signing.ts';
import { buildConnectMessage } from './connect/build-connect-message.ts';
import { buildRepositories } from './store/repositories.ts';
import { registerTemplateConsoleRoutes } from './console/template-console-routes.ts';
import { PageRenderer } from './signing/page-renderer.ts';
import type { Store } from './store/index.ts';
import { answerFrameworkError, installErrorHandling } from './web/error-handler.ts';
import { securityHeaders } from './web/security-headers.ts';
import { STYLESHEET } from './web/stylesheet.ts';

/** What the server is wired with; everything with I/O comes in here. */
export type EsignDeps = {
  store: Store;
  /** The clock (default: the system's). Tests inject one to expire codes and tokens. */
  now?: () => Date;
  /**
   * Supplies the Node server (Fastify's serverFactory): tests pass one already listening on
   * 127.0.0.1:0, or an https one for the SDK, which insists on https for OAuth.
   */
  serverFactory?: FastifyServerFactory;
  /** Fastify/pino logger options; false (default) logs nothing. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Documents → PDF (the pdf package's buildConverter; the caller owns and closes it). Without
   * one, creating an envelope answers SERVICE_UNAVAILABLE; the other routes work.
   */
  converter?: EnvelopeConverter;
  /** Outbox worker tuning (tests poll faster). */
  mailWorker?: EnvelopeModuleOptions['worker'];
  /** Connect delivery worker tuning and DNS seam (tests retry fast). */
  connect?: ConnectModuleOptions;
  /** Reminder/expiry scheduler polling (default one minute); tests poll faster. */
  reminderPollMs?: number;
  /** The seal P12 (default: a development seal generated in DATA_DIR), completion and view timings. */
  signing?: Omit<SigningModuleOptions, 'envelopes' | 'repositories'>;
  /** True once a graceful stop has begun (web/request-drain.ts): /health answers 503, responses close their connection. */
  draining?: () => boolean;
  /** DocuSign's API limits per account (default 3,000 per hour, 500 per 30 s); tests lower them. */
  apiRateLimits?: { hourly: number; burst: number; burstWindowMs: number };
};

const NO_CONVERTER: EnvelopeConverter = {
  convert: () => Promise.reject(new EsignError('SERVICE_UNAVAILABLE', 'Document conversion is not configured on this instance.')),
  extractText: () => Promise.reject(new EsignError('SERVICE_UNAVAILABLE', 'Document conversion is not configured on this instance.')),
};

// Documents arrive as base64 JSON (Document.documentBase64, docusign-esign src/model/Document.js);
// DocuSign takes ~25-32 MB per request (DocuSign "Rules and resource limits").
const BODY_LIMIT = 36 * 1024 * 1024;

/** The one place that wires the esign service: store, clock, routes, errors, headers. */
export async function buildEsignServer(config: EsignConfig, deps: EsignDeps): Promise<FastifyInstance> {
  const logger = deps.logger ?? false;
  const app = Fastify({ logger, bodyLimit: BODY_LIMIT, frameworkErrors: answerFrameworkError, ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}) }) as unknown as FastifyInstance;
  const ctx: EsignContext = {
    config,
    store: deps.store,
    now: deps.now ?? (() => new Date()),
    authHost: authHostOf(config.publicUrl),
    secureCookies: config.publicUrl.startsWith('https:'),
  };

  await app.register(cookie);
  await app.register(formbody);
  installErrorHandling(app);
  const headers = securityHeaders(ctx.secureCookies);
  const draining = deps.draining ?? (() => false);
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(headers);
    // Draining: the balancer's pooled connections to this instance end with this response.
    if (draining()) reply.header('connection', 'close');
  });

  app.get('/health', async (_request, reply) => {
    // A stopping instance leaves the balancer's rotation by failing its health check.
    if (draining()) return reply.code(503).header('cache-control', 'no-store').send({ status: 'draining' });
    try {
      await ctx.store.db.ping();
      return await reply.header('cache-control', 'no-store').send({ status: 'ok' });
    } catch (err) {
      app.log.warn({ err }, 'health: database unreachable');
      return reply.code(503).header('cache-control', 'no-store').send({ status: 'unavailable' });
    }
  });
  app.get('/assets/signet.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET));

  registerAuthRoutes(app, ctx);
  registerConsoleRoutes(app, ctx);
  registerOAuthRoutes(app, ctx);
  installApiGuard(app, ctx, { ...DOCUSIGN_RATE_LIMITS, ...deps.apiRateLimits });
  registerRestApi(app, ctx);
  // Every repository once. A commit wakes the workers that have new work: the mail outbox
  // worker and the Connect delivery worker (each instance runs its own; the others poll).
  const wake: { mails?: () => void; connect?: () => void } = {};
  const repositories = buildRepositories(ctx.store.db, {
    connectMessage: buildConnectMessage,
    onCommitted: (written) => {
      if (written.mails > 0) wake.mails?.();
      if (written.connectDeliveries > 0) wake.connect?.();
    },
  });
  // Connect: configuration routes, HMAC keys, the delivery worker.
  const connect = installConnect(app, ctx, repositories, deps.connect);
  wake.connect = () => connect.worker.wake();
  registerConnectConsoleRoutes(app, ctx, connect);
  // Envelopes routes, the mail outbox worker (started on ready, stopped on close), dev mailbox.
  const { envelopes, mail } = installEnvelopes(app, ctx, { repositories, converter: deps.converter ?? NO_CONVERTER, ...(deps.mailWorker ? { worker: deps.mailWorker } : {}), signedDocumentPdf: signedDocumentSource(repositories), completionProblem: completionProblemSource(repositories), checkListener: connect.checkListener });
  wake.mails = () => mail.worker.wake();
  // The console's Templates pages: the API's template use cases, page images like the signing page's.
  registerTemplateConsoleRoutes(app, ctx, { templates: { templates: repositories.templates, envelopes }, pages: new PageRenderer() });
  // Reminders, expiration warnings and expiry: notification routes and the scheduler.
  installReminders(app, ctx, { envelopes, notifications: repositories.notifications, ...(deps.reminderPollMs !== undefined ? { pollIntervalMs: deps.reminderPollMs } : {}) });
  // Signing pages, recipient views, audit trail, completion worker.
  installSigning(app, ctx, { envelopes, repositories, ...deps.signing });
  return app;
}
