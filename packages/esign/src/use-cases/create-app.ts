import { validateRedirectUri } from '../domain/redirect-uri.ts';
import { EsignError } from '../errors.ts';
import type { Store } from '../store/index.ts';
import type { AppRow } from '../store/schema.ts';
import { newAppSecret, normalizeRsaPublicKey } from './app-credentials.ts';

/**
 * Registers an integrating app in the user's default account (console and CLI `app create`).
 * With `withSecret`, a first secret is generated and returned once.
 */
export async function createApp(
  store: Store,
  input: { userId: string; name: string; redirectUris: readonly string[]; rsaPublicKeyPem?: string | undefined; withSecret: boolean; now: Date },
): Promise<{ app: AppRow; secret: string | undefined }> {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw new EsignError('INVALID_REQUEST_PARAMETER', 'An app name of 1-200 characters is required.');
  const redirectUris = input.redirectUris.map(validateRedirectUri);
  const publicKey = input.rsaPublicKeyPem === undefined ? undefined : normalizeRsaPublicKey(input.rsaPublicKeyPem);
  const account = (await store.accounts.accountsOf(input.userId))[0];
  if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT', 'The user has no account.');
  const secret = input.withSecret ? newAppSecret() : undefined;
  const app = await store.apps.createApp({
    accountId: account.accountId,
    ownerUserId: input.userId,
    name,
    redirectUris,
    secret: secret && { hash: secret.hash, hint: secret.hint },
    rsaPublicKeyPem: publicKey,
    now: input.now,
  });
  return { app, secret: secret?.secret };
}
