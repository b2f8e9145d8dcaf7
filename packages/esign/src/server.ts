import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { PdfThreads } from '@signet/pdf';
import Fastify, { type FastifyInstance, type FastifyServerFactory, type FastifyServerOptions } from 'fastify';
import { buildCompletionWorker } from './completion/build-completion-worker.ts';
import { storedCompletionResults } from './completion/stored-completion-results.ts';
import { authHostOf, type EsignConfig } from './config.ts';
import { registerAuthRoutes, type PasswordCheckLimits } from './console/auth-routes.ts';
import { registerConsoleRoutes } from './console/console-routes.ts';
import { registerConnectConsoleRoutes } from './console/connect-console-routes.ts';
import { buildConnect, type ConnectModuleOptions } from './connect/build-connect.ts';
import { installConnect } from './connect/install-connect.ts';
import type { EsignContext } from './context.ts';
import type { NotificationStepDeps } from './domain/notification/notification-step.ts';
import { buildMailDelivery } from './mail/build-mail-delivery.ts';
import type { OutboxWorkerOptions } from './mail/outbox-worker.ts';
import { registerOAuthRoutes } from './oauth/index.ts';
import { registerRestApi } from './restapi/index.ts';
import { installApiGuard } from './restapi/api-guard.ts';
import { DOCUSIGN_RATE_LIMITS } from './restapi/api-rate-limit.ts';
import type { PasswordHashCost } from './security/password-hash.ts';
import { buildEnvelopeDeps } from './restapi/envelopes/build-envelope-deps.ts';
import { installEnvelopes } from './restapi/envelopes/install-envelopes.ts';
import { installReminders } from './reminders/install-reminders.ts';
import { installBulkSend } from './bulk-send/install-bulk-send.ts';
import { BulkSendWorker } from './bulk-send/bulk-send-worker.ts';
import { buildNotificationMails } from './reminders/notification-mails.ts';
import { ReminderScheduler } from './reminders/reminder-scheduler.ts';
import type { EnvelopeConverter } from './restapi/envelopes/pdf-adapters.ts';
import { EsignError } from './errors.ts';
import { installSigning, type SigningSettings } from './signing/install-signing.ts';
import { buildConnectMessage } from './connect/build-connect-message.ts';
import { buildRepositories } from './store/repositories.ts';
import { installVerify, type VerifyOptions } from './verify/install-verify.ts';
import { EvidenceUpgrader } from './completion/evidence-upgrader.ts';
import { EvidenceWorker } from './completion/evidence-worker.ts';
import { registerTemplateConsoleRoutes } from './console/template-console-routes.ts';
import { registerEnvelopeConsoleRoutes } from './console/envelope-console-routes.ts';
import { registerAccountViewRoutes } from './restapi/views/account-view-routes.ts';
import { registerBrandRoutes } from './restapi/brands/brand-routes.ts';
import { registerAccountSettingsRoutes } from './restapi/account-settings-routes.ts';
import { installUserAdmin } from './restapi/users/install-user-admin.ts';
import { registerInvitationRoutes } from './console/invitation-routes.ts';
import { registerMembersConsoleRoutes } from './console/members-console-routes.ts';
import { installConsoleRights } from './console/console-rights.ts';
import { registerAccountCustomFieldRoutes } from './restapi/account-custom-field-routes.ts';
import { registerNotSupportedOperations } from './restapi/not-supported-operations.ts';
import { PageRenderer } from './signing/page-renderer.ts';
import type { Store } from './store/index.ts';
import { canonicalUrl } from './web/canonical-url.ts';
import { installFormLimit } from './web/form-limit.ts';
import { answerFrameworkError, installErrorHandling } from './web/error-handler.ts';
import { securityHeaders } from './web/security-headers.ts';
import { requestLogBindings } from './web/request-log-bindings.ts';
import { STYLESHEET } from './web/stylesheet.ts';
import { buildDevTextOutbox } from './mail/dev-text-outbox.ts';
import type { TextSender } from './mail/text-sender.ts';

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
  /**
   * The scrypt cost of what this server hashes (EsignContext.passwordHashCost): absent, as in
   * serve.ts, production's N=32768; tests pass a cheap one, their subject not being the hash.
   */
  passwordHashCost?: PasswordHashCost;
  /** Outbox worker tuning (tests poll faster). */
  mailWorker?: Partial<Pick<OutboxWorkerOptions, 'pollIntervalMs' | 'retry' | 'leaseMs' | 'batchSize'>>;
  /** Connect delivery worker tuning and DNS seam (tests retry fast). */
  connect?: ConnectModuleOptions;
  /** Reminder/expiry scheduler polling (default one minute); tests poll faster. */
  reminderPollMs?: number;
  /** Bulk send worker tuning (docs/esign-bulk-send.md); tests and the benchmark set them. */
  bulkSend?: { pollIntervalMs?: number; batchSize?: number; leaseMs?: number };
  /** The seal P12 (default: a development seal generated in DATA_DIR), completion and view timings. */
  signing?: SigningSettings;
  /** How many password checks a client may start (console/auth-routes.ts; tests use small ones). */
  passwordChecks?: PasswordCheckLimits;
  /** /verify limits (tests use small ones). */
  verify?: Omit<VerifyOptions, 'repositories'>;
  /** True once a graceful stop has begun (web/request-drain.ts): /health answers 503, responses close their connection. */
  draining?: () => boolean;
  /**
   * True while the instance still warms up what its first requests would otherwise pay for
   * (serve.ts: the pdf threads): /health answers 503 until then, so a balancer takes it only warm.
   */
  starting?: () => boolean;
  /** DocuSign's API limits per account (default 3,000 per hour, 500 per 30 s); tests lower them. */
  apiRateLimits?: { hourly: number; burst: number; burstWindowMs: number };
  /**
   * Where one-time passcodes sent by text message or voice call go (mail/text-sender.ts);
   * default: the development outbox, listed on the dev mailbox page. No real provider ships.
   */
  textSender?: TextSender;
};

const NOT_CONFIGURED = () => Promise.reject(new EsignError('SERVICE_UNAVAILABLE', 'Document conversion is not configured on this instance.'));
const NO_CONVERTER: EnvelopeConverter = { convert: NOT_CONFIGURED, extractText: NOT_CONFIGURED, readFormFields: NOT_CONFIGURED, removeFormFields: NOT_CONFIGURED };

// Documents arrive as base64 JSON (Document.documentBase64, docusign-esign src/model/Document.js);
// DocuSign takes ~25-32 MB per request (DocuSign "Rules and resource limits").
const BODY_LIMIT = 36 * 1024 * 1024;

/** The one place that wires the esign service: store, clock, routes, errors, headers. */
export async function buildEsignServer(config: EsignConfig, deps: EsignDeps): Promise<FastifyInstance> {
  const logger = deps.logger ?? false;
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    frameworkErrors: answerFrameworkError,
    // Paths are checked as text by several hooks: they must read the spelling the router matches.
    rewriteUrl: (req) => canonicalUrl(req.url ?? '/'),
    // Each request's lines carry the gateway's ids for it (docs/operations.md, "Logs").
    ...(logger === false ? {} : { childLoggerFactory: (parent, bindings, opts, raw) => parent.child({ ...bindings, ...requestLogBindings(raw.headers) }, opts) }),
    ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}),
  }) as unknown as FastifyInstance;
  const ctx: EsignContext = {
    config,
    store: deps.store,
    now: deps.now ?? (() => new Date()),
    authHost: authHostOf(config.publicUrl),
    secureCookies: config.publicUrl.startsWith('https:'),
    passwordHashCost: deps.passwordHashCost,
  };

  await app.register(cookie);
  await app.register(formbody);
  installFormLimit(app);
  installErrorHandling(app);
  const headers = securityHeaders(ctx.secureCookies);
  const draining = deps.draining ?? (() => false);
  const starting = deps.starting ?? (() => false);
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(headers);
    // Draining: the balancer's pooled connections to this instance end with this response.
    if (draining()) reply.header('connection', 'close');
  });

  app.get('/health', async (_request, reply) => {
    // A stopping instance leaves the balancer's rotation by failing its health check.
    if (draining()) return reply.code(503).header('cache-control', 'no-store').send({ status: 'draining' });
    if (starting()) return reply.code(503).header('cache-control', 'no-store').send({ status: 'starting' });
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

  registerAuthRoutes(app, ctx, deps.passwordChecks);
  // The permission profile's settings on the console's template, Connect and envelope pages (docs/esign-users.md).
  installConsoleRights(app, ctx);
  registerConsoleRoutes(app, ctx);
  registerOAuthRoutes(app, ctx);
  installApiGuard(app, ctx, { ...DOCUSIGN_RATE_LIMITS, ...deps.apiRateLimits });
  registerRestApi(app, ctx);
  // Every repository, worker and dependency is built once, here; the install* functions below
  // only register routes and start and stop what they are handed.
  // A commit wakes the workers that have new work: the mail outbox worker and the Connect
  // delivery worker (each instance runs its own; the others poll). Both are built below, before
  // any request can commit.
  const repositories = buildRepositories(ctx.store.db, {
    connectMessage: buildConnectMessage,
    sendAllowance: config.sendAllowance,
    onCommitted: (written) => {
      if (written.mails > 0) mail.worker.wake();
      if (written.connectDeliveries > 0) connect.worker.wake();
    },
  });
  const envelopes = buildEnvelopeDeps({ store: repositories.envelopes, brands: repositories.brands, accounts: repositories.accountSettings, accountFields: repositories.accountCustomFields, converter: deps.converter ?? NO_CONVERTER, publicUrl: config.publicUrl, now: ctx.now, passwordHashCost: ctx.passwordHashCost });
  const mail = buildMailDelivery({
    outbox: repositories.outbox,
    devMailbox: repositories.devMailbox,
    smtpUrl: config.smtpUrl,
    publicUrl: config.publicUrl,
    workerId: instanceWorkerId(),
    worker: {
      ...deps.mailWorker,
      // The row id finds it in mail_outbox (docs/operations.md); never the message, which may hold a signing link.
      onError: (err, item, outcome) => {
        const where = item ? { outboxId: item.id, kind: item.message.kind, envelopeId: item.message.envelopeId, attempts: item.attempts } : {};
        if (outcome === 'dead') app.log.error({ err, ...where }, 'mail dead: not retried; mail_outbox row left with status dead');
        else app.log.warn({ err, ...where, outcome }, 'mail delivery failed');
      },
    },
  });
  const connect = buildConnect(ctx, repositories, { ...deps.connect, onError: (err, delivery) => app.log.warn({ err, deliveryId: delivery?.id, url: delivery?.url }, 'connect delivery failed') });
  // Reminders, warnings and expiry are the same steps whether the scheduler or a signing request
  // (an envelope past its time that the scheduler has not reached) takes them.
  const notificationSteps: NotificationStepDeps = { random: envelopes.random, hashSecret: envelopes.hashSecret, mails: buildNotificationMails(config.publicUrl) };
  const reminders = new ReminderScheduler({
    store: envelopes.store,
    due: repositories.notifications,
    clock: ctx.now,
    ...notificationSteps,
    // Workflow holds that end (scheduled sending, delayed routing) reach recipients: their mails.
    notifier: envelopes.notifier,
    ...(deps.reminderPollMs !== undefined ? { pollIntervalMs: deps.reminderPollMs } : {}),
    onError: (err, envelopeId) => app.log.error({ err, envelopeId }, 'reminder/expiry step failed'),
  });
  // The sender's name and e-mail, for the certificate of completion and the decline mail.
  const senderOf = async (userId: string) => {
    const user = await ctx.store.accounts.findUserById(userId);
    return user ? { name: user.name, email: user.email } : undefined;
  };
  // Signature images are decoded (at Finish, to check them; at completion, to stamp them) on a
  // worker thread of their own, started on first use: decoding is synchronous and would stall
  // this event loop, and the pixel budget bounds what one image may cost.
  const images = new PdfThreads(1);
  // Evidence (docs/pdf.md): seals raised to SEAL_LEVEL at completion; what a failing TSA or
  // OCSP responder stops, and B-LTA renewals, the evidence worker does later. The steps run on
  // the pdf thread: each parses and appends to whole sealed files.
  const upgrader = new EvidenceUpgrader({ tsa: config.tsa, level: config.sealLevel }, images);
  const evidenceWorker = new EvidenceWorker({
    repository: repositories.evidence,
    upgrader,
    clock: ctx.now,
    ...(deps.signing?.evidencePollMs !== undefined ? { pollIntervalMs: deps.signing.evidencePollMs } : {}),
    onError: (err, envelopeId) => app.log.warn({ err, envelopeId }, 'evidence upgrade failed; retrying with backoff'),
    onUpgraded: (envelopeId, level) => app.log.info({ envelopeId, level }, 'sealed files upgraded'),
  });
  const completion = buildCompletionWorker({
    envelopes,
    repositories,
    evidence: {
      repository: repositories.evidence,
      upgrader,
      onDeferred: (envelopeId, err) => app.log.warn({ err, envelopeId }, `envelope completed below ${upgrader.target}: the upgrade is queued`),
    },
    images,
    seal: deps.signing?.seal,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    senderOf,
    pollIntervalMs: deps.signing?.completionPollMs,
    onError: (err, envelopeId) => app.log.error({ err, envelopeId }, 'envelope completion failed'),
  });

  // Connect: configuration routes and console pages, the delivery worker's lifecycle.
  installConnect(app, ctx, connect);
  registerConnectConsoleRoutes(app, ctx, connect);
  // Envelopes and templates routes, the mail outbox worker's lifecycle, dev mailbox.
  installEnvelopes(app, ctx, { envelopes, templates: repositories.templates, mail, completion: storedCompletionResults(repositories), checkListener: connect.checkListener });
  // Brands: AccountsApi's brand and logo calls (docs/esign-brands.md).
  registerBrandRoutes(app, { brands: repositories.brands, clock: ctx.now, uuid: randomUUID });
  // Account settings: AccountsApi.listSettings/updateSettings (docs/esign-account-settings.md).
  registerAccountSettingsRoutes(app, { settings: repositories.accountSettings, clock: ctx.now });
  // Users, groups, permission profiles (docs/esign-users.md); the invitation's page; the console's members page.
  installUserAdmin(app, ctx);
  registerInvitationRoutes(app, ctx);
  registerMembersConsoleRoutes(app, ctx);
  // The SDK operations not done here, each refused by name (docs/esign-account-operations.md, docs/esign-envelope-operations.md).
  registerNotSupportedOperations(app);
  // Account custom fields, which new envelopes inherit: AccountsApi's custom field calls (docs/esign-envelopes.md).
  registerAccountCustomFieldRoutes(app, { fields: repositories.accountCustomFields, accounts: repositories.accountSettings, clock: ctx.now });
  // The console's Templates pages: the API's template use cases, page images like the signing page's.
  const consolePages = new PageRenderer();
  registerTemplateConsoleRoutes(app, ctx, { templates: { templates: repositories.templates, envelopes }, pages: consolePages });
  // Sender, edit and console views: single-use URLs into the console's envelope page (docs/esign-views.md).
  registerAccountViewRoutes(app, { envelopes, views: repositories.accountViews, publicUrl: config.publicUrl, viewTtlMs: deps.signing?.viewTtlMs ?? 5 * 60_000 });
  registerEnvelopeConsoleRoutes(app, ctx, { envelopes, views: repositories.accountViews, pages: consolePages });
  // Bulk send: BulkEnvelopesApi and the worker that makes each row's envelope (docs/esign-bulk-send.md).
  const bulkWorker = new BulkSendWorker({
    bulk: repositories.bulkSend,
    envelopes,
    workerId: instanceWorkerId(),
    ...deps.bulkSend,
    onError: (err, row) => app.log.error({ err, batchId: row?.batchId, row: row?.row }, 'bulk send row failed; retried when its lease runs out'),
  });
  installBulkSend(app, { bulk: repositories.bulkSend, envelopes, worker: bulkWorker });
  // Reminders, expiration warnings and expiry: notification routes and the scheduler's lifecycle.
  installReminders(app, { envelopes, scheduler: reminders });
  // Signing pages, recipient views, audit trail, the completion worker's lifecycle.
  installSigning(app, ctx, {
    envelopes,
    repositories,
    completion,
    evidence: { worker: evidenceWorker, level: upgrader.target, tsaOrigin: config.tsa ? new URL(config.tsa.url).origin : undefined },
    images,
    senderOf,
    expiry: notificationSteps,
    texts: deps.textSender ?? buildDevTextOutbox(repositories.devMailbox, ctx.now),
    ...(deps.signing?.viewTtlMs !== undefined ? { viewTtlMs: deps.signing.viewTtlMs } : {}),
    ...(deps.signing?.sessionTtlMs !== undefined ? { sessionTtlMs: deps.signing.sessionTtlMs } : {}),
  });
  // /verify: anyone checks a sealed PDF against the files this deployment sealed.
  installVerify(app, { repositories, ...deps.verify });
  return app;
}

/** A name for this instance's claims on the shared queues (several instances share one outbox). */
function instanceWorkerId(): string {
  return `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
}
