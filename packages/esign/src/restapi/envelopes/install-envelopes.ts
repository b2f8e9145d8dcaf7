import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { CheckListener } from '../../connect/check-listener.ts';
import type { EsignContext } from '../../context.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { buildMailDelivery, type MailDelivery } from '../../mail/build-mail-delivery.ts';
import { devMailboxExposureWarning, registerDevMailboxRoutes } from '../../mail/dev-mailbox-routes.ts';
import type { OutboxWorkerOptions } from '../../mail/outbox-worker.ts';
import type { Repositories } from '../../store/repositories.ts';
import { buildEnvelopeDeps } from './build-envelope-deps.ts';
import { registerEnvelopeRoutes, type EnvelopeRouteDeps } from './envelope-routes.ts';
import { registerTemplateRoutes } from '../templates/template-routes.ts';
import { registerTemplateRecipientRoutes } from '../templates/template-recipient-routes.ts';
import { registerTemplateDocumentRoutes } from '../templates/template-document-routes.ts';
import type { EnvelopeConverter } from './pdf-adapters.ts';

/** What the envelope module needs beyond the server context. */
export type EnvelopeModuleOptions = {
  /** The server's repositories (server.ts builds them once). */
  repositories: Pick<Repositories, 'envelopes' | 'outbox' | 'devMailbox' | 'templates'>;
  /** Documents → PDF (the pdf package's buildConverter); the caller owns and closes it. */
  converter: EnvelopeConverter;
  /** Outbox worker tuning (tests poll faster). */
  worker?: Partial<Pick<OutboxWorkerOptions, 'pollIntervalMs' | 'retry' | 'leaseMs' | 'batchSize'>>;
  /** Completed documents with their signatures (signing/install-signing.ts signedDocumentSource). */
  signedDocumentPdf?: (envelopeId: string, documentId: string) => Promise<Uint8Array | undefined>;
  /** Why a signed envelope is not completed yet (signing/install-signing.ts completionProblemSource). */
  completionProblem?: EnvelopeRouteDeps['completionProblem'];
  /** Connect's SSRF check of an envelope's eventNotification.url. */
  checkListener?: CheckListener;
};

/**
 * Installs envelopes on a server: the REST routes behind the Bearer check, mail delivery (an
 * outbox worker per instance, started when the server is ready and stopped when it closes),
 * and the dev mailbox pages when SMTP_URL is unset. Called once from server.ts.
 */
export function installEnvelopes(app: FastifyInstance, ctx: EsignContext, options: EnvelopeModuleOptions): { envelopes: EnvelopeDeps; mail: MailDelivery } {
  const mail = buildMailDelivery({
    outbox: options.repositories.outbox,
    devMailbox: options.repositories.devMailbox,
    smtpUrl: ctx.config.smtpUrl,
    publicUrl: ctx.config.publicUrl,
    // Several instances share one outbox; the id fences each one's claims.
    workerId: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    worker: {
      ...options.worker,
      // The row id finds it in mail_outbox (docs/operations.md); never the message, which may hold a signing link.
      onError: (err, item, outcome) => {
        const where = item ? { outboxId: item.id, kind: item.message.kind, envelopeId: item.message.envelopeId, attempts: item.attempts } : {};
        if (outcome === 'dead') app.log.error({ err, ...where }, 'mail dead: not retried; mail_outbox row left with status dead');
        else app.log.warn({ err, ...where, outcome }, 'mail delivery failed');
      },
    },
  });
  const envelopes = buildEnvelopeDeps({ store: options.repositories.envelopes, converter: options.converter, publicUrl: ctx.config.publicUrl, now: ctx.now });
  registerTemplateRoutes(app, { templates: options.repositories.templates, envelopes });
  registerTemplateRecipientRoutes(app, { templates: options.repositories.templates, envelopes });
  registerTemplateDocumentRoutes(app, { templates: options.repositories.templates, envelopes });
  registerEnvelopeRoutes(app, { envelopes, templates: options.repositories.templates, ...(options.signedDocumentPdf ? { signedDocumentPdf: options.signedDocumentPdf } : {}), ...(options.completionProblem ? { completionProblem: options.completionProblem } : {}), ...(options.checkListener ? { checkListener: options.checkListener } : {}) });
  if (mail.devMailbox) {
    registerDevMailboxRoutes(app, mail.devMailbox);
    const warning = devMailboxExposureWarning(ctx.config.publicUrl);
    if (warning !== undefined) app.log.warn(warning);
  }
  app.addHook('onReady', (done) => {
    mail.worker.start();
    done();
  });
  app.addHook('onClose', async () => {
    await mail.worker.stop();
    await mail.transport.close();
  });
  return { envelopes, mail };
}
