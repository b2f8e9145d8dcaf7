import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailButton, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type ExpirationWarningMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  signingUrl: string;
  expiresAt: Date;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/** expireWarn days before expiry, to every signer who still has to sign. */
export function expirationWarningMail(input: ExpirationWarningMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = tr.t('warning.subject', { subject: oneLine(input.emailSubject) });
  const heading = tr.t('warning.heading', { name: input.to.name });
  const text = [
    heading,
    '',
    tr.t('warning.body', { subject: oneLine(input.emailSubject), expiresAt: input.expiresAt }),
    '',
    tr.t('warning.reviewHere'),
    input.signingUrl,
    '',
    tr.t('mail.envelopeId', { envelopeId: input.envelopeId }),
  ].join('\n');
  const body = html`
<p>${tr.t('warning.body', { subject: input.emailSubject, expiresAt: input.expiresAt })}</p>
${mailButton(tr.t('mail.reviewAndSign'), input.signingUrl, input.brand)}
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'expiration-warning', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand, tr) };
}
