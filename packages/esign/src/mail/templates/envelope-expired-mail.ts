import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailLayout, oneLine } from './mail-layout.ts';

export type EnvelopeExpiredMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  expireAfterDays: number;
};

/**
 * The void notice of an envelope that expired: DocuSign voids it and tells the
 * recipients already reached, as for a void by the sender; the reason says it expired.
 */
export function envelopeExpiredMail(input: EnvelopeExpiredMailInput): MailMessage {
  const subject = `Voided: ${oneLine(input.emailSubject)}`;
  const heading = 'This envelope has expired';
  // expireAfter 0 is DocuSign's "less than one day": the rest of the sending day.
  const within = input.expireAfterDays === 0 ? 'on the day it was sent' : `within ${input.expireAfterDays === 1 ? '1 day' : `${input.expireAfterDays} days`} of being sent`;
  const text = [
    heading,
    '',
    `"${oneLine(input.emailSubject)}" was not completed ${within}, so it expired and was voided. You no longer need to act on it, and its links no longer work.`,
    '',
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
<p>“${input.emailSubject}” was not completed ${within}, so it expired and was voided. You no longer need to act on it, and its links no longer work.</p>
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'envelope-expired', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body) };
}
