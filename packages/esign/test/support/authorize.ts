import assert from 'node:assert/strict';
import { FormClient, formFields, hiddenField } from './form-client.ts';
import type { Harness } from './esign-harness.ts';

/** Query of an authorization request. */
export function authQuery(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/auth?${q.toString()}`;
}

/** Logs the client in through the login form that /oauth/auth (or /login) rendered. */
export async function logIn(client: FormClient, loginHtml: string, email: string, password: string) {
  return client.post('/login', { _csrf: hiddenField(loginHtml, '_csrf'), return_to: hiddenField(loginHtml, 'return_to'), email, password });
}

/**
 * Runs the browser side of the code flow with plain HTTP: auth page → login → consent →
 * decision. Returns the final redirect's URL.
 */
export async function authorizeViaForms(
  h: Harness,
  seed: { clientId: string; email: string; password: string; redirectUris: string[] },
  extra: Record<string, string | undefined> = {},
  decision: 'allow' | 'deny' = 'allow',
  client = new FormClient(h.origin),
): Promise<URL> {
  const query = authQuery({ response_type: 'code', scope: 'signature', client_id: seed.clientId, redirect_uri: seed.redirectUris[0], state: 'st@te 1/2', ...extra });
  let page = await client.get(query);
  if (page.status === 302) return new URL(String(page.headers.location));
  assert.equal(page.status, 200);
  if (page.text.includes('type="password"')) {
    const login = await logIn(client, page.text, seed.email, seed.password);
    assert.equal(login.status, 303, login.text);
    page = await client.get(String(login.headers.location));
  }
  if (page.status === 302) return new URL(String(page.headers.location));
  assert.equal(page.status, 200, page.text);
  assert.match(page.text, />Allow</);
  const answer = await client.post('/oauth/auth/decision', { ...formFields(page.text, '/oauth/auth/decision'), decision });
  assert.equal(answer.status, 303, answer.text);
  return new URL(String(answer.headers.location));
}

/** POST /oauth/token with Basic client authentication, as the SDK sends it. */
export async function tokenRequest(h: Harness, form: Record<string, string>, basic?: { id: string; secret: string }) {
  const client = new FormClient(h.origin);
  const headers: Record<string, string> = basic ? { authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}` } : {};
  return client.post('/oauth/token', form, headers);
}

/** The code flow for `who` through the app it names, then the token exchange: the access token. */
export async function accessTokenFor(
  h: Harness,
  who: { clientId: string; secret: string; email: string; password: string; redirectUris: string[] },
): Promise<string> {
  const code = (await authorizeViaForms(h, who)).searchParams.get('code') ?? '';
  const answer = await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: who.clientId, secret: who.secret });
  return (answer.json() as { access_token: string }).access_token;
}

/**
 * The code flow's token response for `who`, fresh for the harness's current fake time: one flow
 * per fake instant, not one per call. Tests that move fake time by days (tokens live 8 h of it)
 * get a new token after each move; between moves, every call shares one, since each flow's
 * login runs scrypt (src/security/password-hash.ts) and made the token, not the call, the slow part.
 */
export function tokenPerFakeInstant(
  h: Harness,
  who: { clientId: string; secret: string; email: string; password: string; redirectUris: string[] },
): () => Promise<{ access_token: string }> {
  let minted: { at: number; answer: Promise<{ access_token: string }> } | undefined;
  return () => {
    const at = h.clock.now().getTime();
    if (minted?.at !== at) {
      const answer = (async () => {
        const code = (await authorizeViaForms(h, who)).searchParams.get('code') ?? '';
        return (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: who.clientId, secret: who.secret })).json() as { access_token: string };
      })();
      minted = { at, answer };
    }
    return minted.answer;
  };
}
