import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type PasscodeMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  code: string;
  minutes: number;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/** The e-mail one-time passcode: the code alone, never a link (the signing link came in another mail). */
export function passcodeMail(input: PasscodeMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const heading = tr.t('passcode.subject');
  const text = [
    heading,
    '',
    `${tr.t('passcode.intro', { subject: oneLine(input.emailSubject) })} ${input.code}`,
    tr.t('passcode.validity', { minutes: input.minutes }),
    tr.t('passcode.warning'),
  ].join('\n');
  const body = html`
<p>${tr.t('passcode.intro', { subject: input.emailSubject })}</p>
<p style="font-size:28px;letter-spacing:4px;font-weight:bold">${input.code}</p>
<p>${tr.t('passcode.validity', { minutes: input.minutes })} ${tr.t('passcode.warning')}</p>`;
  return { kind: 'passcode', envelopeId: input.envelopeId, to: input.to, subject: heading, text, html: mailLayout(heading, body, input.brand, tr) };
}
