import type { EsignContext } from '../context.ts';
import { isS256Challenge } from '../domain/pkce.ts';
import { parseScopes, SUPPORTED_SCOPES_TEXT } from '../domain/scopes.ts';
import { OAuthError } from '../errors.ts';
import type { AppRow } from '../store/schema.ts';
import { fieldRepeated, formField } from '../web/form.ts';

/** The client and the redirect URI it may be answered at. */
export type TrustedClient = { app: AppRow; redirectUri: string };

/** A validated authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export type AuthorizationRequest = TrustedClient & {
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | undefined;
};

const PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/**
 * Step 1: the client and its redirect URI. Any failure here is shown as a page and never
 * redirected (RFC 6749 §4.1.2.1: an unverified redirect_uri must not receive the user).
 * The match is exact against the app's registered list.
 */
export async function resolveClient(ctx: EsignContext, params: unknown): Promise<TrustedClient> {
  for (const name of ['client_id', 'redirect_uri'] as const) {
    if (fieldRepeated(params, name)) throw new OAuthError('INVALID_REQUEST', `The ${name} parameter is repeated.`);
  }
  const clientId = formField(params, 'client_id');
  if (!clientId) throw new OAuthError('INVALID_REQUEST', 'The client_id parameter is missing.');
  const app = await ctx.store.apps.findApp(clientId);
  if (!app) throw new OAuthError('INVALID_CLIENT', 'The integration key (client_id) is not registered.');
  const registered = await ctx.store.apps.redirectUris(app.id);
  const redirectUri = formField(params, 'redirect_uri');
  if (redirectUri === undefined) {
    // RFC 6749 §3.1.2.3: it may be omitted only when exactly one URI is registered.
    if (registered.length !== 1 || registered[0] === undefined) throw new OAuthError('INVALID_REQUEST', 'The redirect_uri parameter is missing.');
    return { app, redirectUri: registered[0] };
  }
  if (!registered.includes(redirectUri)) throw new OAuthError('INVALID_REQUEST', 'The redirect_uri is not registered for this integration key.');
  return { app, redirectUri };
}

/**
 * Step 2: the rest of the request. Failures here go back to the (now trusted) redirect URI
 * as `error=…&state=…` (RFC 6749 §4.1.2.1), so the caller catches them.
 */
export function parseAuthorizationParams(params: unknown): Pick<AuthorizationRequest, 'scopes' | 'state' | 'codeChallenge'> {
  for (const name of PARAMS) {
    if (fieldRepeated(params, name)) throw new OAuthError('INVALID_REQUEST', `The ${name} parameter is repeated.`);
  }
  const responseType = formField(params, 'response_type');
  if (responseType === undefined) throw new OAuthError('INVALID_REQUEST', 'The response_type parameter is missing.');
  if (responseType !== 'code') throw new OAuthError('UNSUPPORTED_RESPONSE_TYPE', 'Only response_type=code is supported.');
  const scopes = parseScopes(formField(params, 'scope'));
  if (!scopes) throw new OAuthError('INVALID_SCOPE', SUPPORTED_SCOPES_TEXT);
  const codeChallenge = formField(params, 'code_challenge');
  const method = formField(params, 'code_challenge_method');
  if (codeChallenge !== undefined) {
    // Only S256: `plain` protects nothing the TLS channel does not already (RFC 7636 §7.2).
    if (method !== 'S256') throw new OAuthError('INVALID_REQUEST', 'code_challenge_method must be S256.');
    if (!isS256Challenge(codeChallenge)) throw new OAuthError('INVALID_REQUEST', 'The code_challenge is not a S256 challenge.');
  } else if (method !== undefined) {
    throw new OAuthError('INVALID_REQUEST', 'code_challenge_method was sent without code_challenge.');
  }
  return { scopes, state: formField(params, 'state'), codeChallenge };
}

/** The request's parameters as hidden form fields for the consent form's round trip. */
export function authorizationParamsOf(request: AuthorizationRequest): Record<string, string> {
  const out: Record<string, string> = {
    response_type: 'code',
    client_id: request.app.id,
    redirect_uri: request.redirectUri,
    scope: request.scopes.join(' '),
  };
  if (request.state !== undefined) out.state = request.state;
  if (request.codeChallenge !== undefined) {
    out.code_challenge = request.codeChallenge;
    out.code_challenge_method = 'S256';
  }
  return out;
}

/** The redirect URI with response parameters added to its query (RFC 6749 §4.1.2: keep its own query). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}
