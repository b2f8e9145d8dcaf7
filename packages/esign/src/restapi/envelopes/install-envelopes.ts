import type { FastifyInstance } from 'fastify';
import type { CheckListener } from '../../connect/check-listener.ts';
import type { EsignContext } from '../../context.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import type { CompletionResults } from '../../domain/signing/completion-results.ts';
import type { TemplateStore } from '../../domain/templates/template-ports.ts';
import type { MailDelivery } from '../../mail/build-mail-delivery.ts';
import { devMailboxExposureWarning, registerDevMailboxRoutes } from '../../mail/dev-mailbox-routes.ts';
import { registerEnvelopeRoutes } from './envelope-routes.ts';
import { registerEnvelopeTabRoutes } from './envelope-tab-routes.ts';
import { registerWorkflowRoutes } from './workflow-routes.ts';
import { registerTemplateRoutes } from '../templates/template-routes.ts';
import { registerTemplateEnvelopeDefaultRoutes } from '../templates/template-envelope-default-routes.ts';
import { registerTemplateRecipientRoutes } from '../templates/template-recipient-routes.ts';
import { registerTemplateDocumentRoutes } from '../templates/template-document-routes.ts';
import { registerFolderRoutes } from '../folders/folder-routes.ts';
import { registerDraftDocumentRoutes } from '../documents/draft-document-routes.ts';
import { registerCustomFieldRoutes } from './custom-field-routes.ts';
import { registerRecipientRoutes } from './recipient-routes.ts';

/** What the envelope module is handed; server.ts builds each part once. */
export type EnvelopeModuleOptions = {
  /** The envelope use cases' ports. */
  envelopes: EnvelopeDeps;
  /** Templates an EnvelopeDefinition may name, and the template routes' store. */
  templates: TemplateStore;
  /** Mail delivery: the outbox worker (started and stopped here) and the dev mailbox. */
  mail: MailDelivery;
  /** Completion's output: stamped documents and why a signed envelope is not completed yet. */
  completion: CompletionResults;
  /** Connect's SSRF check of an envelope's eventNotification.url. */
  checkListener: CheckListener;
};

/**
 * Installs envelopes on a server: the Envelopes and Templates REST routes behind the Bearer
 * check, the outbox worker's lifecycle (started when the server is ready, stopped when it
 * closes), and the dev mailbox pages when SMTP_URL is unset. Called once from server.ts.
 */
export function installEnvelopes(app: FastifyInstance, ctx: EsignContext, options: EnvelopeModuleOptions): void {
  const { envelopes, templates, mail } = options;
  registerWorkflowRoutes(app, { envelopes });
  registerTemplateRoutes(app, { templates, envelopes });
  registerTemplateEnvelopeDefaultRoutes(app, { templates, envelopes });
  registerTemplateRecipientRoutes(app, { templates, envelopes });
  registerTemplateDocumentRoutes(app, { templates, envelopes });
  registerEnvelopeTabRoutes(app, envelopes);
  registerEnvelopeRoutes(app, { envelopes, templates, completion: options.completion, checkListener: options.checkListener });
  registerFolderRoutes(app, { envelopes, templates });
  registerDraftDocumentRoutes(app, { envelopes });
  registerCustomFieldRoutes(app, { envelopes });
  registerRecipientRoutes(app, envelopes);
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
}
