import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type EnvelopeDeclinedMailInput = {
  envelopeId: string;
  /** The sender: DocuSign tells the sender when a recipient declines. */
  to: { email: string; name: string };
  emailSubject: string;
  signer: { name: string; email: string };
  reason: string;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** The envelope's language (the sender is no recipient: the brand's, else the account's). */
  language?: Language;
};

/** A signer declined: the sender learns who and why. */
export function envelopeDeclinedMail(input: EnvelopeDeclinedMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = tr.t('declined.subject', { subject: oneLine(input.emailSubject) });
  const heading = tr.t('declined.heading', { name: oneLine(input.signer.name) });
  const text = [
    heading,
    '',
    tr.t('declined.body', { name: oneLine(input.signer.name), email: oneLine(input.signer.email), subject: oneLine(input.emailSubject) }),
    '',
    `${tr.t('mail.reasonLabel')} ${input.reason}`,
    '',
    tr.t('mail.envelopeId', { envelopeId: input.envelopeId }),
  ].join('\n');
  const body = html`
<p>${tr.t('declined.body', { name: input.signer.name, email: input.signer.email, subject: input.emailSubject })}</p>
<p><strong>${tr.t('mail.reasonLabel')}</strong> <span style="white-space:pre-line">${input.reason}</span></p>
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'envelope-declined', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand, tr) };
}
