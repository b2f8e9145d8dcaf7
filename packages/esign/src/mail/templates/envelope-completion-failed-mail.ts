import { html } from '../../web/html.ts';
import type { MailMessage } from '../../domain/mail/mail-message.ts';
import { mailLayout, oneLine } from './mail-layout.ts';

export type EnvelopeCompletionFailedMailInput = {
  envelopeId: string;
  /** The sender: every signer has signed, and they are the one waiting for the sealed PDF. */
  to: { email: string; name: string };
  emailSubject: string;
  attempts: number;
};

/** The service gave up completing a signed envelope: the sender hears it rather than waiting in silence. */
export function envelopeCompletionFailedMail(input: EnvelopeCompletionFailedMailInput): MailMessage {
  const subject = `Action needed: "${oneLine(input.emailSubject)}" could not be completed`;
  const heading = 'Your envelope is signed but not yet completed';
  const sentence = `Every signer has signed "${oneLine(input.emailSubject)}", but the service could not stamp and seal its documents (${input.attempts} tries). The signatures are kept; the operator of this service has been told and can retry the completion. You will get the completed documents when it succeeds.`;
  const text = [heading, '', sentence, '', `Envelope ID: ${input.envelopeId}`].join('\n');
  const body = html`
<p>Every signer has signed “${input.emailSubject}”, but the service could not stamp and seal its documents (${String(input.attempts)} tries).</p>
<p>The signatures are kept; the operator of this service has been told and can retry the completion. You will get the completed documents when it succeeds.</p>
<p style="font-size:12px;color:#656d76">Envelope ID: ${input.envelopeId}</p>`;
  return { kind: 'envelope-completion-failed', envelopeId: input.envelopeId, to: input.to, subject, text, html: mailLayout(heading, body) };
}
