import { VERIFY_AUDIT_IP_MODES, type AccountSettings } from '../domain/account/account-settings.ts';
import { DEFAULT_SIGN_DATE_FORMAT, SIGN_DATE_FORMATS, SIGN_TIME_FORMATS } from '../domain/account/sign-date-format.ts';
import { ACCOUNT_LANGUAGE, SUPPORTED_LANGUAGES } from '../domain/language/languages.ts';
import { VERIFY_AUDIT_IPS_SETTING } from './parse-account-settings.ts';

/** DocuSign's SettingsMetadata for a setting an administrator may change (node_modules/docusign-esign/src/model/SettingsMetadata.js). */
function editable(uiType: 'text' | 'list', options?: readonly string[]): Record<string, unknown> {
  return { rights: 'editable', uiHint: 'available', uiType, ...(options ? { options: [...options] } : {}) };
}

/**
 * AccountSettingsInformation (AccountsApi.listSettings) for the settings this service has, each
 * with its `…Metadata` as DocuSign pairs them; every value a string, as the model declares.
 * A setting never set reads as what the service does without it: English, DocuSign's default
 * date format, IPs hidden. signTimeFormat appears once set: without it the certificate keeps
 * its own times (docs/esign-account-settings.md).
 */
export function toWireAccountSettings(settings: AccountSettings): Record<string, unknown> {
  return {
    accountName: settings.accountName,
    accountNameMetadata: editable('text'),
    accountDefaultLanguage: settings.language ?? ACCOUNT_LANGUAGE,
    accountDefaultLanguageMetadata: editable('list', SUPPORTED_LANGUAGES),
    signDateFormat: settings.signDateFormat ?? DEFAULT_SIGN_DATE_FORMAT,
    signDateFormatMetadata: editable('list', SIGN_DATE_FORMATS),
    ...(settings.signTimeFormat !== undefined ? { signTimeFormat: settings.signTimeFormat } : {}),
    signTimeFormatMetadata: editable('list', SIGN_TIME_FORMATS),
    additionalSettings: [{ name: VERIFY_AUDIT_IPS_SETTING, value: settings.verifyAuditIps ?? 'hidden', metadata: editable('list', VERIFY_AUDIT_IP_MODES) }],
  };
}
