import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Converter } from '@signet/pdf';
import { listenOnLoopback } from '@signet/kit/testing';
import { authHostOf, loadEsignConfig } from '../../src/config.ts';
import type { EsignContext } from '../../src/context.ts';
import type { EnvelopeDeps } from '../../src/domain/envelope/ports.ts';
import { buildMailDelivery, type MailDelivery } from '../../src/mail/build-mail-delivery.ts';
import { registerDevMailboxRoutes } from '../../src/mail/dev-mailbox-routes.ts';
import { accountAccess, bearerAuth } from '../../src/restapi/bearer-auth.ts';
import { buildEnvelopeDeps } from '../../src/restapi/envelopes/build-envelope-deps.ts';
import { registerEnvelopeRoutes } from '../../src/restapi/envelopes/envelope-routes.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, runMigrations, storeLocation } from '../../src/store/index.ts';
import { ALL_MIGRATIONS } from './envelope-db.ts';
import type { Harness } from './esign-harness.ts';
import { FakeClock } from './fake-clock.ts';

/** An esign with the envelope routes, the outbox worker and (without SMTP) the dev mailbox. */
export type EnvelopeHarness = Harness & { envelopes: EnvelopeDeps; mail: MailDelivery };

/**
 * Starts esign on 127.0.0.1:0 with a fresh SQLite file, wired like server.ts will be once the
 * envelope module joins it: envelope routes behind the Bearer check, the outbox worker running
 * (woken by every change that writes mail), the dev mailbox pages when `smtpUrl` is unset.
 */
export async function startEnvelopeEsign(t: TestContext, options: { converter: Pick<Converter, 'convert'>; smtpUrl?: string }): Promise<EnvelopeHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-esign-env-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = createServer();
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), SMTP_URL: options.smtpUrl }, dataDir);
  const store = await openStore(storeLocation(config));
  await runMigrations(store.db.kysely, store.db.engine, { migrations: ALL_MIGRATIONS });
  // The mail clock is real: the worker's backoff must elapse in real time for the poll to see it.
  const clock = new FakeClock();
  const mail = buildMailDelivery({ db: store.db, smtpUrl: config.smtpUrl, publicUrl: config.publicUrl, workerId: `test-${port}`, worker: { pollIntervalMs: 50 } });
  const envelopes = buildEnvelopeDeps({ db: store.db, converter: options.converter, publicUrl: config.publicUrl, now: clock.now, onMails: () => mail.worker.wake() });
  const app = await buildEsignServer(config, {
    store,
    now: clock.now,
    serverFactory: (handler) => {
      server.on('request', handler);
      return server;
    },
  });
  const ctx: EsignContext = { config, store, now: clock.now, authHost: authHostOf(config.publicUrl), secureCookies: false };
  registerEnvelopeRoutes(app, { envelopes, preHandler: [bearerAuth(ctx), accountAccess(ctx)] });
  if (mail.devMailbox) registerDevMailboxRoutes(app, mail.devMailbox);
  await app.ready();
  mail.worker.start();
  t.after(async () => {
    await mail.worker.stop();
    await mail.transport.close();
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    await store.close();
  });
  return { app, store, config, clock, origin, dataDir, envelopes, mail };
}
