import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailButton, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type EnvelopeReminderMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  /** The sender's message (the current one: a later Envelopes::update may have changed it). */
  emailBlurb?: string | undefined;
  documentNames: readonly string[];
  /** A fresh personal signing link (the first one is stored only as a hash). */
  signingUrl: string;
  /** When the envelope expires, so the signer knows how long they have. */
  expiresAt: Date;
  /** The envelope's brand (mail-brand.ts). */
  brand?: MailBrand | undefined;
  /** A certified delivery: reminded to view and acknowledge, not to sign. */
  acknowledgeOnly?: boolean;
  /** An agent, editor or intermediary: reminded to say who the next recipients are. */
  specifyRecipients?: boolean;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/**
 * "Reminder: <subject>" to a signer who has not signed yet: the first mail again
 * (the sender's message, the documents), with a fresh link and the expiry date (a UTC day in
 * the recipient's language). Like the first mail, the signing link is a plain https URL on a
 * line of its own in the text part.
 */
export function envelopeReminderMail(input: EnvelopeReminderMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = tr.t('reminder.subject', { subject: oneLine(input.emailSubject) });
  const heading = tr.t(input.specifyRecipients ? 'reminder.headingSpecify' : input.acknowledgeOnly ? 'reminder.headingAcknowledge' : 'reminder.heading', { name: input.to.name });
  const waiting = tr.t(input.specifyRecipients ? 'reminder.documentsSpecify' : input.acknowledgeOnly ? 'reminder.documentsAcknowledge' : 'reminder.documents');
  const expires = tr.t('reminder.expiresOn', { expiresAt: input.expiresAt });
  const text = [
    heading,
    '',
    ...(input.emailBlurb ? [input.emailBlurb, ''] : []),
    waiting,
    input.documentNames.map((n) => `  - ${oneLine(n)}`).join('\n'),
    '',
    tr.t(input.specifyRecipients ? 'mail.reviewAndSpecifyHere' : input.acknowledgeOnly ? 'mail.reviewAndAcknowledgeHere' : 'mail.reviewAndSignHere'),
    input.signingUrl,
    '',
    expires,
    '',
    tr.t('mail.envelopeId', { envelopeId: input.envelopeId }),
  ].join('\n');
  const body = html`
${input.emailBlurb ? html`<p style="white-space:pre-line">${input.emailBlurb}</p>` : ''}
<p>${waiting}</p>
<ul>${input.documentNames.map((n) => html`<li>${n}</li>`)}</ul>
${mailButton(tr.t(input.specifyRecipients ? 'mail.reviewAndSpecify' : input.acknowledgeOnly ? 'mail.reviewAndAcknowledge' : 'mail.reviewAndSign'), input.signingUrl, input.brand)}
<p>${expires}</p>
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'envelope-reminder', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand, tr) };
}
