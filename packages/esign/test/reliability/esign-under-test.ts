// An esign on 127.0.0.1:0 wired exactly as server.ts wires it (envelope routes, outbox worker,
// real converter when given), with its log lines captured so tests can grep them, plus a
// signed-in integration (access token) and row counts of every envelope table.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { TestContext } from 'node:test';
import { sql } from 'kysely';
import { listenOnLoopback } from '@signet/kit/testing';
import { loadEsignConfig } from '../../src/config.ts';
import type { EnvelopeConverter } from '../../src/restapi/envelopes/pdf-adapters.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, type Harness } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';

export type EsignUnderTest = Harness & {
  /** Every log line the server wrote (pino JSON, level info and above). */
  logs: string[];
};

export async function startEsignUnderTest(
  t: TestContext,
  options: { converter?: EnvelopeConverter; smtpUrl?: string; https?: { key: string; cert: string }; apiRateLimits?: { hourly: number; burst: number; burstWindowMs: number } } = {},
): Promise<EsignUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-rel-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = options.https ? createHttpsServer(options.https) : createHttpServer();
  const port = await listenOnLoopback(server);
  const origin = `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), SMTP_URL: options.smtpUrl }, dataDir);
  const store = await openStore(storeLocation(config));
  const clock = new FakeClock();
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
      callback();
    },
  });
  const app = await buildEsignServer(config, {
    store,
    now: clock.now,
    // The same level the CLI's `serve` logs at (cli.ts), so what we grep is what operators keep.
    logger: { level: 'info', stream },
    ...(options.converter ? { converter: options.converter } : {}),
    mailWorker: { pollIntervalMs: 50 },
    ...(options.apiRateLimits ? { apiRateLimits: options.apiRateLimits } : {}),
    serverFactory: (handler) => {
      server.on('request', handler);
      return server;
    },
  });
  await app.ready();
  t.after(async () => {
    // Idle keep-alive sockets first: otherwise close waits out the client's keep-alive (up to
    // Fastify's 72 s) on a server handed over through serverFactory.
    server.closeIdleConnections();
    const closing = app.close();
    server.closeAllConnections();
    await closing;
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    await store.close();
  });
  return { app, store, config, clock, origin, dataDir, logs };
}

/** A user, an app, and an access token obtained through the real code flow. */
export async function signedInIntegration(h: Harness) {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const answer = await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret });
  const { access_token: token } = answer.json() as { access_token: string };
  if (!token) throw new Error(`no access token: ${answer.text}`);
  return { ...seed, token };
}

export const ENVELOPE_TABLES = ['envelopes', 'envelope_documents', 'envelope_recipients', 'envelope_tabs', 'signing_tokens', 'mail_outbox'] as const;

/** Row counts of the envelope tables: equal before and after a refused request = nothing half-written. */
export async function envelopeRowCounts(h: Harness): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ENVELOPE_TABLES) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(h.store.db.kysely);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}
