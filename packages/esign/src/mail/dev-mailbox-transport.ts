import type { MailMessage } from './mail-message.ts';
import type { MailTransport } from './mail-transport.ts';

/** Where the dev mailbox keeps messages (store/dev-mailbox-repository.ts). */
export interface DevMailboxSink {
  add(message: MailMessage, now: Date): Promise<string>;
}

/** Delivery into the dev mailbox, used when SMTP_URL is unset: every mail shows up at /dev/mailbox. */
export function buildDevMailboxTransport(sink: DevMailboxSink, clock: () => Date = () => new Date()): MailTransport {
  return {
    async send(message: MailMessage): Promise<void> {
      await sink.add(message, clock());
    },
    close: () => Promise.resolve(),
  };
}
