import { SUPPORTED_LANGUAGES } from '../domain/language/languages.ts';

/**
 * AccountsApi.getSupportedLanguages' SupportedLanguages (src/model/SupportedLanguages.js): each
 * language a recipient's pages, mails and certificate can be in (docs/esign-languages.md), its
 * English name and the code `supportedLanguage` and `defaultBrandLanguage` take.
 */
export function toWireSupportedLanguages(): { languages: { name: string; value: string }[] } {
  const names = new Intl.DisplayNames(['en'], { type: 'language' });
  return { languages: SUPPORTED_LANGUAGES.map((code) => ({ name: names.of(code.replace('_', '-')) ?? code, value: code })) };
}
