import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { createDevSealP12, type Converter } from '@signet/pdf';
import { listenOnLoopback } from '@signet/kit/testing';
import type { ConnectModuleOptions } from '../../src/connect/install-connect.ts';
import { loadEsignConfig, type RawEsignSettings } from '../../src/config.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, type Harness } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';

export type SigningHarness = Harness & {
  accountId: string;
  userId: string;
  email: string;
  password: string;
  /** The user's OAuth access token (for the docusign-esign SDK). */
  token: string;
  /** JSON (or bytes) from the REST API with the user's bearer token. */
  api(method: string, path: string, body?: unknown): Promise<Response>;
};

/** One seal per process: RSA key generation is the slow part. */
const SEAL = createDevSealP12({ commonName: 'Signet signing test seal' });

export type SigningEsignOptions = {
  readonly converter: Converter;
  /** Where mail goes; absent → the dev mailbox. */
  readonly smtpUrl?: string;
  /** Added to the environment the config is loaded from (e.g. the Connect allowances). */
  readonly settings?: RawEsignSettings;
  /** Connect worker tuning and DNS stand-in (server.ts EsignDeps.connect). */
  readonly connect?: ConnectModuleOptions;
  readonly completionPollMs?: number;
};

/**
 * esign on 127.0.0.1:0 as server.ts wires it (envelopes, signing, Connect), a fresh SQLite
 * file, and a user whose bearer token `api` sends.
 */
export async function startSigningEsign(t: TestContext, options: SigningEsignOptions): Promise<SigningHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-signing-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = createServer();
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}), ...options.settings }, dataDir);
  const store = await openStore(storeLocation(config));
  // The fake clock is never moved here: timestamps are real enough, and the outbox backoff,
  // the completion poll and Connect retries run on real timers.
  const clock = new FakeClock();
  const app = await buildEsignServer(config, {
    store,
    now: clock.now,
    serverFactory: (handler) => server.on('request', handler),
    converter: options.converter,
    mailWorker: { pollIntervalMs: 50 },
    signing: { seal: SEAL, completionPollMs: options.completionPollMs ?? 100 },
    ...(options.connect ? { connect: options.connect } : {}),
  });
  await app.ready();
  t.after(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    await store.close();
  });
  const h: Harness = { app, store, config, clock, origin, dataDir };
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${origin}/restapi/v2.1/accounts/${seed.accountId}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  return { ...h, accountId: seed.accountId, userId: seed.userId, email: seed.email, password: seed.password, token, api };
}

/** A Letter PDF of `pages` pages with a heading on each (the tabs sit on blank areas). */
export async function samplePdf(pages: number, title = 'Service agreement'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title} - page ${i}`, { x: 72, y: 720, size: 18, font, color: rgb(0, 0, 0) });
    page.drawText('Signature:', { x: 72, y: 262, size: 11, font });
  }
  return doc.save();
}

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
