import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type EnvelopeVoidedMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  voidedReason: string;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/** Tells a recipient who was already reached that the envelope was voided, and why. */
export function envelopeVoidedMail(input: EnvelopeVoidedMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = tr.t('voided.subject', { subject: oneLine(input.emailSubject) });
  const heading = tr.t('voided.heading');
  const text = [
    heading,
    '',
    tr.t('voided.body', { subject: oneLine(input.emailSubject) }),
    '',
    `${tr.t('mail.reasonLabel')} ${input.voidedReason}`,
    '',
    tr.t('mail.envelopeId', { envelopeId: input.envelopeId }),
  ].join('\n');
  const body = html`
<p>${tr.t('voided.body', { subject: input.emailSubject })}</p>
<p><strong>${tr.t('mail.reasonLabel')}</strong> <span style="white-space:pre-line">${input.voidedReason}</span></p>
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'envelope-voided', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand, tr) };
}
