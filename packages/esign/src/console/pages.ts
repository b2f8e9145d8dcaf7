import type { UserAccount, RsaKeyInfo, SecretInfo } from '../store/index.ts';
import type { AppRow, UserRow } from '../store/schema.ts';
import { html, layout, type SafeHtml } from '../web/html.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';

/** Navigation for a signed-in user: who, and a sign-out form. */
export function signedInNav(user: UserRow, csrf: string): SafeHtml {
  return html`<span>${user.email}</span><form class="inline" method="post" action="/logout">${csrfInput(csrf)}<button type="submit">Sign out</button></form>`;
}

/** The sign-up form. */
export function signupPage(v: { csrf: string; email?: string | undefined; name?: string | undefined; error?: string | undefined }): string {
  return layout('Sign up', html`<section>
${errorBox(v.error)}
<form method="post" action="/signup">
${csrfInput(v.csrf)}
<label for="name">Name</label><input id="name" type="text" name="name" autocomplete="name" required value="${v.name ?? ''}">
<label for="email">E-mail</label><input id="email" type="email" name="email" autocomplete="username" required value="${v.email ?? ''}">
<label for="password">Password (at least 8 characters)</label><input id="password" type="password" name="password" autocomplete="new-password" required minlength="8">
<button type="submit">Create account</button>
</form>
<p>Already registered? <a href="/login">Log in</a></p>
</section>`);
}

/** After a sign-up: the same page whether or not the address is registered. */
export function signupSentPage(v: { email: string }): string {
  return layout('Check your inbox', html`<section>
<p>We sent an e-mail to <strong>${v.email}</strong>. Open the link in it within 24 hours and enter your password to finish creating your account.</p>
<p>No e-mail? Check your spam folder, or <a href="/signup">sign up again</a>.</p>
</section>`);
}

/** The sign-up link's page: the password chosen at sign-up confirms it is the same person. */
export function signupVerifyPage(v: { csrf: string; action: string; email: string; error?: string | undefined }): string {
  return layout('Confirm your account', html`<section>
${errorBox(v.error)}
<p>Enter the password you chose when you signed up as <strong>${v.email}</strong>.</p>
<form method="post" action="${v.action}">
${csrfInput(v.csrf)}
<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Confirm and create my account</button>
</form>
</section>`);
}

/** A sign-up link that is unknown, used or expired. */
export function signupLinkInvalidPage(): string {
  return layout('This link is not valid', html`<section>
<p>This sign-up link is unknown, already used or expired. <a href="/signup">Sign up again</a> or <a href="/login">log in</a>.</p>
</section>`);
}

/** Account id, base path and auth host: the values an integration is configured with. */
function accountFacts(account: UserAccount | undefined, publicUrl: string, authHost: string): SafeHtml {
  return html`<dl>
<dt>API account ID</dt><dd data-field="account-id">${account?.accountId ?? ''}</dd>
<dt>Account name</dt><dd>${account?.accountName ?? ''}</dd>
<dt>Base path (API host; the API root is base path + /restapi)</dt><dd data-field="base-path">${publicUrl}</dd>
<dt>Auth host (the SDK's OAuth base path)</dt><dd data-field="auth-host">${authHost}</dd>
</dl>`;
}

/** The console home: account facts, the apps of the accounts the user manages, and the form to add one. */
export function consoleHomePage(v: { user: UserRow; csrf: string; account: UserAccount | undefined; apps: readonly AppRow[]; mayAddApp: boolean; publicUrl: string; authHost: string; error?: string | undefined }): string {
  const rows = v.apps.map((a) => html`<tr><td><a href="/console/apps/${a.id}">${a.name}</a></td><td><code>${a.id}</code></td></tr>`);
  return layout('Apps and keys', html`
<section><h2>My account</h2>${accountFacts(v.account, v.publicUrl, v.authHost)}</section>
<section><h2>Connect</h2><p><a href="/console/connect">Connect: webhooks, HMAC keys and failures</a></p></section>
<section><h2>Templates</h2><p><a href="/console/templates">Templates: documents, roles and signature places</a></p></section>
<section><h2>Apps</h2>
${v.apps.length === 0 ? html`<p>No apps yet.</p>` : html`<table><thead><tr><th>App name</th><th>Integration key</th></tr></thead><tbody>${rows}</tbody></table>`}
</section>
<section><h2>Add app</h2>
${errorBox(v.error)}
${v.mayAddApp ? html`<form method="post" action="/console/apps">${csrfInput(v.csrf)}
<label for="app-name">App name</label><input id="app-name" type="text" name="name" required>
<button type="submit">Add app and integration key</button>
</form>` : html`<p data-field="apps-admin-only">Apps and keys are managed by the account's administrators (permission profile setting allowAccountManagement).</p>`}</section>`, signedInNav(v.user, v.csrf));
}

/** Something shown exactly once (a new secret or private key), with the warning that says so. */
export type ShownOnce = { kind: 'secret' | 'private-key'; value: string };

/** One app: integration key, secrets, redirect URLs, RSA keys, and the account facts. */
export function appPage(v: {
  user: UserRow;
  csrf: string;
  app: AppRow;
  account: UserAccount | undefined;
  secrets: readonly SecretInfo[];
  redirectUris: readonly string[];
  rsaKeys: readonly RsaKeyInfo[];
  publicUrl: string;
  authHost: string;
  shownOnce?: ShownOnce | undefined;
  error?: string | undefined;
}): string {
  const base = `/console/apps/${v.app.id}`;
  const once = v.shownOnce
    ? html`<section><h2>${v.shownOnce.kind === 'secret' ? 'New secret key' : 'New RSA private key'}</h2>
<p><strong>Copy it now: it is displayed only once and cannot be viewed again.</strong></p>
<pre class="once" data-field="${v.shownOnce.kind === 'secret' ? 'new-secret' : 'new-private-key'}">${v.shownOnce.value}</pre></section>`
    : '';
  const secrets = v.secrets.map((s) => html`<tr><td>••••${s.hint}</td><td>${s.created_at}</td><td>${
    s.revoked_at ? html`revoked ${s.revoked_at}` : html`<form class="inline" method="post" action="${base}/secrets/${s.id}/revoke">${csrfInput(v.csrf)}<button type="submit" class="secondary">Revoke secret ••••${s.hint}</button></form>`
  }</td></tr>`);
  const uris = v.redirectUris.map((u) => html`<li><code>${u}</code> <form class="inline" method="post" action="${base}/redirect-uris/remove">${csrfInput(v.csrf)}<input type="hidden" name="uri" value="${u}"><button type="submit" class="secondary">Remove</button></form></li>`);
  const keys = v.rsaKeys.map((k) => html`<tr><td><code>${k.id}</code></td><td>${k.created_at}</td><td>${
    k.revoked_at ? html`revoked ${k.revoked_at}` : html`<form class="inline" method="post" action="${base}/rsa-keys/${k.id}/revoke">${csrfInput(v.csrf)}<button type="submit" class="secondary">Revoke key</button></form>`
  }</td></tr>`);
  return layout(v.app.name, html`
${errorBox(v.error)}
${once}
<section><h2>General info</h2><dl>
<dt>Integration key</dt><dd data-field="integration-key">${v.app.id}</dd></dl>
${accountFacts(v.account, v.publicUrl, v.authHost)}</section>
<section><h2>Secret keys</h2>
${v.secrets.length === 0 ? html`<p>No secret keys.</p>` : html`<table><tbody>${secrets}</tbody></table>`}
<form method="post" action="${base}/secrets">${csrfInput(v.csrf)}<button type="submit">Add secret key</button></form></section>
<section><h2>Redirect URIs</h2>
${v.redirectUris.length === 0 ? html`<p>No redirect URIs.</p>` : html`<ul>${uris}</ul>`}
<form method="post" action="${base}/redirect-uris">${csrfInput(v.csrf)}
<label for="redirect-uri">Redirect URI</label><input id="redirect-uri" type="url" name="uri" required>
<button type="submit">Add URI</button></form></section>
<section><h2>RSA keypairs</h2>
${v.rsaKeys.length === 0 ? html`<p>No RSA keys.</p>` : html`<table><tbody>${keys}</tbody></table>`}
<form method="post" action="${base}/rsa-keys/generate">${csrfInput(v.csrf)}<button type="submit">Generate RSA</button></form>
<form method="post" action="${base}/rsa-keys">${csrfInput(v.csrf)}
<label for="public-key">Or upload a public key (PEM)</label><textarea id="public-key" name="public_key" required></textarea>
<button type="submit">Upload public key</button></form></section>
<p><a href="/console">Back to apps</a></p>`, signedInNav(v.user, v.csrf));
}
