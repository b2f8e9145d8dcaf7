import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type EnvelopeVoidedMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  voidedReason: string;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
};

/** Tells a recipient who was already reached that the envelope was voided, and why. */
export function envelopeVoidedMail(input: EnvelopeVoidedMailInput): MailMessage {
  const subject = `Voided: ${oneLine(input.emailSubject)}`;
  const heading = 'This envelope was voided';
  const text = [
    heading,
    '',
    `"${oneLine(input.emailSubject)}" was voided by its sender. You no longer need to act on it, and its links no longer work.`,
    '',
    `Reason: ${input.voidedReason}`,
    '',
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
<p>“${input.emailSubject}” was voided by its sender. You no longer need to act on it, and its links no longer work.</p>
<p><strong>Reason:</strong> <span style="white-space:pre-line">${input.voidedReason}</span></p>
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'envelope-voided', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand) };
}
