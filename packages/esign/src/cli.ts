import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { authHostOf, EsignConfigError, loadEsignConfig, type EsignConfig } from './config.ts';
import { EsignError } from './errors.ts';
import { buildConverter } from '@signet/pdf';
import { PrivatePathError, STOP_WITH_PARENT_ENV, stopWithParent } from '@signet/kit';
import { loadSealIdentity } from './completion/load-seal-identity.ts';
import { buildEsignServer } from './server.ts';
import { RequestDrain } from './web/request-drain.ts';
import { RECIPIENT_VIEW_RETENTION_MS } from './signing/recipient-view-redeem.ts';
import { openStore, storeLocation } from './store/index.ts';
import { SigningRepository } from './store/signing-repository.ts';
import { AccountViewsRepository } from './store/account-views-repository.ts';
import { AccessGrantsRepository } from './store/access-grants-repository.ts';
import { ACCOUNT_VIEW_RETENTION_MS } from './console/envelope-console-routes.ts';
import { createApp } from './use-cases/create-app.ts';
import { retryCompletion } from './use-cases/retry-completion.ts';
import { CompletionFailuresRepository } from './store/completion-failures-repository.ts';
import { registerUser } from './use-cases/register-user.ts';
import { normalizeEmail } from './domain/email-address.ts';

const USAGE = `usage:
  signet-esign serve                      (env: PORT, HOST, PUBLIC_URL, DATA_DIR, DATABASE_URL, SMTP_URL, SEAL_P12_FILE, SEAL_P12_PASSPHRASE, TSA_URL, TSA_USERNAME, TSA_PASSWORD, SEAL_LEVEL)
  signet-esign user create --email E --password P --name N
  signet-esign app create --user E --name N --redirect-uri U [--redirect-uri U2] [--rsa-public-key FILE]
  signet-esign completion list            (signed envelopes whose completion failed, given-up ones first)
  signet-esign completion retry --envelope ID [--by NAME]`;

/**
 * A stop waits until the traffic has stopped: quiet for a second (the gateway's active check
 * needs about that to see the 503, and npm start's supervisor marks the target unhealthy at
 * once), at most 8 s (within the supervisor's 10 s grace before SIGKILL).
 */
const DRAIN = { quietMs: 1000, maxMs: 8_000 };

/** A command-line mistake: printed with the usage, exit 2. */
class UsageError extends Error {}

async function serve(config: EsignConfig, supervised: boolean): Promise<void> {
  // The configured seal, checked first; without one, completion generates a development seal in DATA_DIR.
  const seal = config.sealP12File ? await loadSealIdentity(config.sealP12File, config.sealP12Passphrase ?? '') : undefined;
  const store = await openStore(storeLocation(config));
  // LibreOffice and Chromium start on the first document that needs them, not here.
  const converter = await buildConverter();
  const drain = new RequestDrain(DRAIN);
  const app = await buildEsignServer(config, { store, converter, logger: { level: 'info' }, draining: () => drain.draining, ...(seal ? { signing: { seal } } : {}) });
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
}

async function userCreate(config: EsignConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } }, strict: true });
  if (!values.email || !values.password || !values.name) throw new UsageError('user create needs --email, --password and --name');
  const store = await openStore(storeLocation(config));
  try {
    return await registerUser(store, { email: values.email, password: values.password, name: values.name, now: new Date() });
  } finally {
    await store.close();
  }
}

async function appCreate(config: EsignConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: { user: { type: 'string' }, name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, 'rsa-public-key': { type: 'string' } },
    strict: true,
  });
  const redirectUris = values['redirect-uri'] ?? [];
  if (!values.user || !values.name || redirectUris.length === 0) throw new UsageError('app create needs --user, --name and at least one --redirect-uri');
  const keyFile = values['rsa-public-key'];
  let rsaPublicKeyPem: string | undefined;
  if (keyFile !== undefined) {
    try {
      rsaPublicKeyPem = readFileSync(keyFile, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --rsa-public-key ${keyFile}: ${(err as Error).message}`);
    }
  }
  const store = await openStore(storeLocation(config));
  try {
    const user = await store.accounts.findUserByEmail(normalizeEmail(values.user));
    if (!user) throw new EsignError('USER_NOT_FOUND', values.user);
    const { app, secret } = await createApp(store, { userId: user.id, name: values.name, redirectUris, rsaPublicKeyPem, withSecret: true, now: new Date() });
    return {
      integrationKey: app.id,
      secretKey: secret,
      accountId: app.account_id,
      baseUri: config.publicUrl,
      authUrl: config.publicUrl,
      authHost: authHostOf(config.publicUrl),
      redirectUris,
    };
  } finally {
    await store.close();
  }
}

async function completionList(config: EsignConfig, args: string[]): Promise<unknown> {
  parseArgs({ args, options: {}, strict: true });
  const store = await openStore(storeLocation(config));
  try {
    return (await new CompletionFailuresRepository(store.db).list()).map((p) => ({
      envelopeId: p.envelopeId,
      accountId: p.accountId,
      attempts: p.attempts,
      lastError: p.lastError,
      lastFailedAt: p.lastFailedAt.toISOString(),
      ...(p.nextAttemptAt ? { nextAttemptAt: p.nextAttemptAt.toISOString() } : {}),
      ...(p.failedAt ? { gaveUpAt: p.failedAt.toISOString() } : {}),
    }));
  } finally {
    await store.close();
  }
}

async function completionRetry(config: EsignConfig, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { envelope: { type: 'string' }, by: { type: 'string' } }, strict: true });
  if (!values.envelope) throw new UsageError('completion retry needs --envelope');
  const store = await openStore(storeLocation(config));
  try {
    return await retryCompletion(store.db, { envelopeId: values.envelope, operator: values.by ?? process.env.USER ?? 'operator', now: new Date() });
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<void> {
  // The one place that reads the environment (docs/ARCHITECTURE.md, "Rules of the house").
  const config = loadEsignConfig(process.env, process.cwd());
  const supervised = process.env[STOP_WITH_PARENT_ENV];
  if (supervised !== undefined && supervised !== '1') throw new UsageError(`${STOP_WITH_PARENT_ENV} must be 1 or unset`);
  const [command, sub, ...rest] = argv;
  if (command === 'serve') return serve(config, supervised === '1');
  let result: unknown;
  if (command === 'user' && sub === 'create') result = await userCreate(config, rest);
  else if (command === 'app' && sub === 'create') result = await appCreate(config, rest);
  else if (command === 'completion' && sub === 'list') result = await completionList(config, rest);
  else if (command === 'completion' && sub === 'retry') result = await completionRetry(config, rest);
  else throw new UsageError(command ? `unknown command: ${[command, sub].filter(Boolean).join(' ')}` : 'no command given');
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || (err instanceof Error && err.name === 'TypeError' && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write(`signet-esign: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (err instanceof EsignConfigError || err instanceof PrivatePathError) {
    process.stderr.write(`signet-esign: bad setting: ${err.message}\n`);
    process.exit(1);
  }
  if (err instanceof EsignError && err.expose) {
    process.stderr.write(`signet-esign: ${err.code}: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`signet-esign: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
