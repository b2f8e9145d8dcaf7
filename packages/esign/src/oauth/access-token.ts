import type { EsignContext } from '../context.ts';
import { sha256Hex } from '../security/secret-token.ts';
import type { TokenRow } from '../store/schema.ts';

/** Who a live access token speaks for. */
export type Principal = { userId: string; appId: string; scopes: string[] };

/** Why a bearer token was refused: absent (or not Bearer), or not live. */
export type BearerProblem = 'missing' | 'invalid';

/** Reads `Authorization: Bearer <token>` (RFC 6750 §2.1). */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match?.[1];
}

/** The principal of a live access token, or the reason there is none. */
export async function resolveAccessToken(ctx: EsignContext, header: string | undefined): Promise<Principal | BearerProblem> {
  const token = bearerTokenOf(header);
  if (token === undefined) return 'missing';
  const row: TokenRow | undefined = token.length > 200 ? undefined : await ctx.store.oauth.liveToken(sha256Hex(token), 'access', ctx.now());
  if (!row) return 'invalid';
  return { userId: row.user_id, appId: row.app_id, scopes: row.scopes.split(' ') };
}
