import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailButton, mailLayout, oneLine } from './mail-layout.ts';
import { mailDate } from './envelope-reminder-mail.ts';

export type ExpirationWarningMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  signingUrl: string;
  expiresAt: Date;
};

/** expireWarn days before expiry, to every signer who still has to sign. */
export function expirationWarningMail(input: ExpirationWarningMailInput): MailMessage {
  const subject = `Expires soon: ${oneLine(input.emailSubject)}`;
  const heading = `${input.to.name}, this envelope expires soon`;
  const text = [
    heading,
    '',
    `"${oneLine(input.emailSubject)}" expires on ${mailDate(input.expiresAt)}. After that it can no longer be signed.`,
    '',
    'Review and sign it here:',
    input.signingUrl,
    '',
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
<p>“${input.emailSubject}” expires on ${mailDate(input.expiresAt)}. After that it can no longer be signed.</p>
${mailButton('Review and sign', input.signingUrl)}
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'expiration-warning', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body) };
}
