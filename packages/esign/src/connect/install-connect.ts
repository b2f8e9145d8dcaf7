import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import type { ConnectModule } from './build-connect.ts';
import { registerConnectRoutes } from './connect-routes.ts';

/**
 * Installs Connect on a server: the ConnectApi routes behind the Bearer check, and the delivery
 * worker server.ts built (started when the server is ready, stopped when it closes). Called once
 * from server.ts.
 */
export function installConnect(app: FastifyInstance, ctx: EsignContext, connect: ConnectModule): void {
  const { repository, checkListener, worker } = connect;
  registerConnectRoutes(app, { repository, checkListener, now: ctx.now, wake: () => worker.wake() });
  app.addHook('onReady', (done) => {
    worker.start();
    done();
  });
  app.addHook('onClose', async () => {
    await worker.stop();
  });
}
