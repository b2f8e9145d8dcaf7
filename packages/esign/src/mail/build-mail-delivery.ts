import type { DevMailboxRepository } from '../store/dev-mailbox-repository.ts';
import type { OutboxRepository } from '../store/outbox-repository.ts';
import { buildDevMailboxTransport } from './dev-mailbox-transport.ts';
import type { MailTransport } from './mail-transport.ts';
import { OutboxWorker, type OutboxWorkerOptions } from './outbox-worker.ts';
import { buildSmtpTransport } from './smtp-transport.ts';

export type MailDeliveryOptions = {
  outbox: OutboxRepository;
  /** Where mail goes when SMTP_URL is unset. */
  devMailbox: DevMailboxRepository;
  /** SMTP_URL; unset → the dev mailbox. */
  smtpUrl: string | undefined;
  /** PUBLIC_URL: the From address takes its host name. */
  publicUrl: string;
  workerId: string;
  clock?: () => Date;
  worker?: Partial<Pick<OutboxWorkerOptions, 'pollIntervalMs' | 'retry' | 'leaseMs' | 'batchSize' | 'onError' | 'random'>>;
};

/** The outbox worker with its transport (SMTP, or the dev mailbox), and the mailbox for its pages. */
export type MailDelivery = { worker: OutboxWorker; transport: MailTransport; devMailbox: DevMailboxRepository | undefined };

/** Wires mail delivery for a server: the server starts the worker and stops it on close. */
export function buildMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const host = new URL(options.publicUrl).hostname;
  const devMailbox = options.smtpUrl ? undefined : options.devMailbox;
  const transport = options.smtpUrl
    ? buildSmtpTransport({ smtpUrl: options.smtpUrl, from: `"Signet" <no-reply@${host}>` })
    : buildDevMailboxTransport(options.devMailbox, options.clock);
  const worker = new OutboxWorker({
    queue: options.outbox,
    transport,
    workerId: options.workerId,
    messageIdHost: host,
    ...(options.clock ? { clock: options.clock } : {}),
    ...options.worker,
  });
  return { worker, transport, devMailbox };
}
