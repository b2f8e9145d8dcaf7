import { signingUrl } from '../mail/compose-notification.ts';
import { visibleDocuments } from '../domain/envelope/document-visibility.ts';
import type { Recipient } from '../domain/envelope/envelope.ts';
import { mailAddressee, managesRecipients } from '../domain/envelope/recipient-kinds.ts';
import { envelopeExpiredMail } from '../mail/templates/envelope-expired-mail.ts';
import { envelopeReminderMail } from '../mail/templates/envelope-reminder-mail.ts';
import { expirationWarningMail } from '../mail/templates/expiration-warning-mail.ts';
import { mailBrandOf } from '../mail/templates/mail-brand.ts';
import { notificationOf } from '../domain/notification/envelope-notification.ts';
import { recipientLanguage } from '../domain/language/languages.ts';
import type { NotificationMails } from '../domain/notification/notification-step.ts';

/** The scheduler's mails, with signing links on PUBLIC_URL. */
export function buildNotificationMails(publicUrl: string): NotificationMails {
  // An in-person signer's reminders carry the link, so they go to the host.
  const to = (r: Recipient) => mailAddressee(r);
  return {
    reminder: (envelope, recipient, token, expiresAt) =>
      envelopeReminderMail({ envelopeId: envelope.envelopeId, to: to(recipient), emailSubject: envelope.emailSubject, emailBlurb: envelope.emailBlurb, documentNames: visibleDocuments(envelope, recipient).map((d) => d.name), signingUrl: signingUrl(publicUrl, token), expiresAt, brand: mailBrandOf(envelope.brand, publicUrl), language: recipientLanguage(envelope, recipient), ...(recipient.type === 'certifiedDelivery' ? { acknowledgeOnly: true } : {}), ...(managesRecipients(recipient) ? { specifyRecipients: true } : {}) }),
    expirationWarning: (envelope, recipient, token, expiresAt) =>
      expirationWarningMail({ envelopeId: envelope.envelopeId, to: to(recipient), emailSubject: envelope.emailSubject, signingUrl: signingUrl(publicUrl, token), expiresAt, brand: mailBrandOf(envelope.brand, publicUrl), language: recipientLanguage(envelope, recipient) }),
    expired: (envelope, recipient) =>
      envelopeExpiredMail({ envelopeId: envelope.envelopeId, to: to(recipient), emailSubject: envelope.emailSubject, expireAfterDays: notificationOf(envelope).settings.expireAfterDays, brand: mailBrandOf(envelope.brand, publicUrl), language: recipientLanguage(envelope, recipient) }),
  };
}
