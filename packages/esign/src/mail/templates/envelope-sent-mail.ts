import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import type { Language } from '../../domain/language/languages.ts';
import { translator } from '../../i18n/translator.ts';
import { envelopeIdLine, mailButton, mailLayout, oneLine } from './mail-layout.ts';
import type { MailBrand } from './mail-brand.ts';

export type EnvelopeSentMailInput = {
  envelopeId: string;
  to: { email: string; name: string };
  emailSubject: string;
  emailBlurb?: string | undefined;
  documentNames: readonly string[];
  /** The personal signing link; absent for carbon copies and embedded signers. */
  signingUrl?: string | undefined;
  /** Set when `to` hosts an in-person signing: the signer's name (they sign on the host's device). */
  inPersonSigner?: string;
  /** The envelope's brand (mail-brand.ts); absent: the service's own look. */
  brand?: MailBrand | undefined;
  /** A certified delivery: the link is to view the documents and acknowledge them, not to sign. */
  acknowledgeOnly?: boolean;
  /** An agent, editor or intermediary: the link is to say who the next recipients are (domain/signing/manage-recipients.ts). */
  specifyRecipients?: boolean;
  /** The recipient's language (domain/language/languages.ts); absent: English. */
  language?: Language;
};

/**
 * "Please sign" (signers) or "for your information" (carbon copies). The signing link is a
 * plain https URL on a line of its own in the text part (docs/esign-envelopes.md, "Signing
 * links": tests and mail clients find it there); every value from the envelope is escaped in
 * the HTML part, the translated texts with it (i18n/translator.ts returns plain text).
 * The subject is the sender's own, untranslated, as DocuSign sends it.
 */
export function envelopeSentMail(input: EnvelopeSentMailInput): MailMessage {
  const tr = translator(input.language ?? 'en');
  const subject = oneLine(input.emailSubject);
  const documents = input.documentNames.map((n) => `  - ${oneLine(n)}`).join('\n');
  const acknowledge = input.acknowledgeOnly === true && input.signingUrl !== undefined;
  const specify = input.specifyRecipients === true && input.signingUrl !== undefined;
  const heading = tr.t(specify ? 'sent.headingSpecify' : acknowledge ? 'sent.headingAcknowledge' : input.signingUrl ? 'sent.headingSign' : 'sent.headingCopy', { name: input.to.name });
  const inPerson = input.inPersonSigner !== undefined ? tr.t('sent.inPerson', { signer: oneLine(input.inPersonSigner) }) : undefined;
  const listHeading = tr.t(specify ? 'sent.documentsToSpecify' : acknowledge ? 'sent.documentsToAcknowledge' : input.signingUrl ? 'sent.documentsToSign' : 'sent.documentsForInformation');
  const text = [
    ...(input.brand?.company ? [oneLine(input.brand.company), ''] : []),
    heading,
    '',
    ...(input.emailBlurb ? [input.emailBlurb, ''] : []),
    ...(inPerson ? [inPerson, ''] : []),
    listHeading,
    documents,
    '',
    ...(input.signingUrl ? [tr.t(specify ? 'mail.reviewAndSpecifyHere' : acknowledge ? 'mail.reviewAndAcknowledgeHere' : 'mail.reviewAndSignHere'), input.signingUrl, ''] : [tr.t('sent.copyAfterwards'), '']),
    tr.t('mail.envelopeId', { envelopeId: input.envelopeId }),
  ].join('\n');
  const body = html`
${input.emailBlurb ? html`<p style="white-space:pre-line">${input.emailBlurb}</p>` : ''}
${inPerson ? html`<p>${inPerson}</p>` : ''}
<p>${listHeading}</p>
<ul>${input.documentNames.map((n) => html`<li>${n}</li>`)}</ul>
${input.signingUrl ? mailButton(tr.t(specify ? 'mail.reviewAndSpecify' : acknowledge ? 'mail.reviewAndAcknowledge' : 'mail.reviewAndSign'), input.signingUrl, input.brand) : html`<p>${tr.t('sent.copyAfterwards')}</p>`}
${envelopeIdLine(tr, input.envelopeId)}`;
  return { kind: 'envelope-sent', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand, tr) };
}
