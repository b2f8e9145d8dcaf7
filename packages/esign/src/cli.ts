import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { authHostOf, EsignConfigError, loadEsignConfig, type EsignConfig } from './config.ts';
import { EsignError } from './errors.ts';
import { PrivatePathError, STOP_WITH_PARENT_ENV } from '@signet/kit';
import { openStore, storeLocation } from './store/index.ts';
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

/** A command-line mistake: printed with the usage, exit 2. */
class UsageError extends Error {}

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
  // The server's modules (Fastify, the PDF tools, every route) load only for serve: the other
  // commands answer in a fraction of the time.
  if (command === 'serve') return (await import('./serve.ts')).serve(config, supervised === '1');
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
