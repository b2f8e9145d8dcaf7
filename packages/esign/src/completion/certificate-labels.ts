import { ENGLISH_CERTIFICATE_LABELS, type CertificateLabels } from '@signet/pdf';
import type { Language } from '../domain/language/languages.ts';
import { translator } from '../i18n/translator.ts';

/**
 * The certificate prints in Helvetica (WinAnsi: Latin scripts only, @signet/pdf
 * render-certificate.ts); Japanese would come out as `?`, so until a CJK font is embedded a
 * Japanese envelope's certificate is in English (docs/esign-languages.md).
 */
export function certificateLanguage(language: Language): Language {
  return language === 'ja' ? 'en' : language;
}

/** The certificate's words and times from the catalogs (i18n/catalogs), in `language`. */
export function certificateLabels(language: Language): CertificateLabels {
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
    time: (at) => (certificateLanguage(language) === 'en' ? ENGLISH_CERTIFICATE_LABELS.time(at) : t('certificate.time', { at })),
  };
}

/** An in-person signer as the certificate names them: the signer, and the host who handed over the device. */
export function inPersonSignerLine(language: Language, name: string, host: { name: string; email: string }): string {
  return translator(certificateLanguage(language)).t('certificate.inPersonHost', { name, host: host.name, hostEmail: host.email });
}
