import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type EnvelopeExpiredMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  expireAfterDays: number;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/**
 * The void notice of an envelope that expired: DocuSign voids it and tells the
 * recipients already reached, as for a void by the sender; the reason says it expired.
 * expireAfter 0 is DocuSign's "less than one day": the rest of the sending day (the
 * catalogs' `=0` case).
 */
export function envelopeExpiredMail(input: EnvelopeExpiredMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = tr.t('voided.subject', { subject: oneLine(input.emailSubject) });
  const heading = tr.t('expired.heading');
  const text = [heading, '', tr.t('expired.body', { subject: oneLine(input.emailSubject), days: input.expireAfterDays }), '', tr.t('mail.envelopeId', { envelopeId: input.envelopeId })].join('\n');
  const body = html`
<p>${tr.t('expired.body', { subject: input.emailSubject, days: input.expireAfterDays })}</p>
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'envelope-expired', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand, tr) };
}
