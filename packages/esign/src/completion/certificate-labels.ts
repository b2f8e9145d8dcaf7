import { ENGLISH_CERTIFICATE_LABELS, unicodeFontAvailable, type CertificateLabels } from '@signet/pdf';
import type { Language } from '../domain/language/languages.ts';
import type { AccountLook } from '../domain/account/account-settings.ts';
import { DEFAULT_SIGN_DATE_FORMAT, formatSignDate, formatSignTime } from '../domain/account/sign-date-format.ts';
import { translator } from '../i18n/translator.ts';

// Read once: the font is a Debian package (scripts/setup.mjs), installed or not for the process's life.
const JAPANESE_PRINTABLE = unicodeFontAvailable();

/**
 * The certificate prints Japanese in the IPAGothic font @signet/pdf embeds (render-certificate.ts);
 * on a machine without that font Japanese would come out as `?`, so there a Japanese envelope's
 * certificate is in English (docs/esign-languages.md).
 */
export function certificateLanguage(language: Language): Language {
  return language === 'ja' && !JAPANESE_PRINTABLE ? 'en' : language;
}

/**
 * A time as the account writes signing times (signDateFormat, then signTimeFormat, in UTC), when
 * it chose either; undefined when it chose neither, so the certificate keeps its own times.
 */
export function accountTime(look: AccountLook | undefined): ((at: Date) => string) | undefined {
  if (look?.signDateFormat === undefined && look?.signTimeFormat === undefined) return undefined;
  const dateFormat = look.signDateFormat ?? DEFAULT_SIGN_DATE_FORMAT;
  const timeFormat = look.signTimeFormat ?? 'HH:mm:ss';
  return (at) => {
    const time = formatSignTime(at, timeFormat);
    return time === '' ? formatSignDate(at, dateFormat) : `${formatSignDate(at, dateFormat)} ${time} UTC`;
  };
}

/**
 * The certificate's words and times from the catalogs (i18n/catalogs), in `language`; its times
 * in the account's signing date and time formats when it set them (docs/esign-account-settings.md).
 */
export function certificateLabels(language: Language, look?: AccountLook): CertificateLabels {
  const own = accountTime(look);
  const { t } = translator(certificateLanguage(language));
  return {
    title: t('certificate.title'), envelopeId: t('certificate.envelopeId'), subject: t('certificate.subject'), status: t('certificate.status'),
    sender: t('certificate.sender'), sent: t('certificate.sent'), completed: t('certificate.completed'), signers: t('certificate.signers'),
    signer: t('certificate.signer'), routingOrder: t('certificate.routingOrder'), ipAddress: t('certificate.ipAddress'), signed: t('certificate.signed'),
    tabValues: t('certificate.tabValues'), carbonCopies: t('certificate.carbonCopies'), copyTo: t('certificate.copyTo'), documents: t('certificate.documents'),
    document: t('certificate.document'), sha256: 'SHA-256:', events: t('certificate.events'),
    certifiedDeliveries: t('certificate.certifiedDeliveries'), deliveredTo: t('certificate.deliveredTo'), acknowledged: t('certificate.acknowledged'),
    pages: (count) => t('certificate.pages', { count }),
    ip: (address) => t('certificate.ip', { address }),
    footer: (envelopeId, at) => t('certificate.footer', { envelopeId, at }),
    // Times label the events' column (110 pt): numeric in the locale; English keeps ISO 8601, as before.
    time: own ?? ((at) => (certificateLanguage(language) === 'en' ? ENGLISH_CERTIFICATE_LABELS.time(at) : t('certificate.time', { at }))),
  };
}

/** A witness as the certificate names them: the witness, and the signer they saw sign (domain/envelope/witnesses.ts). */
export function witnessLine(language: Language, name: string, signer: string): string {
  return translator(certificateLanguage(language)).t('certificate.witnessFor', { name, signer });
}

/** An in-person signer as the certificate names them: the signer, and the host who handed over the device. */
export function inPersonSignerLine(language: Language, name: string, host: { name: string; email: string }): string {
  return translator(certificateLanguage(language)).t('certificate.inPersonHost', { name, host: host.name, hostEmail: host.email });
}
