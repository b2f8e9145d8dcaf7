import type { Envelope } from '../domain/envelope/envelope.ts';
import { recipientLanguage } from '../domain/language/languages.ts';
import { translator, type Translator } from '../i18n/translator.ts';

/**
 * The language of the pages a recipient sees: the one their mails are in (their own
 * supportedLanguage, else the envelope brand's, else the account's, else English;
 * domain/language/languages.ts, docs/esign-languages.md). A link whose recipient is not on the
 * envelope any more reads the envelope's brand or account language.
 */
export function pageTranslator(envelope: Envelope, recipientId: string): Translator {
  return translator(recipientLanguage(envelope, envelope.recipients.find((r) => r.recipientId === recipientId)));
}
