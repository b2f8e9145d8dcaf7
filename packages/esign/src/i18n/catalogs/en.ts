/**
 * English: the reference catalog. Every other language's file has exactly these keys
 * (typechecked by Catalog, and tested in i18n/catalogs.test.ts). Messages are ICU MessageFormat
 * (intl-messageformat); dates use the `day` style of i18n/translator.ts. Messages are plain text:
 * the HTML part escapes them with the values inserted, so none may carry markup.
 */
export const en = {
  'mail.envelopeId': 'Envelope ID: {envelopeId}',
  'mail.reasonLabel': 'Reason:',
  'mail.doNotShare': 'Do not share this e-mail: its link lets anyone act in your name.',
  'mail.reviewAndSign': 'Review and sign',
  'mail.reviewAndSignHere': 'Review and sign them here:',
  'sent.headingSign': '{name}, please sign',
  'sent.headingCopy': '{name}, you have a copy to review',
  'sent.inPerson': 'You host an in person signing: open the link with {signer} beside you and hand them your device to sign.',
  'sent.documentsToSign': 'Documents waiting for your signature:',
  'sent.documentsForInformation': 'Documents sent to you for your information:',
  'sent.copyAfterwards': 'You will receive the completed documents when everyone has signed.',
  'reminder.subject': 'Reminder: {subject}',
  'reminder.heading': '{name}, your signature is still needed',
  'reminder.documents': 'These documents are still waiting for your signature:',
  'reminder.expiresOn': 'The envelope expires on {expiresAt, date, day}.',
  'warning.subject': 'Expires soon: {subject}',
  'warning.heading': '{name}, this envelope expires soon',
  'warning.body': '“{subject}” expires on {expiresAt, date, day}. After that it can no longer be signed.',
  'warning.reviewHere': 'Review and sign it here:',
  'completed.subject': 'Completed: {subject}',
  'completed.heading': 'All parties have completed the envelope',
  'completed.body': '“{subject}” is signed by everyone.',
  'completed.attached': 'The completed documents are attached.',
  'completed.downloadHere': 'Download the completed documents here:',
  'completed.downloadButton': 'Download the completed documents',
  'voided.subject': 'Voided: {subject}',
  'voided.heading': 'This envelope was voided',
  'voided.body': '“{subject}” was voided by its sender. You no longer need to act on it, and its links no longer work.',
  'expired.heading': 'This envelope has expired',
  'expired.body': '{days, plural, =0 {“{subject}” was not completed on the day it was sent} one {“{subject}” was not completed within # day of being sent} other {“{subject}” was not completed within # days of being sent}}, so it expired and was voided. You no longer need to act on it, and its links no longer work.',
  'declined.subject': 'Declined: {subject}',
  'declined.heading': '{name} declined to sign',
  'declined.body': '{name} <{email}> declined to sign “{subject}”. The envelope is closed.',
  'passcode.subject': 'Your one-time passcode',
  'passcode.intro': 'Your passcode for “{subject}” is',
  'passcode.validity': 'It works once, for {minutes, plural, one {# minute} other {# minutes}}.',
  'passcode.warning': 'If you did not ask for it, someone else may have your signing link: do not share this code.',
  'mail.reviewAndAcknowledge': 'Review and acknowledge',
  'mail.reviewAndAcknowledgeHere': 'Review and acknowledge them here:',
  'sent.headingAcknowledge': '{name}, please review and acknowledge',
  'sent.documentsToAcknowledge': 'Documents delivered to you, to view and acknowledge (certified delivery):',
  'reminder.headingAcknowledge': '{name}, your acknowledgement is still needed',
  'reminder.documentsAcknowledge': 'These documents are still waiting for you to view and acknowledge them:',
} as const;

export type MessageKey = keyof typeof en;
/** A language's messages: every key of English, no other. */
export type Catalog = Readonly<Record<MessageKey, string>>;
