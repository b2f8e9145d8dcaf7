import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { listenOnLoopback } from '@signet/kit/testing';
import { loadEsignConfig } from '../../src/config.ts';
import type { EnvelopeConverter } from '../../src/restapi/envelopes/pdf-adapters.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import type { Harness } from './esign-harness.ts';
import { FakeClock } from './fake-clock.ts';

/** An esign with the envelope routes, the outbox worker and (without SMTP) the dev mailbox. */
export type EnvelopeHarness = Harness;

/**
 * Starts esign on 127.0.0.1:0 with a fresh SQLite file, a converter and (optionally) SMTP_URL:
 * envelope routes, the outbox worker (woken by every change that writes mail), and the dev
 * mailbox pages when `smtpUrl` is unset.
 */
export async function startEnvelopeEsign(t: TestContext, options: { converter: EnvelopeConverter; smtpUrl?: string }): Promise<EnvelopeHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-esign-env-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = createServer();
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), SMTP_URL: options.smtpUrl }, dataDir);
  const store = await openStore(storeLocation(config));
  const clock = new FakeClock();
  // The outbox worker runs on the real clock (its backoff must elapse for a poll to see it);
  // the fake clock only stamps envelopes, and never runs ahead of real time here.
  const app = await buildEsignServer(config, {
    store,
    now: clock.now,
    converter: options.converter,
    mailWorker: { pollIntervalMs: 50 },
    serverFactory: (handler) => {
      server.on('request', handler);
      return server;
    },
  });
  await app.ready();
  t.after(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    await store.close();
  });
  return { app, store, config, clock, origin, dataDir };
}
