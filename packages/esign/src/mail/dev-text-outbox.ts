import type { DevMailboxRepository } from '../store/dev-mailbox-repository.ts';
import type { TextMessage, TextSender } from './text-sender.ts';

/**
 * The development text sender: nothing leaves the machine; each message is kept in the
 * database and listed on the dev mailbox page, beside the mails.
 */
export function buildDevTextOutbox(mailbox: Pick<DevMailboxRepository, 'addText'>, clock: () => Date = () => new Date()): TextSender {
  return {
    async send(message: TextMessage) {
      await mailbox.addText(message, clock());
    },
  };
}
