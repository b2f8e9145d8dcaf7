import { CONNECT_EVENTS } from '../domain/connect/connect-events.ts';
import type { ConnectConfiguration } from '../domain/connect/event-subscription.ts';
import type { HmacKeyInfo } from '../store/connect-repository.ts';
import type { ConnectDeliveryRow } from '../store/connect-tables.ts';
import type { UserAccount } from '../store/index.ts';
import type { UserRow } from '../store/schema.ts';
import { CSRF_FIELD } from '../web/csrf.ts';
import { html, layout, type SafeHtml } from '../web/html.ts';
import { signedInNav } from './pages.ts';

const BASE = '/console/connect';

function csrfInput(csrf: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
}

function postButton(csrf: string, action: string, label: string, secondary = true): SafeHtml {
  return html`<form class="inline" method="post" action="${action}">${csrfInput(csrf)}<button type="submit"${secondary ? html` class="secondary"` : ''}>${label}</button></form>`;
}

/** The Connect page: configurations, HMAC keys (a new secret shown once), and the failure log. */
export function connectPage(v: {
  user: UserRow;
  csrf: string;
  account: UserAccount | undefined;
  configurations: readonly ConnectConfiguration[];
  keys: readonly HmacKeyInfo[];
  failures: readonly ConnectDeliveryRow[];
  newSecret?: string | undefined;
  error?: string | undefined;
}): string {
  const once = v.newSecret
    ? html`<section><h2>New HMAC key</h2>
<p><strong>Copy it now: it is displayed only once and cannot be viewed again.</strong> Your listener verifies X-DocuSign-Signature-1..N with it.</p>
<pre class="once" data-field="new-hmac-secret">${v.newSecret}</pre></section>`
    : '';
  const configurations = v.configurations.map((c) => html`<tr data-connect-id="${c.connectId}"><td>${c.name}</td><td><code>${c.url}</code></td><td>${c.events.join(', ')}</td><td>${c.includeHMAC ? 'yes' : 'no'}</td><td>${c.enabled ? 'Active' : 'Disabled'}</td><td>
${c.enabled ? postButton(v.csrf, `${BASE}/configurations/${c.connectId}/disable`, `Disable ${c.name}`) : postButton(v.csrf, `${BASE}/configurations/${c.connectId}/enable`, `Enable ${c.name}`)}
${postButton(v.csrf, `${BASE}/configurations/${c.connectId}/delete`, `Delete ${c.name}`)}</td></tr>`);
  const keys = v.keys.map((k) => html`<tr><td>••••${k.hint}</td><td>${k.created_at}</td><td>${k.revoked_at ? html`revoked ${k.revoked_at}` : postButton(v.csrf, `${BASE}/hmac-keys/${k.key_id}/revoke`, `Revoke key ••••${k.hint}`)}</td></tr>`);
  const failures = v.failures.map((f) => html`<tr data-failure-id="${f.id}"><td><code>${f.envelope_id}</code></td><td>${f.event}</td><td><code>${f.url}</code></td><td>${f.attempts}</td><td>${f.status === 'failed' ? 'failed' : 'retrying'}</td><td>${f.last_error ?? ''}</td><td>
${postButton(v.csrf, `${BASE}/failures/${f.id}/retry`, 'Retry', false)} ${postButton(v.csrf, `${BASE}/failures/${f.id}/delete`, 'Delete')}</td></tr>`);
  const eventBoxes = CONNECT_EVENTS.map((e) => html`<label class="inline"><input type="checkbox" name="events" value="${e}"${e.startsWith('envelope-') ? html` checked` : ''}> ${e}</label> `);
  return layout('Connect', html`
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
${once}
<p>Account <code data-field="account-id">${v.account?.accountId ?? ''}</code>: envelope events are POSTed as JSON (SIM) to each active configuration. <a href="/console">Back to apps</a></p>
<section><h2>Configurations</h2>
${v.configurations.length === 0 ? html`<p>No Connect configurations.</p>` : html`<table><thead><tr><th>Name</th><th>URL</th><th>Events</th><th>HMAC</th><th>Status</th><th></th></tr></thead><tbody>${configurations}</tbody></table>`}
</section>
<section><h2>Add configuration</h2>
<form method="post" action="${BASE}/configurations">${csrfInput(v.csrf)}
<label for="connect-name">Name</label><input id="connect-name" type="text" name="name" required maxlength="100">
<label for="connect-url">Listener URL</label><input id="connect-url" type="url" name="url" required>
<fieldset><legend>Events</legend>${eventBoxes}</fieldset>
<label class="inline"><input type="checkbox" name="includeHMAC" value="true" checked> Sign messages with the HMAC keys</label>
<button type="submit">Add configuration</button>
</form></section>
<section><h2>HMAC keys</h2>
${v.keys.length === 0 ? html`<p>No HMAC keys.</p>` : html`<table><tbody>${keys}</tbody></table>`}
${postButton(v.csrf, `${BASE}/hmac-keys`, 'Add HMAC key', false)}</section>
<section><h2>Failures</h2>
${v.failures.length === 0 ? html`<p>No failed deliveries.</p>` : html`<table><thead><tr><th>Envelope</th><th>Event</th><th>URL</th><th>Attempts</th><th>Status</th><th>Last error</th><th></th></tr></thead><tbody>${failures}</tbody></table>`}
</section>`, signedInNav(v.user, v.csrf));
}
