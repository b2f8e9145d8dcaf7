import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createDevSealP12, type Converter } from '@signet/pdf';
import { listenOnLoopback } from '@signet/kit/testing';
import type { ConnectModuleOptions } from '../../src/connect/install-connect.ts';
import { loadEsignConfig, type RawEsignSettings } from '../../src/config.ts';
import { buildEsignServer } from '../../src/server.ts';
import { openStore, storeLocation } from '../../src/store/index.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, type Harness } from '../support/esign-harness.ts';
import { FakeClock } from '../support/fake-clock.ts';

export type ConnectHarness = Harness & {
  accountId: string;
  userId: string;
  email: string;
  password: string;
  token: string;
  api(method: string, path: string, body?: unknown): Promise<Response>;
};

const SEAL = createDevSealP12({ commonName: 'Signet Connect test seal' });

/**
 * esign on 127.0.0.1:0 as server.ts wires it (envelopes, signing, Connect), a fresh SQLite file,
 * mail to the dev mailbox, `settings` added to the environment (the Connect allowances), the
 * Connect worker tuned by `connect`, and a user whose bearer token `api` sends.
 */
export async function startConnectEsign(t: TestContext, options: { converter: Converter; settings?: RawEsignSettings; connect?: ConnectModuleOptions }): Promise<ConnectHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-connect-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = createHttpServer();
  const port = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), ...options.settings }, dataDir);
  const store = await openStore(storeLocation(config));
  // The fake clock only stamps envelopes; the workers' backoff runs on real time.
  const clock = new FakeClock();
  const app = await buildEsignServer(config, {
    store,
    now: clock.now,
    serverFactory: (handler) => server.on('request', handler),
    converter: options.converter,
    mailWorker: { pollIntervalMs: 50 },
    signing: { seal: SEAL, completionPollMs: 50 },
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

/** One POST a listener received: the raw body exactly as sent, and the headers. */
export type Received = { path: string; headers: IncomingHttpHeaders; raw: string; status: number };

/** A Connect listener on 127.0.0.1:0 that records every POST and answers what `answer` says. */
export async function startListener(t: TestContext, answer: (path: string, index: number) => number): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const status = answer(path, received.filter((r) => r.path === path).length);
      received.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  const port = await listenOnLoopback(server);
  t.after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${port}`, received };
}
