import nodemailer from 'nodemailer';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import { MailDeliveryError, type MailTransport } from './mail-transport.ts';

export type SmtpTransportOptions = {
  /** smtp://[user:pass@]host:port or smtps://… (SMTP_URL). */
  smtpUrl: string;
  /** The From header, e.g. `"Signet" <no-reply@localhost>`. */
  from: string;
  /** Per-exchange timeouts; a hung server must not hold an outbox lease forever. */
  timeoutMs?: number;
};

/** SMTP delivery through nodemailer. A 5xx reply is permanent (RFC 5321 §4.2.1); the rest are retried. */
export function buildSmtpTransport(options: SmtpTransportOptions): MailTransport {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const url = new URL(options.smtpUrl);
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 25)),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(message: MailMessage, messageId: string): Promise<void> {
      try {
        await transporter.sendMail({
          from: options.from,
          // Otherwise nodemailer makes a new one per attempt, and a re-sent copy looks like a new mail.
          messageId,
          to: { name: message.to.name, address: message.to.email },
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: (message.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.contentBase64, encoding: 'base64' })),
          headers: { 'X-Signet-Notification': message.kind, ...(message.envelopeId ? { 'X-Signet-Envelope-Id': message.envelopeId } : {}) },
        });
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        throw new MailDeliveryError(`SMTP delivery to ${message.to.email} failed: ${(err as Error).message}`, code !== undefined && code >= 500 && code < 600, { cause: err });
      }
    },
    close(): Promise<void> {
      transporter.close();
      return Promise.resolve();
    },
  };
}
