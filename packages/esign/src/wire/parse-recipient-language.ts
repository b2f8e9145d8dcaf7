import { isSupportedLanguage, SUPPORTED_LANGUAGES, type Language } from '../domain/language/languages.ts';
import { checkModelFields, type ModelFieldRule } from './check-model-fields.ts';
import type { WireReader } from './wire-reader.ts';

/**
 * A recipient's RecipientEmailNotification (node_modules/docusign-esign/src/model/
 * RecipientEmailNotification.js): the language is honoured; a subject or message of the
 * recipient's own is refused by name, never dropped.
 */
export const RECIPIENT_EMAIL_NOTIFICATION_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  supportedLanguage: { rule: 'honoured' },
  emailSubject: { rule: 'refused', why: 'a per-recipient e-mail subject is not supported yet: every recipient gets the envelope\'s' },
  emailBody: { rule: 'refused', why: 'a per-recipient e-mail message is not supported yet: every recipient gets the envelope\'s' },
  emailSubjectMetadata: { rule: 'output' }, emailBodyMetadata: { rule: 'output' }, supportedLanguageMetadata: { rule: 'output' },
};

/**
 * `emailNotification.supportedLanguage` of a recipient: a language this service speaks
 * (domain/language/languages.ts), else INVALID_REQUEST_BODY naming the code: a recipient is
 * never silently written to in English when another language was asked for.
 */
export function parseRecipientLanguage(recipient: WireReader): Language | undefined {
  const notification = recipient.field('emailNotification');
  if (!notification.present) return undefined;
  if (notification.object() === undefined) notification.fail('must be an object.');
  checkModelFields(notification, 'RecipientEmailNotification', RECIPIENT_EMAIL_NOTIFICATION_FIELDS);
  const code = notification.field('supportedLanguage').optionalString(20);
  if (code === undefined || code === '') return undefined;
  if (isSupportedLanguage(code)) return code;
  return notification.field('supportedLanguage').fail(`"${code}" is not a supported language; use one of ${SUPPORTED_LANGUAGES.join(', ')}.`);
}
