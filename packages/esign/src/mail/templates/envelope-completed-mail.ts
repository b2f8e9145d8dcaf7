import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailButton, mailLayout, oneLine } from './mail-layout.ts';

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
};

/** Everyone signed: the completed documents, attached (≤ 5 MB) or linked. */
export function envelopeCompletedMail(input: EnvelopeCompletedMailInput): MailMessage {
  const attach = input.pdf.bytes.byteLength <= MAX_ATTACHMENT_BYTES;
  const subject = `Completed: ${oneLine(input.emailSubject)}`;
  const heading = 'All parties have completed the envelope';
  const text = [
    heading,
    '',
    `"${oneLine(input.emailSubject)}" is signed by everyone.`,
    attach ? 'The completed documents are attached.' : 'Download the completed documents here:',
    ...(attach ? [] : [input.downloadUrl]),
    '',
    `Envelope ID: ${input.envelopeId}`,
  ].join('\n');
  const body = html`
<p>“${input.emailSubject}” is signed by everyone.</p>
${attach ? html`<p>The completed documents are attached.</p>` : mailButton('Download the completed documents', input.downloadUrl)}
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return {
    kind: 'envelope-completed',
    envelopeId: input.envelopeId,
    to: input.to,
    subject,
    text,
    html: mailLayout(heading, body),
    ...(attach ? { attachments: [{ filename: input.pdf.filename, contentType: 'application/pdf', contentBase64: Buffer.from(input.pdf.bytes).toString('base64') }] } : {}),
  };
}
