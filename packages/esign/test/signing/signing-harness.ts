import type { TestContext } from 'node:test';
import { createDevSealP12, type Converter, type SealIdentity } from '@signet/pdf';
import type { ConnectModuleOptions } from '../../src/connect/build-connect.ts';
import type { RawEsignSettings } from '../../src/config.ts';
import type { EsignDeps } from '../../src/server.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { seedUserAndApp, startEsign, type Harness } from '../support/esign-harness.ts';

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

/**
 * One seal per process, made by the first signing esign: RSA key generation is the slow part,
 * and the files that only borrow samplePdf or b64 from here start none.
 */
let seal: SealIdentity | undefined;

export type SigningEsignOptions = {
  readonly converter: Converter;
  /** Where mail goes; absent → the dev mailbox. */
  readonly smtpUrl?: string;
  /** Added to the environment the config is loaded from (e.g. the Connect allowances). */
  readonly settings?: RawEsignSettings;
  /** Connect worker tuning and DNS stand-in (server.ts EsignDeps.connect). */
  readonly connect?: ConnectModuleOptions;
  readonly completionPollMs?: number;
  /** Bulk send worker tuning (server.ts EsignDeps.bulkSend). */
  readonly bulkSend?: EsignDeps['bulkSend'];
};

/**
 * esign on 127.0.0.1:0 as server.ts wires it (envelopes, signing, Connect), a fresh SQLite
 * file, and a user whose bearer token `api` sends.
 */
export async function startSigningEsign(t: TestContext, options: SigningEsignOptions): Promise<SigningHarness> {
  // The fake clock is never moved here: timestamps are real enough, and the outbox backoff,
  // the completion poll and Connect retries run on real timers.
  const h = await startEsign(t, {
    settings: { ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}), ...options.settings },
    deps: {
      converter: options.converter,
      mailWorker: { pollIntervalMs: 50 },
      signing: { seal: (seal ??= createDevSealP12({ commonName: 'Signet signing test seal' })), completionPollMs: options.completionPollMs ?? 100 },
      ...(options.connect ? { connect: options.connect } : {}),
      ...(options.bulkSend ? { bulkSend: options.bulkSend } : {}),
    },
  });
  const { origin } = h;
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

// samplePdf and b64 live in support/sample-pdf.ts (no server behind them, for the system tests).
export { b64, samplePdf } from '../support/sample-pdf.ts';
