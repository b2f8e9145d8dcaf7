import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { listenOnLoopback } from '@signet/kit/testing';
import { extractText, validatePdf } from '@signet/pdf';
import { loadEsignConfig } from '../../src/config.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, type Harness } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';

export const DAY_S = 86_400;

/**
 * esign with a real SMTP peer, a fake clock and fast polling. The clock starts 60 days in the
 * past and the tests only move it forward up to the real present: the outbox worker runs on
 * the real clock and sends a mail once its due time (the fake time it was written at) has
 * passed, so fake time must never run ahead of real time.
 */
export async function startReminderEsign(t: TestContext, smtpUrl: string, options: { reminderPollMs?: number } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-reminders-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = createServer();
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), SMTP_URL: smtpUrl }, dataDir);
  const store = await openStore(storeLocation(config));
  const clock = new FakeClock(Date.now() - 60 * DAY_S * 1000);
  const app = await buildEsignServer(config, {
    store,
    now: clock.now,
    // PDFs pass through (no LibreOffice/Chromium): these tests are about time, not documents.
    converter: { convert: ({ bytes }) => validatePdf(bytes).then(() => bytes), extractText },
    mailWorker: { pollIntervalMs: 50 },
    reminderPollMs: options.reminderPollMs ?? 50,
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
  const h: Harness = { app, store, config, clock, origin, dataDir };
  const seed = await seedUserAndApp(h);
  /** A fresh access token: tokens live 8 hours of (fake) time, and the tests skip days. */
  const token = async () => {
    const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
    return (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  };
  const base = `${origin}/restapi/v2.1/accounts/${seed.accountId}/envelopes`;
  /** A REST call as the SDK makes it, with a token fresh for the current fake time. */
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const { access_token } = await token();
    const res = await request(`${base}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.body.text();
    return { status: res.statusCode, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  return { h, seed, clock, base, call, token };
}

/** A one-page PDF, base64. */
export async function onePagePdf(): Promise<string> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  return Buffer.from(await pdf.save()).toString('base64');
}
