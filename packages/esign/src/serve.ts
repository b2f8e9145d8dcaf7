// `signet-esign serve`: the server with its store, converter and seal, the hourly sweep of
// expired rows, and a stop that drains the traffic first. Loaded by cli.ts for serve only.
import { buildConverter } from '@signet/pdf';
import { stopWithParent } from '@signet/kit';
import type { EsignConfig } from './config.ts';
import { loadSealIdentity } from './completion/load-seal-identity.ts';
import { buildEsignServer } from './server.ts';
import { RequestDrain } from './web/request-drain.ts';
import { RECIPIENT_VIEW_RETENTION_MS } from './signing/recipient-view-redeem.ts';
import { openStore, storeLocation } from './store/index.ts';
import { SigningRepository } from './store/signing-repository.ts';
import { AccountViewsRepository } from './store/account-views-repository.ts';
import { AccessGrantsRepository } from './store/access-grants-repository.ts';
import { ACCOUNT_VIEW_RETENTION_MS } from './console/envelope-console-routes.ts';

/**
 * A stop waits until the traffic has stopped: quiet for a second (the gateway's active check
 * needs about that to see the 503, and npm start's supervisor marks the target unhealthy at
 * once), at most 8 s (within the supervisor's 10 s grace before SIGKILL).
 */
const DRAIN = { quietMs: 1000, maxMs: 8_000 };

/** Serves until SIGTERM/SIGINT (or, supervised, until the supervisor is gone). */
export async function serve(config: EsignConfig, supervised: boolean): Promise<void> {
  // The configured seal, checked first; without one, completion generates a development seal in DATA_DIR.
  const seal = config.sealP12File ? await loadSealIdentity(config.sealP12File, config.sealP12Passphrase ?? '') : undefined;
  const store = await openStore(storeLocation(config));
  // LibreOffice and Chromium start on the first document that needs them, not here. The pdf
  // threads start now, alongside the rest of the start-up: every envelope's documents pass
  // through them (validation, text for anchors and page sizes), and a first envelope that had to
  // start them took seconds, while a stop or a rolling restart waited for it. /health answers
  // 503 until they are up (docs/operations.md).
  const converter = await buildConverter();
  const warmStart = performance.now();
  let warm = false;
  const warming = converter.warmUpPdfThreads();
  warming.catch(() => undefined);
  const drain = new RequestDrain(DRAIN);
  const app = await buildEsignServer(config, { store, converter, logger: { level: 'info' }, draining: () => drain.draining, starting: () => !warm, ...(seal ? { signing: { seal } } : {}) });
  drain.track(app.server);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: draining (health answers 503 until the traffic stops)');
    // Then Fastify's close waits for the workers' passes in progress (outbox, completion, Connect, reminders).
    void drain.drain()
      .then(({ waitedMs, inFlight }) => app.log.info({ waitedMs, inFlight }, 'drained; closing'))
      .then(() => app.close()).then(() => converter.close()).then(() => store.close()).then(() => process.exit(0), () => process.exit(1));
  };
  // Expired tokens, codes, sessions, login failures, sign-up links, recipient, sender and console views, signing sessions and access grants are
  // useless; sweep them hourly. unref: never keeps the process alive, and an error only logs
  // (the next sweep retries).
  const signingRows = new SigningRepository(store.db);
  const accountViews = new AccountViewsRepository(store.db);
  const accessGrants = new AccessGrantsRepository(store.db);
  const sweep = setInterval(() => {
    const now = new Date();
    Promise.all([store.oauth.purgeExpired(now), store.sessions.purgeExpired(now), store.loginFailures.purgeExpired(now), store.signups.purgeExpired(now), signingRows.purgeExpired(now, RECIPIENT_VIEW_RETENTION_MS), accountViews.purgeExpired(now, ACCOUNT_VIEW_RETENTION_MS), accessGrants.purgeExpired(now)])
      .then(([oauth, sessions, loginFailures, signups, signing, views, grants]) => app.log.info({ ...oauth, sessions, loginFailures, signups, ...signing, accountViews: views, accessGrants: grants }, 'purged expired rows'))
      .catch((err: unknown) => app.log.warn({ err }, 'purge of expired rows failed'));
  }, 3_600_000);
  sweep.unref();
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Under npm start's supervisor (its own process group): stop when the supervisor is gone.
  if (supervised) stopWithParent(() => stop('supervisor gone'));
  await app.listen({ port: config.port, host: config.host });
  try {
    await warming;
    app.log.info({ warmUpMs: Math.round(performance.now() - warmStart) }, 'warm: pdf threads started; /health answers 200 from now');
  } catch (err) {
    // They are started again on first use; an instance that cannot run them still serves the rest.
    app.log.error({ err, warmUpMs: Math.round(performance.now() - warmStart) }, 'warm-up failed: the pdf threads start on first use');
  }
  warm = true;
}
