import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailButton, mailLayout, oneLine } from './mail-layout.ts';
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
};

/**
 * "Please sign" (signers) or "for your information" (carbon copies). The signing link is a
 * plain https URL on a line of its own in the text part (docs/esign-envelopes.md, "Signing
 * links": tests and mail clients find it there); every value from the envelope is escaped in the HTML part.
 */
export function envelopeSentMail(input: EnvelopeSentMailInput): MailMessage {
  const subject = oneLine(input.emailSubject);
  const documents = input.documentNames.map((n) => `  - ${oneLine(n)}`).join('\n');
  const acknowledge = input.acknowledgeOnly === true && input.signingUrl !== undefined;
  const heading = acknowledge ? `${input.to.name}, please review and acknowledge` : input.signingUrl ? `${input.to.name}, please sign` : `${input.to.name}, you have a copy to review`;
  const listIntro = acknowledge ? 'Documents delivered to you, to view and acknowledge (certified delivery):' : input.signingUrl ? 'Documents waiting for your signature:' : 'Documents sent to you for your information:';
  const action = acknowledge ? 'Review and acknowledge' : 'Review and sign';
  const text = [
    ...(input.brand?.company ? [oneLine(input.brand.company), ''] : []),
    heading,
    '',
    ...(input.emailBlurb ? [input.emailBlurb, ''] : []),
    ...(input.inPersonSigner ? [`You host an in person signing: open the link with ${oneLine(input.inPersonSigner)} beside you and hand them your device to sign.`, ''] : []),
    listIntro,
    documents,
    '',
    ...(input.signingUrl ? [`${action} them here:`, input.signingUrl, ''] : ['You will receive the completed documents when everyone has signed.', '']),
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
${input.emailBlurb ? html`<p style="white-space:pre-line">${input.emailBlurb}</p>` : ''}
${input.inPersonSigner ? html`<p>You host an in person signing: open the link with ${input.inPersonSigner} beside you and hand them your device to sign.</p>` : ''}
<p>${listIntro}</p>
<ul>${input.documentNames.map((n) => html`<li>${n}</li>`)}</ul>
${input.signingUrl ? mailButton(action, input.signingUrl, input.brand) : html`<p>You will receive the completed documents when everyone has signed.</p>`}
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'envelope-sent', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand) };
}
