/** Builds the Fastify server with every route wired (server.ts is the composition root). */
export { buildEsignServer, type EsignDeps } from './server.ts';
export type { TextMessage, TextSender } from './mail/text-sender.ts';
/** The process settings: schema, defaults and validation. */
export { loadEsignConfig, authHostOf, DEFAULTS, EsignConfigError, type EsignConfig, type RawEsignSettings } from './config.ts';
/** The error catalogs and their classes. */
export { EsignError, OAuthError, ESIGN_ERRORS, OAUTH_ERRORS, type EsignErrorCode, type OAuthErrorCode } from './errors.ts';
/** The store: database, migrations, repositories. */
export { openStore, storeLocation, type Store } from './store/index.ts';
/** Use cases shared by the CLI and the console. */
export { registerUser } from './use-cases/register-user.ts';
export { createApp } from './use-cases/create-app.ts';
