import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailButton, mailLayout } from './mail-layout.ts';

/** An invitation into an account (UsersApi.create): its single-use link activates the membership. */
export function invitationMail(input: { to: { email: string; name: string }; accountName: string; acceptUrl: string; validHours: number }): MailMessage {
  const heading = `You are invited to ${input.accountName}`;
  const text = [
    heading,
    '',
    `An administrator of the Signet account "${input.accountName}" added you as a user.`,
    `To join, open this link within ${input.validHours} hours (it works once); a new user sets their password there:`,
    input.acceptUrl,
    '',
    'If you did not expect this, ignore this e-mail: nothing happens without the link.',
  ].join('\n');
  const body = html`
<p>An administrator of the Signet account “${input.accountName}” added you as a user.</p>
<p>To join, open this link within ${String(input.validHours)} hours (it works once); a new user sets their password there.</p>
${mailButton('Join the account', input.acceptUrl)}
<p style="font-size:12px;color:#656d76">If you did not expect this, ignore this e-mail: nothing happens without the link.</p>`;
  return { kind: 'user-invitation', to: input.to, subject: `Join ${input.accountName} on Signet`, text, html: mailLayout(heading, body) };
}
