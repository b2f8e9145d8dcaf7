import type { FastifyInstance } from 'fastify';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { registerNotificationRoutes } from './notification-routes.ts';
import type { ReminderScheduler } from './reminder-scheduler.ts';

/** What the reminders module is handed; server.ts builds each part once. */
export type RemindersModuleOptions = {
  /** The envelope use cases' ports. */
  envelopes: EnvelopeDeps;
  /** The reminder and expiry scheduler of this instance (started and stopped here). */
  scheduler: ReminderScheduler;
};

/**
 * Installs reminders and expiration: the notification routes behind the Bearer check, and the
 * scheduler's lifecycle (started when the server is ready, stopped when it closes). Called once
 * from server.ts.
 */
export function installReminders(app: FastifyInstance, options: RemindersModuleOptions): void {
  registerNotificationRoutes(app, { envelopes: options.envelopes });
  app.addHook('onReady', (done) => {
    options.scheduler.start();
    done();
  });
  app.addHook('onClose', async () => {
    await options.scheduler.stop();
  });
}
