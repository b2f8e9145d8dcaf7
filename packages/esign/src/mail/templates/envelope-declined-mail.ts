import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailLayout, oneLine } from './mail-layout.ts';

export type EnvelopeDeclinedMailInput = {
  envelopeId: string;
  /** The sender: DocuSign tells the sender when a recipient declines. */
  to: { email: string; name: string };
  emailSubject: string;
  signer: { name: string; email: string };
  reason: string;
};

/** A signer declined: the sender learns who and why. */
export function envelopeDeclinedMail(input: EnvelopeDeclinedMailInput): MailMessage {
  const subject = `Declined: ${oneLine(input.emailSubject)}`;
  const heading = `${oneLine(input.signer.name)} declined to sign`;
  const text = [
    heading,
    '',
    `${oneLine(input.signer.name)} <${oneLine(input.signer.email)}> declined to sign "${oneLine(input.emailSubject)}". The envelope is closed.`,
    '',
    `Reason: ${input.reason}`,
    '',
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
<p>${input.signer.name} &lt;${input.signer.email}&gt; declined to sign “${input.emailSubject}”. The envelope is closed.</p>
<p><strong>Reason:</strong> <span style="white-space:pre-line">${input.reason}</span></p>
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'envelope-declined', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body) };
}
