import type { Envelope } from '../domain/envelope/envelope.ts';
import { visibleDocuments } from '../domain/envelope/document-visibility.ts';
import type { Notification, Notifier } from '../domain/envelope/ports.ts';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import { mailAddressee, managesRecipients } from '../domain/envelope/recipient-kinds.ts';
import { envelopeSentMail } from './templates/envelope-sent-mail.ts';
import { envelopeVoidedMail } from './templates/envelope-voided-mail.ts';
import { finishedEmbeddedMail } from './templates/finished-embedded-mail.ts';
import { mailBrandOf } from './templates/mail-brand.ts';
import { recipientLanguage } from '../domain/language/languages.ts';

/** The path of a signing link; signing/ serves it. */
export const SIGNING_PATH = '/signing/';

/** The personal signing link for a raw token. */
export function signingUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${SIGNING_PATH}${encodeURIComponent(token)}`;
}

/** The Notifier the domain uses: notifications → rendered mails, links on PUBLIC_URL. */
export function buildNotifier(publicUrl: string): Notifier {
  return {
    compose(notification: Notification, envelope: Envelope): MailMessage {
      const recipient = envelope.recipients.find((r) => r.recipientId === notification.recipientId);
      if (!recipient) throw new TypeError(`recipient ${notification.recipientId} is not in envelope ${envelope.envelopeId}`);
      // An in-person signer's mail (and link) goes to the host, who hands over the device.
      const to = mailAddressee(recipient);
      const brand = mailBrandOf(envelope.brand, publicUrl);
      const language = recipientLanguage(envelope, recipient);
      switch (notification.kind) {
        case 'envelope-sent':
          return envelopeSentMail({
            envelopeId: envelope.envelopeId,
            to,
            emailSubject: envelope.emailSubject,
            emailBlurb: envelope.emailBlurb,
            // Only the documents this recipient sees are named (domain/envelope/document-visibility.ts).
            documentNames: visibleDocuments(envelope, recipient).map((d) => d.name),
            signingUrl: notification.signingToken === undefined ? undefined : signingUrl(publicUrl, notification.signingToken),
            ...(recipient.host ? { inPersonSigner: recipient.name } : {}),
            brand,
            ...(recipient.type === 'certifiedDelivery' ? { acknowledgeOnly: true } : {}),
            ...(managesRecipients(recipient) ? { specifyRecipients: true } : {}),
            language,
          });
        case 'envelope-voided':
          return envelopeVoidedMail({ envelopeId: envelope.envelopeId, to, emailSubject: envelope.emailSubject, voidedReason: envelope.voidedReason ?? '', brand, language });
        case 'finished-embedded':
          // To who acted: an in-person signer's own address (the host's when they gave none), not the host's.
          return finishedEmbeddedMail({ envelopeId: envelope.envelopeId, to: { name: recipient.name, email: recipient.email }, emailSubject: envelope.emailSubject, acknowledged: recipient.type === 'certifiedDelivery', finishedAt: notification.at, brand, language });
      }
    },
  };
}
