// What the pure signing-change tests share: recipients and a draft envelope built plainly, and
// deterministic ports (tokens count up, mails record what was asked).
import type { Envelope, Recipient, RecipientType } from '../envelope/envelope.ts';
import type { Notification } from '../envelope/ports.ts';
import type { RoutingDeps } from './signing-changes.ts';

export const T0 = new Date('2026-01-02T03:04:05.000Z');

export function recipient(recipientId: string, type: RecipientType, routingOrder: number, extra: Partial<Recipient> = {}): Recipient {
  return { recipientId, recipientIdGuid: `g-${recipientId}`, type, email: `${recipientId}@example.com`, name: `R${recipientId}`, routingOrder, status: 'created', tabs: [], ...extra };
}

/** A draft of one one-page document with these recipients, created at T0. */
export function draft(recipients: Recipient[], emailSubject = 'Subject'): Envelope {
  return { envelopeId: 'e1', accountId: 'a', senderUserId: 'u', status: 'created', emailSubject, createdAt: T0, statusChangedAt: T0, documents: [{ documentId: '1', name: 'Doc', fileExtension: 'pdf', order: 1, pageCount: 1, sha256: 'ab' }], recipients, version: 1 };
}

export function routingDeps(): RoutingDeps & { told: Notification[] } {
  let n = 0;
  const told: Notification[] = [];
  return {
    told,
    random: { uuid: () => `uuid-${++n}`, secretToken: () => `token-${++n}` },
    hashSecret: (s) => `hash(${s})`,
    notifier: { compose: (notification, envelope) => (told.push(notification), { kind: notification.kind, envelopeId: envelope.envelopeId, to: { email: notification.recipientId, name: '' }, subject: '', text: '', html: '' }) },
  };
}
