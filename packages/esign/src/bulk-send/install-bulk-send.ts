import type { FastifyInstance } from 'fastify';
import type { BulkSendDeps } from '../domain/bulk-send/bulk-ports.ts';
import { registerBulkSendRoutes } from './bulk-send-routes.ts';
import type { BulkSendWorker } from './bulk-send-worker.ts';

/**
 * Installs bulk send (docs/esign-bulk-send.md): BulkEnvelopesApi's routes behind the API guard,
 * and this instance's worker (started when the server is ready, stopped when it closes).
 * Called once from server.ts.
 */
export function installBulkSend(app: FastifyInstance, deps: BulkSendDeps & { worker: BulkSendWorker }): void {
  registerBulkSendRoutes(app, { ...deps, wake: () => deps.worker.wake() });
  app.addHook('onReady', (done) => {
    deps.worker.start();
    done();
  });
  app.addHook('onClose', async () => {
    await deps.worker.stop();
  });
}
