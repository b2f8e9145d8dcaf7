import type { Member } from '../domain/users/user-admin.ts';
import type { UserRow } from '../store/schema.ts';
import { html, layout } from '../web/html.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { signedInNav } from './pages.ts';

/** The console's members page: the account's users and its pending invitations (docs/esign-users.md). */
export function membersPage(v: { user: UserRow; csrf: string; accountName: string; members: readonly Member[] }): string {
  const row = (m: Member) => html`<tr data-user-id="${m.userId}"><td>${m.name}</td><td>${m.email}</td><td>${m.profileName ?? ''}</td><td>${m.groups.map((g) => g.name).join(', ')}</td><td>${m.addedAt}</td></tr>`;
  const active = v.members.filter((m) => m.status === 'active');
  const pending = v.members.filter((m) => m.status === 'pending');
  return layout(`Users of ${v.accountName}`, html`
<section><h2>Members</h2>
<table data-list="members"><thead><tr><th>Name</th><th>E-mail</th><th>Permission profile</th><th>Groups</th><th>Added</th></tr></thead>
<tbody>${active.map(row)}</tbody></table></section>
<section><h2>Pending invitations</h2>
${pending.length === 0 ? html`<p>No invitation is waiting.</p>` : html`<table data-list="invitations"><thead><tr><th>Name</th><th>E-mail</th><th>Permission profile</th><th>Groups</th><th>Invited</th></tr></thead>
<tbody>${pending.map(row)}</tbody></table>`}</section>
<p>Invite users with the API (UsersApi.create): each gets a mail with a single-use link.</p>`, signedInNav(v.user, v.csrf));
}

/** The invitation's page: a new user chooses a password, an existing one confirms. */
export function invitationPage(v: { csrf: string; action: string; email: string; accountName: string; newUser: boolean; needsCode?: boolean; error?: string | undefined }): string {
  return layout(`Join ${v.accountName}`, html`<section>
${errorBox(v.error)}
<p>You are invited to the account <strong>${v.accountName}</strong> as <strong>${v.email}</strong>.</p>
<form method="post" action="${v.action}">
${csrfInput(v.csrf)}
${v.needsCode ? html`<label for="activation_code">Activation code (from the person who invited you)</label><input id="activation_code" type="password" name="activation_code" autocomplete="off" required>` : ''}
${v.newUser ? html`<label for="password">Choose a password</label><input id="password" type="password" name="password" autocomplete="new-password" required>` : html`<p>You already have a Signet login: joining adds this account to it.</p>`}
<button type="submit">Join the account</button>
</form>
</section>`);
}

/** An invitation link that is unknown, used, expired or withdrawn. */
export function invitationInvalidPage(): string {
  return layout('This link is not valid', html`<section>
<p>This invitation link is unknown, already used, expired or withdrawn. Ask the account's administrator for a new one, or <a href="/login">log in</a>.</p>
</section>`);
}
