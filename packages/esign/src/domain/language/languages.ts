/**
 * The languages a recipient's mails, signing pages and certificate are written in,
 * as DocuSign's language codes (RecipientEmailNotification.supportedLanguage and
 * Brand.defaultBrandLanguage in node_modules/docusign-esign/src/model/). docs/esign-languages.md.
 */
export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt_BR', 'it', 'nl', 'ja'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/**
 * The language when neither the recipient, the brand nor the account names one (an account's
 * accountDefaultLanguage, domain/account/account-settings.ts, unset): DocuSign's default.
 */
export const ACCOUNT_LANGUAGE: Language = 'en';

export function isSupportedLanguage(code: string): code is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(code);
}

type LanguageSources = {
  readonly brand?: { readonly language?: string } | undefined;
  readonly account?: { readonly language?: string } | undefined;
};

/**
 * The language a recipient reads: their own `supportedLanguage`, else the envelope brand's
 * `defaultBrandLanguage`, else the account's `accountDefaultLanguage`, else English. Codes are
 * checked when they are stored; one that is not supported (a snapshot from before the check)
 * falls through to the next choice.
 */
export function recipientLanguage(envelope: LanguageSources, recipient?: { readonly language?: string }): Language {
  for (const code of [recipient?.language, envelope.brand?.language, envelope.account?.language]) {
    if (code !== undefined && isSupportedLanguage(code)) return code;
  }
  return ACCOUNT_LANGUAGE;
}

/**
 * The language of what the envelope's parties share (the certificate of completion): the first
 * recipient's by routing order, who is the one the sender addressed first; the sender has no
 * language of their own here. docs/esign-languages.md.
 */
export function envelopeLanguage(envelope: LanguageSources & {
  readonly recipients: readonly { readonly routingOrder: number; readonly language?: string }[];
}): Language {
  const first = [...envelope.recipients].sort((a, b) => a.routingOrder - b.routingOrder)[0];
  return recipientLanguage(envelope, first);
}
