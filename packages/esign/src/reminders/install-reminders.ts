import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import type { NotificationRepository } from '../store/notification-repository.ts';
import { buildNotificationMails } from './notification-mails.ts';
import { registerNotificationRoutes } from './notification-routes.ts';
import { ReminderScheduler } from './reminder-scheduler.ts';

export type RemindersModuleOptions = {
  /** The envelope use cases' ports (installEnvelopes returns them); their store wakes the outbox. */
  envelopes: EnvelopeDeps;
  /** Reminder and expiry due times (the server's repository). */
  notifications: NotificationRepository;
  /** Scheduler polling (default one minute; tests go faster). */
  pollIntervalMs?: number;
};

/**
 * Installs reminders and expiration: the notification routes behind the Bearer
 * check, and a scheduler per instance on the server's clock, started when the server is
 * ready and stopped when it closes. Called once from server.ts, after installEnvelopes.
 */
export function installReminders(app: FastifyInstance, ctx: EsignContext, options: RemindersModuleOptions): { scheduler: ReminderScheduler } {
  registerNotificationRoutes(app, { envelopes: options.envelopes });
  const scheduler = new ReminderScheduler({
    store: options.envelopes.store,
    due: options.notifications,
    clock: ctx.now,
    random: options.envelopes.random,
    hashSecret: options.envelopes.hashSecret,
    mails: buildNotificationMails(ctx.config.publicUrl),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    onError: (err, envelopeId) => app.log.error({ err, envelopeId }, 'reminder/expiry step failed'),
  });
  app.addHook('onReady', (done) => {
    scheduler.start();
    done();
  });
  app.addHook('onClose', async () => {
    await scheduler.stop();
  });
  return { scheduler };
}
