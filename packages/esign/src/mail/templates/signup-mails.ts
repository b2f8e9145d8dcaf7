import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailButton, mailLayout } from './mail-layout.ts';

/** The link that finishes a sign-up: it works once, with the password chosen at sign-up. */
export function signupVerificationMail(input: { to: { email: string; name: string }; verifyUrl: string; validHours: number }): MailMessage {
  const heading = 'Confirm your e-mail address';
  const text = [
    heading,
    '',
    'Someone, hopefully you, asked to create a Signet account with this e-mail address.',
    `To finish, open this link within ${input.validHours} hours and enter the password you chose:`,
    input.verifyUrl,
    '',
    'If it was not you, ignore this e-mail: nothing is created without the link and that password.',
  ].join('\n');
  const body = html`
<p>Someone, hopefully you, asked to create a Signet account with this e-mail address.</p>
<p>To finish, open this link within ${String(input.validHours)} hours and enter the password you chose.</p>
${mailButton('Confirm and create my account', input.verifyUrl)}
<p style="font-size:12px;color:#656d76">If it was not you, ignore this e-mail: nothing is created without the link and that password.</p>`;
  return { kind: 'signup-verification', to: input.to, subject: 'Confirm your e-mail address for Signet', text, html: mailLayout(heading, body) };
}

/**
 * Sent instead of a link when the address already has an account: the sign-up page answers
 * the same either way, and only the address's owner learns that it is registered.
 */
export function signupExistingAccountMail(input: { to: { email: string; name: string }; loginUrl: string }): MailMessage {
  const heading = 'You already have an account';
  const text = [
    heading,
    '',
    'Someone, hopefully you, tried to sign up for Signet with this e-mail address, which already has an account.',
    `Log in here: ${input.loginUrl}`,
    '',
    'If it was not you, ignore this e-mail: your account is unchanged.',
  ].join('\n');
  const body = html`
<p>Someone, hopefully you, tried to sign up for Signet with this e-mail address, which already has an account.</p>
${mailButton('Log in', input.loginUrl)}
<p style="font-size:12px;color:#656d76">If it was not you, ignore this e-mail: your account is unchanged.</p>`;
  return { kind: 'signup-existing-account', to: input.to, subject: 'Your Signet account', text, html: mailLayout(heading, body) };
}
