import assert from 'node:assert/strict';
import type { Dispatcher } from 'undici';
import { FormClient, formFields } from '../../../esign/test/support/form-client.ts';
import { authQuery, logIn } from '../../../esign/test/support/authorize.ts';

/**
 * The authorization code grant with plain HTTP forms (login, Allow, code, token), for tests
 * whose subject is not the browser. Each request goes through `origin` (a gateway), so the
 * steps may land on different esign instances: they share the session and code through the store.
 */
export async function tokenViaForms(origin: string, dispatcher: Dispatcher, app: { clientId: string; secret: string; redirectUri: string }, user: { email: string; password: string }, scope = 'signature'): Promise<string> {
  const client = new FormClient(origin, dispatcher);
  const login = await client.get(authQuery({ response_type: 'code', scope, client_id: app.clientId, redirect_uri: app.redirectUri, state: 's' }));
  assert.equal(login.status, 200, login.text);
  const loggedIn = await logIn(client, login.text, user.email, user.password);
  assert.equal(loggedIn.status, 303, loggedIn.text);
  const consent = await client.get(String(loggedIn.headers.location));
  // A user who consented to these scopes before goes straight back with a code, as at DocuSign.
  let callback = consent.headers.location;
  if (consent.status !== 302) {
    assert.equal(consent.status, 200, consent.text);
    const decision = await client.post('/oauth/auth/decision', { ...formFields(consent.text, '/oauth/auth/decision'), decision: 'allow' });
    assert.equal(decision.status, 303, decision.text);
    callback = decision.headers.location;
  }
  const code = new URL(String(callback)).searchParams.get('code');
  assert.ok(code, `a code in ${String(callback)}`);
  const basic = Buffer.from(`${app.clientId}:${app.secret}`).toString('base64');
  const token = await new FormClient(origin, dispatcher).post('/oauth/token', { grant_type: 'authorization_code', code }, { authorization: `Basic ${basic}` });
  assert.equal(token.status, 200, token.text);
  return (token.json() as { access_token: string }).access_token;
}
