import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailButton, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

/** The completed PDF is attached only up to 5 MB; above, the mail links to it (docs/esign-signing.md, "Completion"). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export type EnvelopeCompletedMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  /** The sealed combined PDF. */
  pdf: { filename: string; bytes: Uint8Array };
  /** Where the PDF can be downloaded when it is too large to attach. */
  downloadUrl: string;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/** Everyone signed: the completed documents, attached (≤ 5 MB) or linked. */
export function envelopeCompletedMail(input: EnvelopeCompletedMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const attach = input.pdf.bytes.byteLength <= MAX_ATTACHMENT_BYTES;
  const subject = tr.t('completed.subject', { subject: oneLine(input.emailSubject) });
  const heading = tr.t('completed.heading');
  const text = [
    heading,
    '',
    tr.t('completed.body', { subject: oneLine(input.emailSubject) }),
    tr.t(attach ? 'completed.attached' : 'completed.downloadHere'),
    ...(attach ? [] : [input.downloadUrl]),
    '',
    tr.t('mail.envelopeId', { envelopeId: input.envelopeId }),
  ].join('\n');
  const body = html`
<p>${tr.t('completed.body', { subject: input.emailSubject })}</p>
${attach ? html`<p>${tr.t('completed.attached')}</p>` : mailButton(tr.t('completed.downloadButton'), input.downloadUrl, input.brand)}
${envelopeIdLine(tr, input.envelopeId)}`;
  return {
    kind: 'envelope-completed',
    envelopeId: input.envelopeId,
    to: input.to,
    subject,
    text,
    html: mailLayout(heading, body, input.brand, tr),
    ...(attach ? { attachments: [{ filename: input.pdf.filename, contentType: 'application/pdf', contentBase64: Buffer.from(input.pdf.bytes).toString('base64') }] } : {}),
  };
}
