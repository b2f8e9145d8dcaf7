import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailButton, mailLayout, oneLine } from './mail-layout.ts';
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
};

/** A day as people read it in a mail: "21 November 2026" (UTC). */
export function mailDate(at: Date): string {
  return at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/**
 * "Reminder: <subject>" to a signer who has not signed yet: the first mail again
 * (the sender's message, the documents), with a fresh link and the expiry date. Like the first
 * mail, the signing link is a plain https URL on a line of its own in the text part.
 */
export function envelopeReminderMail(input: EnvelopeReminderMailInput): MailMessage {
  const subject = `Reminder: ${oneLine(input.emailSubject)}`;
  const heading = input.acknowledgeOnly ? `${input.to.name}, your acknowledgement is still needed` : `${input.to.name}, your signature is still needed`;
  const waiting = input.acknowledgeOnly ? 'These documents are still waiting for you to view and acknowledge them:' : 'These documents are still waiting for your signature:';
  const action = input.acknowledgeOnly ? 'Review and acknowledge' : 'Review and sign';
  const text = [
    heading,
    '',
    ...(input.emailBlurb ? [input.emailBlurb, ''] : []),
    waiting,
    input.documentNames.map((n) => `  - ${oneLine(n)}`).join('\n'),
    '',
    `${action} them here:`,
    input.signingUrl,
    '',
    `The envelope expires on ${mailDate(input.expiresAt)}.`,
    '',
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
${input.emailBlurb ? html`<p style="white-space:pre-line">${input.emailBlurb}</p>` : ''}
<p>${waiting}</p>
<ul>${input.documentNames.map((n) => html`<li>${n}</li>`)}</ul>
${mailButton(action, input.signingUrl, input.brand)}
<p>The envelope expires on ${mailDate(input.expiresAt)}.</p>
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'envelope-reminder', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body, input.brand) };
}
