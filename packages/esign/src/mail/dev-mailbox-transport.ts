import type { MailMessage } from '../domain/mail/mail-message.ts';
import type { MailTransport } from './mail-transport.ts';

/** Where the dev mailbox keeps messages (store/dev-mailbox-repository.ts). */
export interface DevMailboxSink {
  /** Stores the message once per Message-ID (a second copy is dropped, as a mail store would); resolves with its id. */
  add(message: MailMessage, messageId: string, now: Date): Promise<string>;
}

/** Delivery into the dev mailbox, used when SMTP_URL is unset: every mail shows up at /dev/mailbox. */
export function buildDevMailboxTransport(sink: DevMailboxSink, clock: () => Date = () => new Date()): MailTransport {
  return {
    async send(message: MailMessage, messageId: string): Promise<void> {
      await sink.add(message, messageId, clock());
    },
    close: () => Promise.resolve(),
  };
}
