import type { UserRow } from '../store/schema.ts';
import { CSRF_FIELD } from '../web/csrf.ts';
import { html, layout } from '../web/html.ts';

const SCOPE_TEXT: Record<string, string> = {
  signature: 'Create and send envelopes, and obtain links for starting signing sessions.',
  extended: 'Keep access for longer: the app can renew its access without asking you again.',
  impersonation: 'Act on your behalf without you being present (JWT grant).',
  openid: 'Know who you are (your user id).',
  email: 'See your e-mail address.',
  profile: 'See your name.',
};

/** The consent page: the app, what it asks for, and the "Allow" / "Deny" buttons. */
export function consentPage(v: { csrf: string; user: UserRow; appName: string; scopes: readonly string[]; hidden: Record<string, string>; returnTo: string }): string {
  const fields = Object.entries(v.hidden).map(([k, val]) => html`<input type="hidden" name="${k}" value="${val}">`);
  const items = v.scopes.map((s) => html`<li><strong>${s}</strong>: ${SCOPE_TEXT[s] ?? s}</li>`);
  return layout('Allow access?', html`<section>
<p><strong>${v.appName}</strong> is requesting access to your Signet account (${v.user.email}). It will be able to:</p>
<ul>${items}</ul>
<form method="post" action="/oauth/auth/decision">
<input type="hidden" name="${CSRF_FIELD}" value="${v.csrf}">
${fields}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>
<form method="post" action="/logout">
<input type="hidden" name="${CSRF_FIELD}" value="${v.csrf}">
<input type="hidden" name="return_to" value="${v.returnTo}">
<p>Not ${v.user.email}? <button type="submit" class="secondary">Use another account</button></p>
</form>
</section>`);
}

/** The page shown when the request cannot be answered at a trusted redirect URI. */
export function authorizationErrorPage(error: string, description: string): string {
  return layout('Authorization request rejected', html`<section>
<p class="error" role="alert"><code>${error}</code>: ${description}</p>
<p>The application that sent you here is misconfigured. You have not been redirected back to it.</p>
</section>`);
}
