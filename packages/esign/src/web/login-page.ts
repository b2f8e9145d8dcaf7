import { html, layout } from './html.ts';
import { csrfInput, errorBox } from './page-parts.ts';

/** The login form; `returnTo` is the same-site path to resume (e.g. /oauth/auth?...). */
export function loginPage(v: { csrf: string; returnTo: string; email?: string | undefined; error?: string | undefined; appName?: string | undefined }): string {
  return layout('Log in', html`<section>
${v.appName ? html`<p><strong>${v.appName}</strong> asks for access to your Signet account. Log in to continue.</p>` : ''}
${errorBox(v.error)}
<form method="post" action="/login">
${csrfInput(v.csrf)}
<input type="hidden" name="return_to" value="${v.returnTo}">
<label for="email">E-mail</label><input id="email" type="email" name="email" autocomplete="username" required value="${v.email ?? ''}">
<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
<p>No account yet? <a href="/signup">Sign up</a></p>
</section>`);
}
