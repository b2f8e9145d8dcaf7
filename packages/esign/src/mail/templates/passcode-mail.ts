import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailLayout, oneLine } from './mail-layout.ts';

/** The e-mail one-time passcode: the code alone, never a link (the signing link came in another mail). */
export function passcodeMail(input: { envelopeId: string; to: { email: string; name: string }; emailSubject: string; code: string; minutes: number }): MailMessage {
  const heading = 'Your one-time passcode';
  const text = [
    heading,
    '',
    `Your passcode for "${oneLine(input.emailSubject)}" is ${input.code}. It works once, for ${input.minutes} minutes.`,
    'If you did not ask for it, someone else may have your signing link: do not share this code.',
  ].join('\n');
  const body = html`
<p>Your passcode for “${input.emailSubject}” is</p>
<p style="font-size:28px;letter-spacing:4px;font-weight:bold">${input.code}</p>
<p>It works once, for ${String(input.minutes)} minutes. If you did not ask for it, someone else may have your signing link: do not share this code.</p>`;
  return { kind: 'passcode', envelopeId: input.envelopeId, to: input.to, subject: 'Your one-time passcode', text, html: mailLayout(heading, body) };
}
