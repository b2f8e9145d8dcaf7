import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { listenOnLoopback } from '@signet/kit/testing';
import { loadEsignConfig, type EsignConfig, type RawEsignSettings } from '../../src/config.ts';
import { buildEsignServer, type EsignDeps } from '../../src/server.ts';
import { openStore, storeLocation, type Store } from '../../src/store/index.ts';
import { createApp } from '../../src/use-cases/create-app.ts';
import { registerUser } from '../../src/use-cases/register-user.ts';
import { TEST_PASSWORD_HASH_COST } from './test-password-cost.ts';
import { FakeClock } from './fake-clock.ts';

/** A running esign on 127.0.0.1:0 with its own SQLite file, stopped in teardown. */
export type Harness = {
  app: FastifyInstance;
  store: Store;
  config: EsignConfig;
  clock: FakeClock;
  /** http(s)://127.0.0.1:PORT, also the PUBLIC_URL. */
  origin: string;
  dataDir: string;
};

/** What a test varies about the esign it starts. */
export type EsignOptions = {
  /** Serve https with this key pair (the SDK insists on https for OAuth). */
  readonly https?: { key: string; cert: string };
  /** Added to the environment the config is loaded from (SMTP_URL, DATABASE_URL, Connect allowances...). */
  readonly settings?: RawEsignSettings;
  /** What server.ts is wired with besides the store, clock and server (converter, worker tuning...). */
  readonly deps?: Omit<EsignDeps, 'store' | 'now' | 'serverFactory'>;
  /** The clock (default: a FakeClock at the real present). */
  readonly clock?: FakeClock;
};

/**
 * Starts esign for a test, with its own SQLite file (unless settings name DATABASE_URL). The
 * Node server listens on port 0 first, so PUBLIC_URL can name the real port (links, cookies'
 * Secure flag and the JWT `aud` all refer to it), and is handed to Fastify through
 * serverFactory. Everything is stopped and removed in teardown.
 */
export async function startEsign(t: TestContext, options: EsignOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-esign-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server: Server = options.https ? createHttpsServer(options.https) : createHttpServer();
  const port = await listenOnLoopback(server);
  const origin = `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`;
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: origin, PORT: String(port), ...options.settings }, dataDir);
  const store = await openStore(storeLocation(config));
  const clock = options.clock ?? new FakeClock();
  const app = await buildEsignServer(config, {
    // What this server hashes (sign-up, invitations, access codes, passcodes) at the seeded users' cost.
    passwordHashCost: TEST_PASSWORD_HASH_COST,
    ...options.deps,
    store,
    now: clock.now,
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

/** A user with an account, and an app with a secret, created through the same use cases as the CLI. */
export async function seedUserAndApp(h: Harness, input: { email?: string; password?: string; redirectUris?: string[]; rsaPublicKeyPem?: string } = {}) {
  const email = input.email ?? `user-${Math.random().toString(36).slice(2)}@example.com`;
  const password = input.password ?? 'correct horse battery';
  const user = await registerUser(h.store, { email, password, name: 'Ada Lovelace', now: h.clock.now(), passwordHashCost: TEST_PASSWORD_HASH_COST });
  const redirectUris = input.redirectUris ?? ['http://localhost:3000/callback'];
  const { app, secret } = await createApp(h.store, { userId: user.userId, name: 'Test app', redirectUris, rsaPublicKeyPem: input.rsaPublicKeyPem, withSecret: true, now: h.clock.now() });
  if (!secret) throw new Error('no secret');
  return { ...user, email, password, clientId: app.id, secret, redirectUris };
}

/**
 * A TestContext for servers shared by a whole file (started in `before`): what they register
 * with `after` runs, last first, when `close()` is called from the file's `after`.
 */
export function suiteContext(): { ctx: TestContext; close(): Promise<void> } {
  const cleanups: (() => unknown)[] = [];
  return {
    ctx: { after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as TestContext,
    async close() {
      for (const fn of cleanups.reverse()) await fn();
    },
  };
}

/** The user seedUserAndApp makes: the administrator of their own account, with an app. */
export type SeededUser = Awaited<ReturnType<typeof seedUserAndApp>>;

/**
 * A service shared by a whole file and a first user (an account administrator with an app),
 * started in `before` and stopped in `after`: read the fields inside tests, not at module level.
 */
export function sharedEsignWithAdmin(): { readonly h: Harness; readonly admin: SeededUser } {
  const suite = suiteContext();
  const shared = {} as { h: Harness; admin: SeededUser };
  before(async () => {
    shared.h = await startEsign(suite.ctx);
    shared.admin = await seedUserAndApp(shared.h);
  });
  after(() => suite.close());
  return shared;
}
