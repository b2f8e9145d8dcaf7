import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type FinishedEmbeddedMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  /** A certified delivery acknowledged; anyone else signed. */
  acknowledged: boolean;
  finishedAt: Date;
  brand?: MailBrand | undefined;
  language?: Language;
};

/**
 * The one mail an embedded recipient gets (domain/envelope/recipient-kinds.ts isEmbedded): after
 * they finish in the sender's application, so that someone who did not sign learns that it was
 * done in their name (DocuSign's embedding guide: a fraud-detection measure). It carries no link:
 * the documents are the sender's application's to show.
 */
export function finishedEmbeddedMail(input: FinishedEmbeddedMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = tr.t(input.acknowledged ? 'embedded.subjectAcknowledged' : 'embedded.subjectSigned', { subject: oneLine(input.emailSubject) });
  const heading = tr.t(input.acknowledged ? 'embedded.headingAcknowledged' : 'embedded.headingSigned', { name: oneLine(input.to.name) });
  const body = (emailSubject: string) => tr.t(input.acknowledged ? 'embedded.bodyAcknowledged' : 'embedded.bodySigned', { subject: emailSubject, at: input.finishedAt });
  const text = [heading, '', body(oneLine(input.emailSubject)), '', tr.t('embedded.notYou'), '', tr.t('mail.envelopeId', { envelopeId: input.envelopeId })].join('\n');
  const bodyHtml = html`
<p>${body(input.emailSubject)}</p>
<p><strong>${tr.t('embedded.notYou')}</strong></p>
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'finished-embedded', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, bodyHtml, input.brand, tr) };
}
