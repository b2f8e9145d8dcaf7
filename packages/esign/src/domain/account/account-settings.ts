import type { Language } from '../language/languages.ts';
import type { SignDateFormat, SignTimeFormat } from './sign-date-format.ts';

/**
 * How the verification page shows the IP addresses of an envelope's audit trail: `hidden` (as
 * before accounts could choose) or `hashed`, a keyed hash per envelope that lets a reader see that
 * two events came from one address without learning it (docs/pdf.md, "Verification").
 */
export const VERIFY_AUDIT_IP_MODES = ['hidden', 'hashed'] as const;
export type VerifyAuditIpMode = (typeof VERIFY_AUDIT_IP_MODES)[number];

/**
 * The account settings this service honours (AccountsApi.listSettings/updateSettings). A setting
 * left unset reads as today's behaviour; only what an administrator set is stored.
 */
export type AccountSettings = {
  readonly accountName: string;
  /** AccountSettingsInformation.accountDefaultLanguage: the last fallback of a recipient's language. */
  readonly language?: Language;
  /** signDateFormat: how dateSigned and date tabs are written, and the certificate's dates. */
  readonly signDateFormat?: SignDateFormat;
  /** signTimeFormat: the time after the date on the certificate of completion. */
  readonly signTimeFormat?: SignTimeFormat;
  /** Signet's own setting (additionalSettings name `signetVerifyAuditIps`). */
  readonly verifyAuditIps?: VerifyAuditIpMode;
};

/** What an update changes: each field given replaces the stored one. */
export type AccountSettingsPatch = {
  readonly accountName?: string;
  readonly language?: Language;
  readonly signDateFormat?: SignDateFormat;
  readonly signTimeFormat?: SignTimeFormat;
  readonly verifyAuditIps?: VerifyAuditIpMode;
};

/**
 * The part of an account's settings that shapes what an envelope's parties see (language, how
 * dates are written), read with the envelope so mails, pages and the certificate follow the
 * account's current choice.
 */
export type AccountLook = Pick<AccountSettings, 'language' | 'signDateFormat' | 'signTimeFormat'>;
